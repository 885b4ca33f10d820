import { randomBytes } from 'node:crypto';
import { newId, withTransaction, type Pool, type PoolClient } from '@rtm/db';
import { generateKey, hashKey, keyHint, type KeyKind } from './keys.ts';

export interface CreatedEnvironment {
  organizationId: string;
  projectId: string;
  environmentId: string;
  secretKey: string;
  publishableKey: string;
}

/**
 * Creates (or reuses, by name) the organization and project, then a new environment with a
 * secret key, a publishable key and a token signing key, in one transaction.
 */
export async function createEnvironment(pool: Pool, names: { organization: string; project: string; environment: string }): Promise<CreatedEnvironment> {
  return withTransaction(pool, (client) => createEnvironmentIn(client, names));
}

/** `createEnvironment` inside a transaction the caller opened (so it can record more in it). */
export async function createEnvironmentIn(
  client: PoolClient,
  names: { organization: string; project: string; environment: string },
): Promise<CreatedEnvironment> {
  const org = await client.query<{ id: string }>(
    `with found as (select id from organizations where name = $2 limit 1),
          made as (insert into organizations (id, name) select $1, $2 where not exists (select 1 from found) returning id)
     select id from found union all select id from made`,
    [newId('org'), names.organization],
  );
  const organizationId = org.rows[0]!.id;
  const project = await client.query<{ id: string }>(
    `insert into projects (id, organization_id, name) values ($1, $2, $3)
     on conflict (organization_id, name) do update set name = excluded.name returning id`,
    [newId('prj'), organizationId, names.project],
  );
  const projectId = project.rows[0]!.id;
  const environmentId = await insertEnvironment(client, projectId, names.environment);
  const secretKey = await insertKey(client, environmentId, 'secret');
  const publishableKey = await insertKey(client, environmentId, 'publishable');
  return { organizationId, projectId, environmentId, secretKey, publishableKey };
}

/**
 * A new environment of a project with its token signing key, and no API keys yet. A name taken
 * in the project fails with Postgres' unique violation (23505).
 */
export async function insertEnvironment(client: PoolClient | Pool, projectId: string, name: string): Promise<string> {
  const environmentId = newId('env');
  await client.query('insert into environments (id, project_id, name) values ($1, $2, $3)', [environmentId, projectId, name]);
  await client.query('insert into signing_keys (id, environment_id, secret) values ($1, $2, $3)', [newId('kid'), environmentId, randomBytes(32)]);
  return environmentId;
}

/** A new API key of an environment; only its hash and hint are stored. */
export async function insertKey(client: PoolClient | Pool, environmentId: string, kind: KeyKind): Promise<string> {
  return (await insertKeyRow(client, environmentId, kind)).key;
}

/** `insertKey`, also answering the stored row's id and creation time. */
export async function insertKeyRow(
  client: PoolClient | Pool,
  environmentId: string,
  kind: KeyKind,
): Promise<{ id: string; key: string; hint: string; createdAt: Date }> {
  const key = generateKey(kind);
  const id = newId('key');
  const hint = keyHint(key);
  const { rows } = await client.query<{ created_at: Date }>(
    'insert into api_keys (id, environment_id, kind, key_hash, hint) values ($1, $2, $3, $4, $5) returning created_at',
    [id, environmentId, kind, hashKey(key), hint],
  );
  return { id, key, hint, createdAt: rows[0]!.created_at };
}
