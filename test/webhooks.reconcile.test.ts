import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client } from './helpers/http.ts';
import { enqueue, eventually, publishedEvent, startReceiver } from './helpers/webhook-receiver.ts';

test('webhooks - pending deliveries whose jobs were lost are re-enqueued by the reconciler', async (t) => {
  const cluster = await startCluster(t, { gateways: 1 });
  const env = await cluster.createEnvironment();
  const api = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  const receiver = await startReceiver(t);
  assert.equal((await api.put('/v1/config', { webhooks: { url: receiver.url } })).status, 200);

  const events = Array.from({ length: 10 }, (_, i) => publishedEvent(env.environmentId, `lost-${i}`));
  assert.equal(await enqueue(cluster.db.pool, events, 5), 10);
  // lose every job (as if a queue were wiped): only the ledger still knows about the deliveries
  const jobs = await cluster.db.pool.query<{ id: string }>('select id from graphile_worker.jobs');
  assert.equal(jobs.rows.length, 2);
  await cluster.db.pool.query('select graphile_worker.permanently_fail_jobs($1::bigint[], $2)', [jobs.rows.map((row) => row.id), 'lost on purpose']);

  await cluster.start('dispatcher', { WEBHOOK_STALE_AFTER: '1s' });
  await receiver.waitFor((r) => new Set(r.map((x) => JSON.parse(x.raw.toString('utf8')).id)).size === 10, 'all 10');
  await eventually(async () => (await api.get('/v1/webhooks/deliveries?status=delivered')).body.data.length === 10);
});

test('webhooks - an outcome recorded after its lease was taken over changes nothing', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, dispatchers: 1 });
  const env = await cluster.createEnvironment();
  const api = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  // answers 200, but only after the test has handed the delivery's lease to "another dispatcher"
  const receiver = await startReceiver(t, () => ({ status: 200, delayMs: 1_500 }));
  assert.equal((await api.put('/v1/config', { webhooks: { url: receiver.url } })).status, 200);

  assert.equal(await enqueue(cluster.db.pool, [publishedEvent(env.environmentId, 'fenced')]), 1);
  await receiver.waitFor((r) => r.length === 1, 'the first send');
  const { rows } = await cluster.db.pool.query<{ id: string }>(`update webhook_deliveries set locked_until = now() + interval '1 hour' returning id`);
  assert.equal(rows.length, 1);
  // the send ends (~1.5 s) and the dispatcher records its (now stale) outcome at once: wait for
  // the send to be counted, then the record must change nothing, now or a moment later
  const dispatcher = cluster.dispatchers[0]!;
  await eventually(
    async () => {
      const text = await (await fetch(`${dispatcher.internalUrl}/internal/metrics`)).text();
      return /webhook_attempts_total\{[^}]*result="delivered"[^}]*\} [1-9]/.test(text);
    },
    { timeoutMs: 30_000, what: 'the send ended' },
  );
  for (let i = 0; i < 5; i++) {
    const current = (await api.get(`/v1/webhooks/deliveries/${rows[0]!.id}`)).body;
    assert.equal(current.status, 'pending', 'a stale outcome does not mark the delivery delivered');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  const row = (await api.get(`/v1/webhooks/deliveries/${rows[0]!.id}`)).body;
  assert.equal(row.status, 'pending');
  assert.equal(row.attempts, 0);
  assert.deepEqual(row.attemptLog, []);
});
