/**
 * An environment's configuration deployments as stored: each deploy is a row of
 * `config_deployments`, and the environment points at the active one (with the webhook URL and
 * the default channel access copied beside it, which the hot paths read without the jsonb). What
 * a configuration holds, its validation and what a deploy means for live sockets are the
 * gateway's (apps/gateway/src/config/deploy.ts); the configuration is stored as given.
 */
import type { Pool, PoolClient } from 'pg';

/** The active deployment of an environment, or null before the first deploy. */
export async function readActiveDeployment<Config>(pool: Pool, environmentId: string): Promise<{ id: string; config: Config; activatedAt: Date } | null> {
  const { rows } = await pool.query<{ id: string; config: Config; activated_at: Date }>(
    `select d.id, d.config, d.activated_at
     from environments e join config_deployments d on d.id = e.active_deployment_id
     where e.id = $1`,
    [environmentId],
  );
  const row = rows[0];
  return row ? { id: row.id, config: row.config, activatedAt: row.activated_at } : null;
}

/**
 * The active deployment's configuration, read inside a deploy's transaction with the environment's
 * row locked until it commits: deploys of one environment take turns, so a change computed from
 * this configuration (a merge) cannot lose another deploy's change. Null before the first deploy.
 */
export async function lockActiveDeployment<Config>(client: PoolClient, environmentId: string): Promise<Config | null> {
  // two statements: a locking select that waited re-reads only the locked row, not its join, so
  // the deployment a concurrent deploy just activated is read afterwards, in a fresh snapshot
  await lockDeploys(client, environmentId);
  const { rows } = await client.query<{ config: Config }>(
    `select d.config from environments e join config_deployments d on d.id = e.active_deployment_id where e.id = $1`,
    [environmentId],
  );
  return rows[0]?.config ?? null;
}

/**
 * Takes the environment's deploy turn: every deploy locks the row first, before its insert's
 * foreign key takes a share lock on it. A deploy that inserted first and locked after would hold
 * that share lock while waiting for a merge's lock, which waits for it: a deadlock.
 */
export async function lockDeploys(client: PoolClient, environmentId: string): Promise<void> {
  await client.query(`select 1 from environments where id = $1 for no key update`, [environmentId]);
}

/** Stores a deployment activated now; answers when. Inside the deploy's transaction. */
export async function insertDeployment(client: PoolClient, deploymentId: string, environmentId: string, config: unknown): Promise<Date> {
  const { rows } = await client.query<{ activated_at: Date }>(
    `insert into config_deployments (id, environment_id, config, activated_at) values ($1, $2, $3, now())
     returning activated_at`,
    [deploymentId, environmentId, JSON.stringify(config)],
  );
  return rows[0]!.activated_at;
}

/**
 * Whether the environment's webhooks are off (no URL) before this deploy activates, its row
 * locked for update until the deploy's transaction ends. Inside the deploy's transaction.
 */
export async function lockWebhooksOff(client: PoolClient, environmentId: string): Promise<boolean> {
  const { rows } = await client.query<{ off: boolean }>('select webhook_url is null as off from environments where id = $1 for update', [environmentId]);
  return rows[0]?.off ?? false;
}

/** Makes the deployment the environment's active one, with the settings copied from it. */
export async function activateDeployment(
  client: PoolClient,
  environmentId: string,
  deploymentId: string,
  settings: { webhookUrl: string | null; defaultAccess: string },
): Promise<void> {
  await client.query(`update environments set active_deployment_id = $2, webhook_url = $3, default_access = $4 where id = $1`, [
    environmentId,
    deploymentId,
    settings.webhookUrl,
    settings.defaultAccess,
  ]);
}

/**
 * The namespaces and the `channels` object (the presence defaults) of the environment's active
 * deployment, as stored (either may be absent in older deployments); null before the first deploy.
 */
export async function readActiveNamespaces<Namespace, Defaults>(
  pool: Pool,
  environmentId: string,
): Promise<{ namespaces: Namespace[] | null; defaults: Defaults | null } | null> {
  const { rows } = await pool.query<{ namespaces: Namespace[] | null; defaults: Defaults | null }>(
    `select d.config -> 'namespaces' as namespaces, d.config -> 'channels' as defaults
     from environments e join config_deployments d on d.id = e.active_deployment_id where e.id = $1`,
    [environmentId],
  );
  return rows[0] ?? null;
}
