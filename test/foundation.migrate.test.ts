import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { createPool, migrate } from '@rtm/db';
import { createEmptyDatabase } from './helpers/database.ts';

const MIGRATIONS = readdirSync(new URL('../libs/db/migrations/', import.meta.url))
  .filter((f) => /^\d{6}\.sql$/.test(f))
  .map((f) => f.slice(0, 6))
  .sort();

test('migrations - several processes migrating one fresh database at once apply each migration exactly once', async (t) => {
  const db = await createEmptyDatabase(t);
  const pools = Array.from({ length: 4 }, (_, i) => createPool(db.url, { max: 2, name: `migrator-${i}` }));
  t.after(() => Promise.all(pools.map((pool) => pool.end())));

  const results = await Promise.all(pools.map((pool) => migrate(pool)));
  // every migration was applied by exactly one of the racers; the others saw it done
  assert.deepEqual(results.flat().sort(), MIGRATIONS);

  const pool = pools[0]!;
  const { rows } = await pool.query<{ id: string }>('select id from migrations order by id');
  assert.deepEqual(
    rows.map((r) => r.id),
    MIGRATIONS,
  );
  const tables = await pool.query<{ table_name: string }>("select table_name from information_schema.tables where table_schema = 'public'");
  const names = new Set(tables.rows.map((r) => r.table_name));
  for (const table of [
    'organizations',
    'projects',
    'environments',
    'api_keys',
    'allowed_origins',
    'signing_keys',
    'channels',
    'messages',
    'webhook_deliveries',
  ]) {
    assert.ok(names.has(table), `table ${table}`);
  }
  // graphile-worker's own schema is migrated too
  const worker = await pool.query("select 1 from information_schema.schemata where schema_name = 'graphile_worker'");
  assert.equal(worker.rowCount, 1);

  // and migrating again is a no-op
  assert.deepEqual(await migrate(pools[1]!), []);
});
