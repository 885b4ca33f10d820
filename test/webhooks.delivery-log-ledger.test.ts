import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEnvironment } from '@rtm/auth';
import type { Pool } from '@rtm/db';
import { getDelivery, listDeliveries, retryDelivery } from '@rtm/webhooks';
import { deliveriesPageQuery } from '../libs/webhooks/src/delivery-ledger.ts';
import { createTestDatabase } from './helpers/database.ts';

/** A message id whose 10 time characters are `time` (zero padded): `msg_` + time + 16 random. */
const messageId = (time: number, rest = 'r') => `msg_${String(time).padStart(10, '0')}${rest.padEnd(16, 'x')}`;

/** The delivery id of (event, endpoint) as the commit path derives it. */
async function deliveryId(pool: Pool, eventId: string, endpointId: string | null): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `select 'dlv_' || substr($1::text, 5, 10) || substr(md5($1::text || coalesce($2::text, '')), 1, 16) as id`,
    [eventId, endpointId],
  );
  return rows[0]!.id;
}

/** One `webhook_log` row, as the commit path appends it; returns its delivery id. */
async function logRow(pool: Pool, environmentId: string, eventId: string, endpointId: string | null, createdAt: string): Promise<string> {
  const id = await deliveryId(pool, eventId, endpointId);
  await pool.query(
    `insert into webhook_log (id, environment_id, endpoint_id, event_id, event_type, channel_id, url, body, partition, created_at)
     values ($1, $2, $3, $4, 'message.published', 'general', 'https://example.com/hook', '{"id":"' || $4 || '"}', 0, $5)`,
    [id, environmentId, endpointId, eventId, createdAt],
  );
  return id;
}

/** A `webhook_outcomes` row: the first attempt of a log row succeeded. */
async function outcome(pool: Pool, id: string, createdAt: string, at: string, statusCode = 200, durationMs = 12): Promise<void> {
  const { rows } = await pool.query<{ environment_id: string }>('select environment_id from webhook_log where id = $1', [id]);
  await pool.query(`insert into webhook_outcomes (delivery_id, created_at, environment_id, at, status_code, duration_ms) values ($1, $2, $3, $4, $5, $6)`, [
    id,
    createdAt,
    rows[0]!.environment_id,
    at,
    statusCode,
    durationMs,
  ]);
}

/** A full `webhook_deliveries` row with the given id. */
async function fullRow(
  pool: Pool,
  row: { id: string; environmentId: string; endpointId: string | null; eventId: string; status: string; attempts: number; createdAt: string },
): Promise<void> {
  await pool.query(
    `insert into webhook_deliveries (id, environment_id, endpoint_id, event_id, event_type, channel_id, url, body, status, attempts,
       last_error, last_status_code, next_attempt_at, created_at, updated_at, delivered_at)
     values ($1, $2, $3, $4, 'message.published', 'general', 'https://example.com/hook', '{}', $5, $6,
       case when $5 = 'dropped' then 'http_500' end, case when $5 = 'dropped' then 500 when $5 = 'delivered' then 204 end,
       case when $5 = 'pending' then now() end, $7, $7::timestamptz + interval '1 minute', case when $5 = 'delivered' then $7::timestamptz + interval '1 minute' end)`,
    [row.id, row.environmentId, row.endpointId, row.eventId, row.status, row.attempts, row.createdAt],
  );
}

const rejects = async (promise: Promise<unknown>, code: string, reason?: string) =>
  assert.rejects(promise, (error: { code?: string; reason?: string }) => {
    assert.equal(error.code, code);
    if (reason !== undefined) assert.equal(error.reason, reason);
    return true;
  });

test('webhooks - the ledger answers over full rows and the delivery log, as one newest-first list', async (t) => {
  const db = await createTestDatabase(t);
  const { pool } = db;
  const env = (await createEnvironment(pool, { organization: 'log', project: 'log', environment: 'a' })).environmentId;
  const other = (await createEnvironment(pool, { organization: 'log', project: 'log', environment: 'b' })).environmentId;
  await pool.query(`insert into webhook_endpoints (id, environment_id, url, secret) values ('ep_one', $1, 'https://example.com/one', 'x')`, [env]);

  // yesterday's and today's partitions both hold rows
  const yesterday = new Date(Date.now() - 86_400_000).toISOString();
  const today = new Date(Date.now() - 60_000).toISOString();
  const deliveredAt = new Date(Date.now() - 30_000).toISOString();

  // delivered at its first attempt: a log row with an outcome
  const d1 = await logRow(pool, env, messageId(1), null, yesterday);
  await outcome(pool, d1, yesterday, deliveredAt, 200, 12);
  // not yet attempted: a log row alone
  const d2 = await logRow(pool, env, messageId(2), 'ep_one', yesterday);
  // failed its first attempt: a log row and the full row with its id (the truth), with an attempt
  const d3 = await logRow(pool, env, messageId(3), null, today);
  await fullRow(pool, { id: d3, environmentId: env, endpointId: null, eventId: messageId(3), status: 'dropped', attempts: 3, createdAt: today });
  await pool.query(`insert into webhook_attempts (delivery_id, n, at, status_code, error, duration_ms) values ($1, 1, now(), 500, 'http_500', 40)`, [d3]);
  const d4 = await logRow(pool, env, messageId(4), 'ep_one', today);
  // a full row with no log row (made before the log existed)
  const d5 = await deliveryId(pool, messageId(5), null);
  await fullRow(pool, { id: d5, environmentId: env, endpointId: null, eventId: messageId(5), status: 'delivered', attempts: 1, createdAt: today });
  // another environment's log row, newer than all
  const elsewhere = await logRow(pool, other, messageId(6), null, today);

  const ids = async (page: Parameters<typeof listDeliveries>[2]) => {
    const { data, more } = await listDeliveries(pool, env, page);
    return { ids: data.map((row) => row.id), more };
  };

  // everything, newest first, each delivery once
  const all = await listDeliveries(pool, env, { before: null, limit: 10 });
  assert.deepEqual(
    all.data.map((row) => row.id),
    [d5, d4, d3, d2, d1],
  );
  assert.equal(all.more, false);
  assert.deepEqual(
    all.data.map((row) => row.status),
    ['delivered', 'pending', 'dropped', 'pending', 'delivered'],
  );

  // the fields of a log delivery
  const [row4, row3, row2, row1] = all.data.slice(1);
  assert.deepEqual(row2, {
    id: d2,
    eventId: messageId(2),
    eventType: 'message.published',
    endpointId: 'ep_one',
    channelId: 'general',
    url: 'https://example.com/hook',
    status: 'pending',
    attempts: 0,
    nextAttemptAt: yesterday,
    createdAt: yesterday,
    updatedAt: yesterday,
  });
  assert.deepEqual(row1, {
    id: d1,
    eventId: messageId(1),
    eventType: 'message.published',
    endpointId: null,
    channelId: 'general',
    url: 'https://example.com/hook',
    status: 'delivered',
    attempts: 1,
    lastStatusCode: 200,
    createdAt: yesterday,
    updatedAt: deliveredAt,
    deliveredAt,
  });
  assert.equal(row4!.status, 'pending');
  // the full row is the truth where both exist
  assert.equal(row3!.status, 'dropped');
  assert.equal(row3!.attempts, 3);
  assert.equal(row3!.lastError, 'http_500');

  // pages by id across both sources
  assert.deepEqual(await ids({ before: null, limit: 2 }), { ids: [d5, d4], more: true });
  assert.deepEqual(await ids({ before: d4, limit: 2 }), { ids: [d3, d2], more: true });
  assert.deepEqual(await ids({ before: d2, limit: 2 }), { ids: [d1], more: false });
  assert.deepEqual(await ids({ before: d1, limit: 2 }), { ids: [], more: false });

  // the status filter: a log row is pending (no outcome) or delivered (one)
  assert.deepEqual(await ids({ status: 'pending', before: null, limit: 10 }), { ids: [d4, d2], more: false });
  assert.deepEqual(await ids({ status: 'pending', before: null, limit: 1 }), { ids: [d4], more: true });
  assert.deepEqual(await ids({ status: 'delivered', before: null, limit: 10 }), { ids: [d5, d1], more: false });
  assert.deepEqual(await ids({ status: 'dropped', before: null, limit: 10 }), { ids: [d3], more: false });
  assert.deepEqual(await ids({ status: 'cancelled', before: null, limit: 10 }), { ids: [], more: false });

  // the endpoint filter: `default` is the configuration's URL (no endpoint id)
  assert.deepEqual(await ids({ endpointId: 'default', before: null, limit: 10 }), { ids: [d5, d3, d1], more: false });
  assert.deepEqual(await ids({ endpointId: 'ep_one', before: null, limit: 10 }), { ids: [d4, d2], more: false });
  assert.deepEqual(await ids({ endpointId: 'ep_one', status: 'delivered', before: null, limit: 10 }), { ids: [], more: false });
  assert.deepEqual(await ids({ endpointId: 'default', status: 'pending', before: null, limit: 10 }), { ids: [], more: false });

  // one delivery: a log row's attempt log is its outcome, or nothing
  const one = await getDelivery(pool, env, d1);
  assert.equal(one.status, 'delivered');
  assert.deepEqual(one.attemptLog, [{ at: deliveredAt, statusCode: 200, durationMs: 12 }]);
  const two = await getDelivery(pool, env, d2);
  assert.equal(two.status, 'pending');
  assert.equal(two.attempts, 0);
  assert.deepEqual(two.attemptLog, []);
  // a full row: its attempts, as before
  const three = await getDelivery(pool, env, d3);
  assert.equal(three.status, 'dropped');
  assert.equal(three.attemptLog.length, 1);
  assert.equal(three.attemptLog[0]!.statusCode, 500);
  await rejects(getDelivery(pool, env, elsewhere), 'not_found');
  await rejects(getDelivery(pool, env, 'dlv_00000000990000000000000000'), 'not_found');
  assert.equal((await getDelivery(pool, other, elsewhere)).status, 'pending');

  // a log delivery is never dropped: 400 says what it is; 404 only when neither source has it
  await rejects(retryDelivery(pool, env, d1), 'invalid_request', 'only a dropped delivery can be retried; this one is delivered');
  await rejects(retryDelivery(pool, env, d2), 'invalid_request', 'only a dropped delivery can be retried; this one is pending');
  await rejects(retryDelivery(pool, env, elsewhere), 'not_found');
  await rejects(retryDelivery(pool, env, 'dlv_00000000990000000000000000'), 'not_found');
  // the full row behind a log row is retried as before
  const retried = await retryDelivery(pool, env, d3);
  assert.equal(retried.status, 'pending');
  assert.equal((await listDeliveries(pool, env, { status: 'dropped', before: null, limit: 10 })).data.length, 0);
});

test('webhooks - a ledger page reads each source newest first on its index, not the whole log', async (t) => {
  const db = await createTestDatabase(t);
  const { pool } = db;
  const env = (await createEnvironment(pool, { organization: 'plan', project: 'plan', environment: 'plan' })).environmentId;
  // 20,000 log rows over two days, a tenth of them delivered
  await pool.query(
    `insert into webhook_log (id, environment_id, endpoint_id, event_id, event_type, channel_id, url, body, partition, created_at)
     select 'dlv_' || lpad(g::text, 10, '0') || substr(md5(g::text), 1, 16), $1, null, 'msg_' || lpad(g::text, 10, '0') || 'x', 'message.published',
            'general', 'https://example.com/hook', repeat('x', 200), 0, now() - (g % 2) * interval '1 day'
     from generate_series(1, 20000) g`,
    [env],
  );
  await pool.query(
    `insert into webhook_outcomes (delivery_id, created_at, environment_id, at, status_code, duration_ms)
     select id, created_at, environment_id, created_at, 200, 5 from webhook_log where substr(id, 5, 10)::bigint % 10 = 0`,
  );
  await pool.query('analyze webhook_log; analyze webhook_outcomes');
  const started = process.hrtime.bigint();
  const page = await listDeliveries(pool, env, { before: null, limit: 50 });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  assert.equal(page.data.length, 50);
  assert.equal(page.more, true);
  assert.equal(page.data[0]!.id.slice(4, 14), '0000020000');
  assert.equal(page.data[0]!.status, 'delivered');
  assert.equal(page.data[1]!.status, 'pending');
  const next = await listDeliveries(pool, env, { before: page.data[49]!.id, limit: 50 });
  assert.equal(next.data[0]!.id.slice(4, 14), '0000019950');
  // each source on its ledger index, read in order and merged, not a sort of every row
  const client = await pool.connect();
  try {
    for (const status of [undefined, 'pending', 'delivered'] as const) {
      const query = deliveriesPageQuery(env, { status, before: page.data[49]!.id, limit: 50 });
      await client.query({ name: `page_${status}`, text: query.text, values: query.values });
      await client.query('set plan_cache_mode = force_generic_plan');
      const args = query.values.map((value) => (value === null ? 'null' : client.escapeLiteral(String(value)))).join(', ');
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain (costs off) execute page_${status}(${args})`);
      await client.query('reset plan_cache_mode');
      const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
      assert.match(plan, /Index Scan Backward using webhook_log_\d{8}_environment_id_id_idx/, plan);
      assert.match(plan, /webhook_deliveries_(list|status)_idx/, plan);
      assert.doesNotMatch(plan, /->  Sort\b/, plan);
    }
  } finally {
    client.release();
  }
  assert.ok(ms < 2_000, `a page took ${ms} ms`);
});
