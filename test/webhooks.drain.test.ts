import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client } from './helpers/http.ts';
import { enqueue, eventually, publishedEvent, startReceiver } from './helpers/webhook-receiver.ts';

test('webhooks - a dispatcher given SIGTERM finishes what it is sending, hands the rest back and exits 0', async (t) => {
  // 16 sends at once to the endpoint: 16 are in flight at SIGTERM, the other 24 wait in memory
  const cluster = await startCluster(t, {
    gateways: 1,
    dispatchers: 1,
    env: { WEBHOOK_MAX_IN_FLIGHT_PER_ENVIRONMENT: '16', WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: '16' },
  });
  const env = await cluster.createEnvironment();
  const api = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  let slow = true;
  const receiver = await startReceiver(t, () => ({ status: 200, delayMs: slow ? 1500 : 0 }));
  assert.equal((await api.put('/v1/config', { webhooks: { url: receiver.url } })).status, 200);

  // one publish batch of 40 (one job): the dispatcher sends 16 at a time
  const events = Array.from({ length: 40 }, (_, i) => publishedEvent(env.environmentId, `drain-${i}`));
  await enqueue(cluster.db.pool, events, 40);
  await receiver.waitFor((r) => r.length >= 1, 'the first chunk');
  const exitCode = await cluster.dispatchers[0]!.stop();
  assert.equal(exitCode, 0);

  const { rows } = await cluster.db.pool.query<{ status: string; n: number }>(
    `select status, count(*)::int as n from webhook_ledger where environment_id = $1 group by status order by status`,
    [env.environmentId],
  );
  const counts = Object.fromEntries(rows.map((r) => [r.status, r.n]));
  assert.equal(counts.delivered, receiver.received.length, 'what was sent was recorded before exiting');
  assert.ok(counts.delivered >= 1 && counts.delivered < 40);
  assert.equal(counts.pending, 40 - counts.delivered, 'the rest is still pending');
  const leased = await cluster.db.pool.query(`select count(*)::int as n from webhook_ledger where locked_until > now()`);
  assert.equal(leased.rows[0].n, 0, 'no lease is held by the stopped dispatcher');

  slow = false;
  await cluster.start('dispatcher');
  await receiver.waitFor((r) => new Set(r.map((x) => JSON.parse(x.raw.toString('utf8')).id)).size === 40, 'all 40');
  await eventually(async () => {
    const res = await api.get('/v1/webhooks/deliveries?status=delivered&limit=100');
    return res.body.data.length === 40;
  });
});
