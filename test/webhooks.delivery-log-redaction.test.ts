import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEnvironment } from '@rtm/auth';
import { withTransaction, type Pool } from '@rtm/db';
import { getDelivery, listDeliveries, redactMessageDeliveries } from '@rtm/webhooks';
import { createTestDatabase } from './helpers/database.ts';

/** A message id whose 10 time characters are `time`: `msg_` + time + 16 random. */
const messageId = (time: number, rest: string) => `msg_${String(time).padStart(10, '0')}${rest.padEnd(16, 'x')}`;

/** A `webhook_log` row as the commit path appends it (the id derived from event and endpoint). */
async function logRow(pool: Pool, environmentId: string, eventId: string, endpointId: string | null): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `insert into webhook_log (id, environment_id, endpoint_id, event_id, event_type, channel_id, url, body, partition)
     values ('dlv_' || substr($3::text, 5, 10) || substr(md5($3::text || coalesce($2::text, '')), 1, 16), $1, $2, $3, 'message.published', 'general',
             'https://example.com/hook', '{"id":"' || $3 || '","data":{"text":"secret"}}', 0)
     returning id`,
    [environmentId, endpointId, eventId],
  );
  return rows[0]!.id;
}

/** The redacted body (as Postgres prints the JSON object REDACT_SQL builds). */
const REDACTED = (environmentId: string, eventId: string) =>
  `{"id" : "${eventId}", "type" : "message.published", "environmentId" : "${environmentId}", "channelId" : "general", "redacted" : true}`;

test('webhooks - a retraction redacts the delivery log and cancels a delivery not yet attempted', async (t) => {
  const db = await createTestDatabase(t);
  const { pool } = db;
  const env = (await createEnvironment(pool, { organization: 'r', project: 'r', environment: 'a' })).environmentId;
  const other = (await createEnvironment(pool, { organization: 'r', project: 'r', environment: 'b' })).environmentId;
  for (const id of ['ep_one', 'ep_two', 'ep_three']) {
    await pool.query(`insert into webhook_endpoints (id, environment_id, url, secret) values ($1, $2, 'https://example.com/' || $1, 'x')`, [id, env]);
  }

  const m = messageId(7, 'mmmm');
  // another message of the same instant: its ids share the time prefix
  const n = messageId(7, 'nnnn');
  // delivered at its first attempt
  const delivered = await logRow(pool, env, m, null);
  await pool.query(
    `insert into webhook_outcomes (delivery_id, created_at, environment_id, at, status_code, duration_ms)
     select id, created_at, environment_id, now(), 200, 9 from webhook_log where id = $1`,
    [delivered],
  );
  // not yet attempted
  const fresh = await logRow(pool, env, m, 'ep_one');
  // failed its first attempt: the ledger row with its id, pending in backoff under a live lease
  const failed = await logRow(pool, env, m, 'ep_two');
  await pool.query(
    `insert into webhook_deliveries (id, environment_id, endpoint_id, event_id, event_type, channel_id, url, body, attempts, next_attempt_at, locked_until, created_at)
     select id, environment_id, endpoint_id, event_id, event_type, channel_id, url, body, 1, now() + interval '1 minute', now() + interval '1 minute', created_at
     from webhook_log where id = $1`,
    [failed],
  );
  // its endpoint deleted since (the log keeps no reference to it)
  const orphan = await logRow(pool, env, m, 'ep_gone');
  // the other message's, and the same message id in another environment: untouched
  const untouched = await logRow(pool, env, n, null);
  const elsewhere = await logRow(pool, other, m, null);

  const withdrawn = await withTransaction(pool, (client) => redactMessageDeliveries(client, env, [m]));
  assert.deepEqual(withdrawn.map((w) => w.id).sort(), [failed, fresh, orphan].sort());
  assert.ok(withdrawn.every((w) => w.environmentId === env));

  const bodies = new Map(
    (await pool.query<{ id: string; environment_id: string; body: string }>('select id, environment_id, body from webhook_log')).rows.map((row) => [
      `${row.environment_id}/${row.id}`,
      row.body,
    ]),
  );
  for (const id of [delivered, fresh, failed, orphan]) assert.equal(bodies.get(`${env}/${id}`), REDACTED(env, m), id);
  assert.match(bodies.get(`${env}/${untouched}`)!, /secret/);
  assert.match(bodies.get(`${other}/${elsewhere}`)!, /secret/);

  const ledger = new Map(
    (
      await pool.query<{
        id: string;
        status: string;
        attempts: number;
        last_error: string | null;
        body: string;
        endpoint_id: string | null;
        created_at: Date;
        log_created_at: Date;
      }>(
        `select d.id, d.status, d.attempts, d.last_error, d.body, d.endpoint_id, d.created_at, l.created_at as log_created_at
       from webhook_deliveries d join webhook_log l on l.id = d.id`,
      )
    ).rows.map((row) => [row.id, row]),
  );
  // the one not yet attempted is a cancelled ledger row now, with the log row's identity
  assert.equal(ledger.get(fresh)?.status, 'cancelled');
  assert.equal(ledger.get(fresh)?.attempts, 0);
  assert.equal(ledger.get(fresh)?.last_error, 'message_retracted');
  assert.equal(ledger.get(fresh)?.endpoint_id, 'ep_one');
  assert.equal(ledger.get(fresh)?.body, REDACTED(env, m));
  assert.equal(ledger.get(fresh)?.created_at.getTime(), ledger.get(fresh)?.log_created_at.getTime());
  // the full row: as before
  assert.equal(ledger.get(failed)?.status, 'cancelled');
  assert.equal(ledger.get(failed)?.attempts, 1);
  assert.equal(ledger.get(failed)?.body, REDACTED(env, m));
  // delivered stays a log row; the orphan has no endpoint to hold a ledger row
  assert.equal(ledger.has(delivered), false);
  assert.equal(ledger.has(orphan), false);
  assert.equal(ledger.size, 2);

  // the ledger as its readers see it
  const page = await listDeliveries(pool, env, { before: null, limit: 10 });
  const status = new Map(page.data.map((row) => [row.id, row.status]));
  assert.equal(status.get(delivered), 'delivered');
  assert.equal(status.get(fresh), 'cancelled');
  assert.equal(status.get(failed), 'cancelled');
  assert.equal((await getDelivery(pool, env, fresh)).lastError, 'message_retracted');

  // again: nothing left to cancel; only the orphan is still not attempted, withdrawn again
  const again = await withTransaction(pool, (client) => redactMessageDeliveries(client, env, [m]));
  assert.deepEqual(
    again.map((w) => w.id),
    [orphan],
  );
  assert.equal((await pool.query('select count(*)::int as n from webhook_deliveries')).rows[0].n, 2);

  // the id range brackets a message's ids in byte order and in a locale's collation alike
  const { rows: icu } = await pool.query(`select 1 from pg_collation where collname = 'und-x-icu'`);
  for (const collation of ['C', ...(icu.length > 0 ? ['und-x-icu'] : [])]) {
    const { rows } = await pool.query<{ inside: boolean; next: boolean }>(
      `select $1 >= ('dlv_' || substr($2::text, 5, 10) collate "${collation}") and $1 < ('dlv_' || substr($2::text, 5, 10) || repeat('z', 17) collate "${collation}") as inside,
              $3 < ('dlv_' || substr($2::text, 5, 10) || repeat('z', 17) collate "${collation}") as next`,
      [fresh, m, 'dlv_0000000008' + '0'.repeat(16)],
    );
    assert.deepEqual(rows, [{ inside: true, next: false }], collation);
  }

  // a channel deletion passes many messages at once
  const p1 = messageId(8, 'p1');
  const p2 = messageId(9, 'p2');
  const q1 = await logRow(pool, env, p1, null);
  const q2 = await logRow(pool, env, p2, 'ep_three');
  const both = await withTransaction(pool, (client) => redactMessageDeliveries(client, env, [p1, p2, n]));
  assert.deepEqual(both.map((w) => w.id).sort(), [q1, q2, untouched].sort());
});

test('webhooks - a ledger row its owner commits during a redaction is cancelled by it, not left with the content', async (t) => {
  const db = await createTestDatabase(t);
  const { pool } = db;
  const env = (await createEnvironment(pool, { organization: 'race', project: 'race', environment: 'a' })).environmentId;
  const m = messageId(11, 'race');
  const id = await logRow(pool, env, m, null);

  // the owner's first attempt failed: it inserts the ledger row, not yet committed
  const owner = await pool.connect();
  try {
    await owner.query('begin');
    await owner.query(
      `insert into webhook_deliveries (id, environment_id, endpoint_id, event_id, event_type, channel_id, url, body, attempts, next_attempt_at, created_at)
       select id, environment_id, endpoint_id, event_id, event_type, channel_id, url, body, 1, now() + interval '1 minute', created_at
       from webhook_log where id = $1`,
      [id],
    );
    // the redaction's snapshot sees no ledger row; its insert waits on the owner's
    const redaction = withTransaction(pool, (client) => redactMessageDeliveries(client, env, [m]));
    await new Promise((resolve) => setTimeout(resolve, 300));
    await owner.query('commit');
    assert.deepEqual(
      (await redaction).map((w) => w.id),
      [id],
    );
  } finally {
    owner.release();
  }
  const { rows } = await pool.query<{ status: string; attempts: number; body: string; last_error: string }>(
    'select status, attempts, body, last_error from webhook_deliveries where id = $1',
    [id],
  );
  assert.deepEqual(rows, [{ status: 'cancelled', attempts: 1, body: REDACTED(env, m), last_error: 'message_retracted' }]);
});
