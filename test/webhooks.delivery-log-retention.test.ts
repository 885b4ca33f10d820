import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEnvironment } from '@rtm/auth';
import type { Pool } from '@rtm/db';
import { pruneWebhookLog } from '../apps/dispatcher/src/tasks/prune-webhooks.ts';
import { createTestDatabase } from './helpers/database.ts';

const DAY = 86_400_000;
const RETENTION = 7 * DAY;

async function partitions(pool: Pool, table: string): Promise<string[]> {
  const { rows } = await pool.query<{ name: string }>(
    `select c.relname::text as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
     where i.inhparent = $1::regclass order by 1`,
    [table],
  );
  return rows.map((row) => row.name);
}

/** A log row on `day` (noon UTC) in webhook partition `partition`; `outcome`: its first attempt succeeded. */
async function logRow(pool: Pool, env: string, id: string, day: string, options: { partition?: number; outcome?: boolean; tx?: string } = {}) {
  await pool.query(
    `insert into webhook_log (id, environment_id, event_id, event_type, channel_id, url, body, partition, tx, created_at)
     values ($1, $2, 'msg_' || substr($1, 5), 'message.published', 'general', 'https://example.com/hook', '{}', $3,
             coalesce($5::xid8, pg_current_xact_id()), ($4 || ' 12:00:00+00')::timestamptz)`,
    [id, env, options.partition ?? 0, day, options.tx ?? null],
  );
  if (options.outcome) {
    await pool.query(
      `insert into webhook_outcomes (delivery_id, created_at, environment_id, at, status_code, duration_ms)
       values ($1, ($2 || ' 12:00:00+00')::timestamptz, $3, ($2 || ' 12:00:01+00')::timestamptz, 200, 5)`,
      [id, day, env],
    );
  }
}

test('webhooks - retention makes the log partitions a week ahead and drops expired days that are done with', async (t) => {
  const db = await createTestDatabase(t);
  const { pool } = db;
  const env = (await createEnvironment(pool, { organization: 'ret', project: 'ret', environment: 'a' })).environmentId;

  // four old days: done (all outcomes), one row never attempted, one failed (a ledger row), empty
  await pool.query(`select webhook_log_partitions('2026-01-01', 4)`);
  await logRow(pool, env, 'dlv_a1', '2026-01-01', { outcome: true });
  await logRow(pool, env, 'dlv_a2', '2026-01-01', { outcome: true });
  await logRow(pool, env, 'dlv_b1', '2026-01-02', { outcome: true });
  await logRow(pool, env, 'dlv_b2', '2026-01-02');
  await logRow(pool, env, 'dlv_c1', '2026-01-03');
  await pool.query(
    `insert into webhook_deliveries (id, environment_id, event_id, event_type, channel_id, url, body, status, attempts, created_at, updated_at)
     values ('dlv_c1', $1, 'msg_c1', 'message.published', 'general', 'https://example.com/hook', '{}', 'dropped', 5, '2026-01-03 12:00:00+00', now())`,
    [env],
  );
  // an old row in the default partition (its day had no partition), one not done
  await logRow(pool, env, 'dlv_z1', '2025-12-01', { outcome: true });
  await logRow(pool, env, 'dlv_z2', '2025-12-02');

  // no positions kept yet: rows count as done by their outcome or ledger row
  const first = await pruneWebhookLog(pool, RETENTION);
  assert.deepEqual(first, { dropped: ['20260101', '20260103', '20260104'], kept: ['20260102'] });
  let log = await partitions(pool, 'webhook_log');
  let outcomes = await partitions(pool, 'webhook_outcomes');
  for (const day of ['20260101', '20260103', '20260104']) {
    assert.ok(!log.includes(`webhook_log_${day}`), day);
    assert.ok(!outcomes.includes(`webhook_outcomes_${day}`), day);
  }
  assert.ok(log.includes('webhook_log_20260102'));
  assert.ok(outcomes.includes('webhook_outcomes_20260102'));
  // the ledger row outlives its log row (it is pruned by its own rule)
  assert.equal((await pool.query(`select count(*)::int as n from webhook_deliveries where id = 'dlv_c1'`)).rows[0].n, 1);
  // the default partition: the done row deleted, with its outcome; the other kept
  assert.deepEqual((await pool.query(`select id from webhook_log_default order by id`)).rows, [{ id: 'dlv_z2' }]);
  assert.equal((await pool.query(`select count(*)::int as n from webhook_outcomes_default`)).rows[0].n, 0);

  // partitions a week ahead (today's and the next 7 days), as UTC days
  const { rows: ahead } = await pool.query<{ day: string }>(
    `select to_char((now() at time zone 'UTC')::date + g, 'YYYYMMDD') as day from generate_series(0, 7) g`,
  );
  for (const { day } of ahead) {
    assert.ok(log.includes(`webhook_log_${day}`), day);
    assert.ok(outcomes.includes(`webhook_outcomes_${day}`), day);
  }

  // positions: a day goes once its rows all lie below every partition's position (the rows
  // below are given transaction ids far above every real one so far)
  const { rows: xids } = await pool.query<{ tx: string }>(`select pg_current_xact_id()::text as tx`);
  const now = BigInt(xids[0]!.tx) + 1_000n;
  await pool.query(`select webhook_log_partitions('2026-02-01', 3)`);
  await logRow(pool, env, 'dlv_p1', '2026-02-01', { partition: 0, tx: String(now - 10n) });
  // never attempted, but below the positions: its owner read past it (it was rolled back, say)
  await logRow(pool, env, 'dlv_p2', '2026-02-01', { partition: 1, tx: String(now - 9n) });
  // above partition 1's position, though it has an outcome
  await logRow(pool, env, 'dlv_q1', '2026-02-02', { partition: 0, tx: String(now - 8n), outcome: true });
  await logRow(pool, env, 'dlv_q2', '2026-02-02', { partition: 1, tx: String(now - 3n), outcome: true });
  // below every position, in a webhook partition with no position, not done
  await logRow(pool, env, 'dlv_r1', '2026-02-03', { partition: 2, tx: String(now - 9n) });
  await pool.query(`insert into webhook_positions (partition, tx) values (0, $1), (1, $2)`, [String(now - 5n), String(now - 4n)]);

  // 2026-01-02's row never attempted lies below them now: its owner read past it
  const second = await pruneWebhookLog(pool, RETENTION);
  assert.deepEqual(second, { dropped: ['20260102', '20260201'], kept: ['20260202', '20260203'] });

  // the owners move on, and partition 2 gets a position
  await pool.query(`update webhook_positions set tx = $1`, [String(now)]);
  await pool.query(`insert into webhook_positions (partition, tx) values (2, $1)`, [String(now)]);
  const third = await pruneWebhookLog(pool, RETENTION);
  assert.deepEqual(third, { dropped: ['20260202', '20260203'], kept: [] });
  log = await partitions(pool, 'webhook_log');
  outcomes = await partitions(pool, 'webhook_outcomes');
  assert.ok(!log.some((name) => name.startsWith('webhook_log_2026010') || name.startsWith('webhook_log_2026020')), log.join());
  assert.ok(!outcomes.some((name) => name.startsWith('webhook_outcomes_2026010') || name.startsWith('webhook_outcomes_2026020')), outcomes.join());
  assert.ok(log.includes('webhook_log_default') && outcomes.includes('webhook_outcomes_default'));

  // again: nothing to do, and the partitions ahead are kept
  assert.deepEqual(await pruneWebhookLog(pool, RETENTION), { dropped: [], kept: [] });
  assert.deepEqual(await partitions(pool, 'webhook_log'), log);
});
