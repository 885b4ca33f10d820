/**
 * Usage retention (docs/stats.md, "Retention"): the dispatcher's `prune_usage` job deletes
 * minutes after 48 hours (with the flush records), hours after 90 days, days and months after 2
 * years, whole hours, days and months at a time, and keeps everything younger.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { eventually } from './helpers/eventually.ts';
import { insertUsage, requestPrune, runRollup, startOf, storedUsage, usageRow } from './helpers/usage.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** `ms` moved by `n` calendar months (UTC), written here apart from the service's arithmetic. */
const months = (ms: number, n: number) => {
  const d = new Date(ms);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1);
};

test('usage retention: prune_usage deletes what outlived its retention, keeps the rest', async (t) => {
  const cluster = await startCluster(t, { gateways: 0, dispatchers: 0 });
  const pool = cluster.db.pool;
  const env = 'env_retention';
  const now = (await pool.query<{ now: Date }>('select now() as now')).rows[0]!.now.getTime();
  const seeded = {
    usage_minutes: { gone: startOf('hour', now - 50 * HOUR), kept: startOf('hour', now - 46 * HOUR) },
    usage_hours: { gone: startOf('day', now - 92 * DAY) + 5 * HOUR, kept: startOf('hour', now - 88 * DAY) },
    usage_days: { gone: months(now, -25), kept: months(now, -23) },
    usage_months: { gone: months(now, -26), kept: months(now, -22) },
  };
  let seed = 1;
  for (const [table, { gone, kept }] of Object.entries(seeded)) await insertUsage(pool, table, env, [usageRow(gone, seed++), usageRow(kept, seed++)]);
  await pool.query(
    `insert into usage_flushes (source, flush, created_at) values ('old', 1, now() - interval '49 hours'), ('recent', 1, now() - interval '1 hour')`,
  );

  await cluster.start('dispatcher');
  // a minute is pruned only once rolled up: the first rollup, then a prune run
  await runRollup(pool);
  await requestPrune(pool);
  const ats = async (table: string) => (await storedUsage(pool, table, env)).map((r) => r.at);
  await eventually(
    'the old usage pruned',
    async () => {
      for (const [table, { gone }] of Object.entries(seeded)) if ((await ats(table)).includes(gone)) return false;
      const flushes = await pool.query(`select source from usage_flushes`);
      return flushes.rows.every((r) => r.source !== 'old');
    },
    60_000,
  );

  for (const [table, { kept }] of Object.entries(seeded)) assert.ok((await ats(table)).includes(kept), `${table} keeps ${new Date(kept).toISOString()}`);
  const flushes = await pool.query(`select source from usage_flushes`);
  assert.deepEqual(
    flushes.rows.map((r) => r.source),
    ['recent'],
  );
});
