import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEnvironment } from '@rtm/auth';
import { CLAIM_SQL, RECORD_SQL } from '../apps/dispatcher/src/delivery/delivery-leases.ts';
import { SETTINGS_SQL } from '../apps/dispatcher/src/delivery/endpoint-settings.ts';
import { createTestDatabase } from './helpers/database.ts';

/**
 * The dispatcher's claim and record find their rows by id. Behind a backlog of pending rows that
 * the planner's statistics do not know of yet (a burst, before autovacuum analyses the table), a
 * plan that served them from the partial index of pending rows walked the whole backlog for each
 * statement (2–25 ms behind 16,000 rows, measured). Both must go by the primary key whatever the
 * statistics say, with the plan the prepared statement settles on (generic).
 */
test('webhooks - claim and record go by the primary key, not through a pending backlog the statistics do not know', async (t) => {
  const db = await createTestDatabase(t);
  const env = await createEnvironment(db.pool, { organization: 'plan', project: 'plan', environment: 'plan' });
  const insert = (status: string, from: number, n: number) =>
    db.pool.query(
      `insert into webhook_deliveries (id, environment_id, event_id, event_type, channel_id, url, body, status, next_attempt_at)
       select 'dlv_' || $2 || g, $1, 'evt_' || $2 || g, 'message.published', 'c', 'https://example.com/hook', repeat('x', 500), $2, now() - interval '1 minute'
       from generate_series($3::int, $3::int + $4::int - 1) g`,
      [env.environmentId, status, from, n],
    );
  // the statistics are taken while nearly nothing is pending, then a backlog arrives
  await insert('delivered', 1, 2_000);
  await db.pool.query('analyze webhook_deliveries');
  await insert('pending', 1, 20_000);

  // released before the test ends: the database's pool waits for it when it closes
  const client = await db.pool.connect();
  try {
    await client.query('set plan_cache_mode = force_generic_plan');
    const plan = async (name: string, sql: string, values: unknown[]) => {
      await client.query({ name, text: sql, values }); // prepares it (and runs it once)
      const types = (await client.query(`select parameter_types::text[] as t from pg_prepared_statements where name = $1`, [name])).rows[0].t as string[];
      const args = values.map(
        (v, i) =>
          `${client.escapeLiteral(Array.isArray(v) ? `{${v.map((x) => (x === null ? 'NULL' : `"${String(x)}"`)).join(',')}}` : String(v))}::${types[i]}`,
      );
      const { rows } = await client.query(`explain (analyze, costs off, format json) execute ${name}(${args.join(', ')})`);
      return JSON.stringify(rows[0]['QUERY PLAN']);
    };
    const ids = ['dlv_pending5', 'dlv_pending6', 'dlv_pending7'];
    for (const [name, sql, values] of [
      ['claim', CLAIM_SQL, [ids, 15_000, [null, null, new Date().toISOString()]]],
      [
        'settings',
        SETTINGS_SQL,
        [
          ['env_a', 'env_a'],
          ['', 'ep_1'],
        ],
      ],
      [
        'record',
        RECORD_SQL,
        [
          ids,
          [1, 1, 1],
          [new Date().toISOString(), new Date().toISOString(), new Date().toISOString()],
          [200, 200, 200],
          [null, null, null],
          [3, 3, 3],
          ['delivered', 'delivered', 'delivered'],
          [null, null, null],
          [new Date().toISOString(), new Date().toISOString(), new Date().toISOString()],
        ],
      ],
    ] as const) {
      const text = await plan(name, sql, values as unknown as unknown[]);
      if (name === 'settings') {
        // no row of the ledger at all: only the endpoint's and the environment's, by their keys
        assert.ok(!text.includes('webhook_deliveries'), `settings: the ledger is not read\n${text}`);
        continue;
      }
      assert.ok(!text.includes('webhook_deliveries_pending_idx'), `${name}: no scan of the pending backlog's index\n${text}`);
      assert.ok(text.includes('webhook_deliveries_pkey'), `${name}: by the primary key\n${text}`);
    }
  } finally {
    client.release();
  }
});
