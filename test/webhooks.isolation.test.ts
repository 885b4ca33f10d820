import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client } from './helpers/http.ts';
import { enqueue, publishedEvent, startReceiver } from './helpers/webhook-receiver.ts';

const SLOW_MS = 4000;

test("webhooks - a slow endpoint's retries fill only the retry slots: another environment's first attempt goes meanwhile", async (t) => {
  // two slots per runner, so two slow retries are enough to fill a runner
  const cluster = await startCluster(t, {
    gateways: 1,
    dispatchers: 1,
    env: { WORKER_CONCURRENCY: '2', WEBHOOK_RETRY_SCHEDULE: '1s,1h', WEBHOOK_TIMEOUT_MS: '10000' },
  });
  const slow = await startReceiver(t, () => ({ status: 500, delayMs: SLOW_MS }));
  const fast = await startReceiver(t);
  const a = await cluster.createEnvironment('slow');
  const b = await cluster.createEnvironment('fast');
  const apiA = client(cluster.gateways[0]!.controlUrl, a.secretKey);
  const apiB = client(cluster.gateways[0]!.controlUrl, b.secretKey);
  assert.equal((await apiA.put('/v1/config', { webhooks: { url: slow.url } })).status, 200);
  assert.equal((await apiB.put('/v1/config', { webhooks: { url: fast.url } })).status, 200);

  await enqueue(
    cluster.db.pool,
    Array.from({ length: 4 }, (_, i) => publishedEvent(a.environmentId, `slow-${i}`)),
  );
  // 4 first attempts fail after SLOW_MS; then two retries take both retry slots for SLOW_MS more
  await slow.waitFor((r) => r.length >= 6, 'two retries in flight');
  const retriesStarted = Math.max(slow.received[4]!.at, slow.received[5]!.at);

  await enqueue(cluster.db.pool, [publishedEvent(b.environmentId)]);
  await fast.waitFor((r) => r.length === 1, "the other environment's delivery");
  assert.ok(fast.received[0]!.at < retriesStarted + SLOW_MS, 'the first attempt went out while both retry slots were still held by the slow endpoint');
});
