import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createEnvironment } from '@rtm/auth';
import { committedDeliveries, enqueueParameters, enqueueSql, PUSHED_SQL, webhookBody, type NoticeDelivery } from '@rtm/webhooks';
import { claimDeliveries, recordAttempts, releaseClaims } from '../apps/dispatcher/src/delivery/delivery-leases.ts';
import { overdueUnleased } from '../apps/dispatcher/src/intake/pending-reads.ts';
import { createTestDatabase } from './helpers/database.ts';

/**
 * The push lease in the ledger's own terms, on a real Postgres: a publish's deliveries are
 * committed leased to their partition's owner, which sends them from the notice. Nobody claims a
 * row under that lease but its holder (who names it); the holder's record is fenced by it; a
 * release gives the row to anyone; a lapsed one is found by the owner's catch-up.
 */
test('webhooks - push leases: committed with the row, claimed only by their holder, fencing the record, found once lapsed', async (t) => {
  const db = await createTestDatabase(t);
  const env = await createEnvironment(db.pool, { organization: 'lease', project: 'lease', environment: 'lease' });
  await db.pool.query(`update environments set webhook_url = 'https://example.com/hook' where id = $1`, [env.environmentId]);
  const commit = async (n: number, leaseMs: number): Promise<NoticeDelivery[]> => {
    const events = Array.from({ length: n }, (_, i) => ({
      environmentId: env.environmentId,
      channelId: 'room',
      eventId: `msg_${leaseMs}_${i}`,
      type: 'message.published' as const,
      timestamp: 1,
      data: `{"i": ${i}}`,
    }));
    const { rows } = await db.pool.query<{ pushed: unknown[][] }>(
      `with ${enqueueSql(1, 'true', false)} select ${PUSHED_SQL} as pushed, (select count(*) from delivery_jobs) as jobs`,
      enqueueParameters(events, leaseMs),
    );
    const bodies = new Map(events.map((e) => [e.eventId, webhookBody(e)]));
    return committedDeliveries(rows[0]!.pushed, (id) => bodies.get(id), leaseMs);
  };

  const fresh = await commit(3, 60_000);
  assert.equal(fresh.length, 3);
  for (const { id, pushed } of fresh) {
    assert.ok(pushed, 'each row travels with the notice');
    const { rows } = await db.pool.query<{ lease: string; body: string }>(`select locked_until::text as lease, body from webhook_deliveries where id = $1`, [
      id,
    ]);
    assert.equal(pushed.lease, rows[0]!.lease, "the notice's lease is the row's, to the microsecond");
    assert.equal(pushed.body, rows[0]!.body, 'and so is its body');
  }
  const [a, b, c] = fresh as [NoticeDelivery, NoticeDelivery, NoticeDelivery];

  // nobody else claims under the lease; its holder does, by naming it (and only the right one)
  assert.equal((await claimDeliveries(db.pool, [a.id, b.id], 15_000)).size, 0, 'a claim without the lease gets nothing');
  assert.equal((await claimDeliveries(db.pool, [a.id], 15_000, ['2001-01-01 00:00:00+00'])).size, 0, 'nor one naming another lease');
  const claimed = await claimDeliveries(db.pool, [a.id], 15_000, [a.pushed!.lease]);
  assert.equal(claimed.size, 1, 'the holder claims it, renewing the lease');
  assert.notEqual(claimed.get(a.id)!.lease, a.pushed!.lease);

  // the record of a send made under the commit's lease is fenced by it
  const record = (id: string, lease: string) =>
    recordAttempts(db.pool, [
      { id, n: 1, at: new Date(), statusCode: 204, error: null, durationMs: 1, status: 'delivered', delay: null, lease, eventType: 'message.published' },
    ]);
  await record(b.id, '2001-01-01 00:00:00+00');
  await record(b.id, b.pushed!.lease);
  const { rows: recorded } = await db.pool.query<{ status: string; locked: boolean; attempts: number }>(
    `select status, locked_until is not null as locked, attempts from webhook_deliveries where id = $1`,
    [b.id],
  );
  assert.deepEqual(recorded[0], { status: 'delivered', locked: false, attempts: 1 }, 'the stale lease changed nothing; the commit lease recorded it');
  const { rows: attempts } = await db.pool.query<{ n: number }>(`select count(*)::int as n from webhook_attempts where delivery_id = $1`, [b.id]);
  assert.equal(attempts[0]!.n, 1);

  // released (the owner let it go): anyone may claim it
  await releaseClaims(db.pool, [{ id: c.id, lease: c.pushed!.lease }]);
  assert.equal((await claimDeliveries(db.pool, [c.id], 15_000)).size, 1, 'a released row is claimed like any other');

  // a lost notice: the row waits under its lease, then the catch-up finds it
  const lost = await commit(1, 1_000);
  const overdue = () => overdueUnleased(db.pool, { graceMs: 0, skip: [], limit: 100 }).then((rows) => rows.map((r) => r.id));
  assert.ok(!(await overdue()).includes(lost[0]!.id), 'not while its lease runs');
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  assert.ok((await overdue()).includes(lost[0]!.id), 'found once it lapsed');
});
