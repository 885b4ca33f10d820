import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Pool } from 'pg';
import { runMigrations as runWorkerMigrations } from 'graphile-worker';

const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));
// any constant shared by every process: serialises concurrent migrators on one database
const MIGRATION_LOCK = 7_351_001;

/**
 * Applies the numbered, forward-only migrations in `libs/db/migrations`, then graphile-worker's
 * own schema. Safe when several processes start at once: each migration runs in a transaction
 * that first takes a transaction-level advisory lock, so the second process waits, then sees
 * the first one's rows in `migrations` and skips them.
 */
export async function migrate(pool: Pool): Promise<string[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{6}\.sql$/.test(f)).sort();
  const applied: string[] = [];
  const client = await pool.connect();
  try {
    await client.query(
      'create table if not exists migrations (id text primary key, applied_at timestamptz not null default now())',
    );
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
  } catch (error) {
    // two processes racing on `create table if not exists` may collide once; the loser retries
    if ((error as { code?: string }).code === '23505') return migrate(pool);
    throw error;
  } finally {
    client.release();
  }
  await runWorkerMigrations({ pgPool: pool });
  // add_job plans go stale while the jobs table is empty (PERF-NOTES); give the planner facts
  await pool.query('analyze graphile_worker._private_jobs');
  return applied;
}
