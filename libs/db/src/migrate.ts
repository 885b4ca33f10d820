import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Pool } from 'pg';
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
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{6}\.sql$/.test(f)).sort();
  const applied: string[] = [];
  const client = await pool.connect();
  try {
    // `create table if not exists` is not safe against a concurrent creator (it can fail with
    // 42710 or 23505 on the table's type), so it runs under the same lock as the migrations
    await client.query('begin');
    try {
      await client.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      await client.query(
        'create table if not exists migrations (id text primary key, applied_at timestamptz not null default now())',
      );
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
