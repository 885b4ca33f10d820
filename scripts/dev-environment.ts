import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createEnvironment, hashKey, type CreatedEnvironment } from '@rtm/auth';
import type { Pool } from '@rtm/db';

/**
 * The environment `npm start` hands to a developer. Keys are shown only once when created, so
 * they are kept in a git-ignored file (.data/dev-environment.json) and shown again from there on
 * later starts. A file whose environment or keys no longer exist (a reset database, a revoked
 * key) is replaced by a new environment.
 */
export async function ensureDevEnvironment(
  pool: Pool,
  file: string,
): Promise<{ environment: CreatedEnvironment; created: boolean }> {
  const saved = await readSaved(file);
  if (saved && (await stillValid(pool, saved))) return { environment: saved, created: false };
  const environment = await createNamed(pool);
  await mkdir(dirname(file), { recursive: true });
  // write then rename: a crash never leaves half a file (and so never loses the only copy of a key)
  await writeFile(`${file}.tmp`, `${JSON.stringify(environment, null, 2)}\n`, { mode: 0o600 });
  await rename(`${file}.tmp`, file);
  return { environment, created: true };
}

async function readSaved(file: string): Promise<CreatedEnvironment | null> {
  try {
    const value = JSON.parse(await readFile(file, 'utf8')) as Partial<CreatedEnvironment>;
    const fields = ['organizationId', 'projectId', 'environmentId', 'secretKey', 'publishableKey'] as const;
    return fields.every((f) => typeof value[f] === 'string') ? (value as CreatedEnvironment) : null;
  } catch {
    return null;
  }
}

async function stillValid(pool: Pool, env: CreatedEnvironment): Promise<boolean> {
  const { rows } = await pool.query<{ n: number }>(
    `select count(*)::int as n from api_keys
     where environment_id = $1 and revoked_at is null and key_hash = any($2::bytea[])`,
    [env.environmentId, [hashKey(env.secretKey), hashKey(env.publishableKey)]],
  );
  return rows[0]?.n === 2;
}

async function createNamed(pool: Pool): Promise<CreatedEnvironment> {
  const names = { organization: 'dev', project: 'dev' };
  try {
    return await createEnvironment(pool, { ...names, environment: 'dev' });
  } catch (error) {
    // an earlier `dev` environment whose keys were lost: make another one beside it
    if ((error as { code?: string }).code !== '23505') throw error;
    return createEnvironment(pool, { ...names, environment: `dev-${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}` });
  }
}
