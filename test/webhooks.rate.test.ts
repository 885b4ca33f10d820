import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client } from './helpers/http.ts';
import { partitionsShared } from './helpers/metrics.ts';
import { eventually, startReceiver } from './helpers/webhook-receiver.ts';

const RATE = 5;

test('webhooks - a per-endpoint rate limit holds across two dispatchers', async (t) => {
  const cluster = await startCluster(t, {
    gateways: 1,
    channelNodes: 1,
    dispatchers: 2,
    env: { WEBHOOK_MAX_RATE_PER_ENDPOINT: String(RATE) },
  });
  // both dispatchers own a share of the partitions before anything is published
  await partitionsShared(cluster.dispatchers);
  const env = await cluster.createEnvironment();
  const api = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  const receiver = await startReceiver(t);
  assert.equal((await api.put('/v1/config', { webhooks: { url: receiver.url } })).status, 200);
  const ids = await Promise.all(
    Array.from({ length: 25 }, async (_, i) => {
      const res = await api.post(`/v1/channels/rated-${i % 5}/messages`, { content: { i } });
      assert.equal(res.status, 201);
      return res.body.id as string;
    }),
  );
  await eventually(async () => {
    const got = new Set(receiver.received.map((r) => JSON.parse(r.raw.toString('utf8')).id));
    return ids.every((id) => got.has(id));
  }, { timeoutMs: 60_000, what: 'every delivery' });
  // a bucket of one second's sends, refilled at RATE a second: no window of one second holds more
  // than RATE (the bucket) + RATE (the refill), give or take two arrivals moved by the network's
  // jitter; without the limit all 25 arrive at once, and with a limit per dispatcher twice as many
  const at = receiver.received.map((r) => r.at).sort((a, b) => a - b);
  let most = 0;
  for (let i = 0; i < at.length; i++) {
    let j = i;
    while (j < at.length && at[j]! < at[i]! + 1_000) j++;
    most = Math.max(most, j - i);
  }
  t.diagnostic(`at most ${most} requests in any second (limit ${RATE}/s, burst ${RATE}, 2 dispatchers)`);
  assert.ok(most <= 2 * RATE + 2, `at most ${2 * RATE + 2} in any second, saw ${most}`);
});
