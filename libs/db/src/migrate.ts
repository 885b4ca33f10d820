import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Pool } from 'pg';
import { parseDatabaseUrl } from '@rtm/config';
import { askServer, NoServerError } from './server-locator.ts';
import { runMigrations as runWorkerMigrations } from 'graphile-worker';
import { ADVISORY_LOCKS } from './advisory-locks.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));
// serialises concurrent migrators on one database
const MIGRATION_LOCK = ADVISORY_LOCKS.migrations;

/**
 * Applies the numbered, forward-only migrations in `libs/db/migrations`, then graphile-worker's
 * own schema (which handles its own races). Safe when several processes start at once: the
 * bookkeeping table and each migration are created in a transaction that first takes a
 * transaction-level advisory lock, so the second process waits, then sees the first one's rows
 * in `migrations` and skips them.
 */
export async function migrate(pool: Pool): Promise<string[]> {
  const files = await migrationFiles();
  const applied: string[] = [];
  const client = await pool.connect();
  try {
    // `create table if not exists` is not safe against a concurrent creator (it can fail with
    // 42710 or 23505 on the table's type), so it runs under the same lock as the migrations
    await client.query('begin');
    try {
      await client.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await client.query('create table if not exists migrations (id text primary key, applied_at timestamptz not null default now())');
      await client.query('commit');
    } catch (error) {
      await client.query('rollback');
      throw error;
    }
    for (const file of files) {
      const id = file.slice(0, 6);
      await client.query('begin');
      try {
        await client.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
        const done = await client.query('select 1 from migrations where id = $1', [id]);
        if (done.rowCount === 0) {
          await client.query('insert into migrations (id) values ($1)', [id]);
          await client.query(await readFile(MIGRATIONS_DIR + file, 'utf8'));
          applied.push(id);
        }
        await client.query('commit');
      } catch (error) {
        await client.query('rollback');
        throw error;
      }
    }
  } finally {
    client.release();
  }
  await runWorkerMigrations({ pgPool: pool });
  // add_job plans go stale while the jobs table is empty; give the planner facts
  await pool.query('analyze graphile_worker._private_jobs');
  return applied;
}

async function migrationFiles(): Promise<string[]> {
  return (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{6}\.sql$/.test(f)).sort();
}

/**
 * Start-up's migrations. When no listed server accepts writes (NoServerError: the URL names a
 * standby alone, or a fail-over is under way) but one of them already has every migration of this
 * release, the process starts anyway (`readOnly`, said in `log`): what needs Postgres answers 503
 * `unavailable` until a primary is found (docs/postgres.md). Otherwise the error is thrown, as before.
 */
export async function migrateAtStart(
  pool: Pool,
  databaseUrl: string,
  log: { warn(message: string): void },
): Promise<{ applied: string[] } | { readOnly: true }> {
  try {
    return { applied: await migrate(pool) };
  } catch (error) {
    if (!(error instanceof NoServerError) || !(await schemaIsCurrent(databaseUrl))) throw error;
    log.warn('no listed Postgres server accepts writes; the schema is current, so starting: writes answer 503 until a primary is found');
    return { readOnly: true };
  }
}

/** Whether a listed server (a standby will do) has every migration of this release. */
async function schemaIsCurrent(databaseUrl: string): Promise<boolean> {
  const latest = (await migrationFiles()).at(-1)?.slice(0, 6);
  const answers = await Promise.all(
    parseDatabaseUrl(databaseUrl).hosts.map((host) =>
      askServer(host, async (client) => (await client.query<{ id: string | null }>('select max(id) as id from migrations')).rows[0]?.id === latest),
    ),
  );
  return answers.includes(true);
}
