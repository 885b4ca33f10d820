/**
 * WEBHOOK_MAX_RATE_PER_ENDPOINT across dispatchers: an environment's sends are made by the owner
 * of its webhook partition, and the bucket stays in that owner's memory, so the limit is at
 * stake when the partition changes hands. This test makes it change hands twice while a backlog
 * is being sent: a second dispatcher joins (the first gives it partitions 8-15, the environment's
 * among them) and later leaves (the first takes them back). Each new owner starts the
 * environment's bucket empty; were it full, each handover would add a burst of RATE sends on top
 * of the previous owner's last second.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webhookPartitionOf } from '@rtm/bus';
import { startCluster } from './helpers/cluster.ts';
import { client } from './helpers/http.ts';
import { metricTotal, partitionsOwned } from './helpers/metrics.ts';
import { ARRIVAL_JITTER_MS, excessOverBucket } from './helpers/rate.ts';
import { eventually, startReceiver } from './helpers/webhook-receiver.ts';

const RATE = 5;
/** Deliveries: a backlog of 24 s at RATE, so both handovers come while it is being sent. */
const MESSAGES = 120;

test('webhooks - a per-endpoint rate limit holds across two dispatchers, through partition handovers', async (t) => {
  const cluster = await startCluster(t, {
    gateways: 1,
    channelNodes: 1,
    dispatchers: 1,
    env: { WEBHOOK_MAX_RATE_PER_ENDPOINT: String(RATE) },
  });
  const first = cluster.dispatchers[0]!;
  await eventually(async () => (await partitionsOwned(first.internalUrl)) === 16, { timeoutMs: 30_000, what: 'the first dispatcher owns every partition' });
  // an environment of a partition the first dispatcher gives away when a second joins (its highest 8)
  let env = await cluster.createEnvironment();
  while (webhookPartitionOf(env.environmentId) < 8) env = await cluster.createEnvironment();
  const api = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  const receiver = await startReceiver(t);
  assert.equal((await api.put('/v1/config', { webhooks: { url: receiver.url } })).status, 200);
  const ids: string[] = [];
  for (let batch = 0; batch < MESSAGES / 10; batch++) {
    ids.push(
      ...(await Promise.all(
        Array.from({ length: 10 }, async (_, k) => {
          const res = await api.post(`/v1/channels/rated-${k % 5}/messages`, { content: { i: batch * 10 + k } });
          assert.equal(res.status, 201);
          return res.body.id as string;
        }),
      )),
    );
  }
  await receiver.waitFor((r) => r.length >= RATE, 'the first sends');

  const second = await cluster.start('dispatcher');
  await eventually(async () => (await partitionsOwned(second.internalUrl)) === 8, { timeoutMs: 30_000, what: 'the second dispatcher takes its half' });
  const sentBySecond = () => metricTotal(second.internalUrl, /^webhook_attempts_total(?:\{[^}]*\})? (\d+)/);
  await eventually(async () => (await sentBySecond()) >= RATE, { timeoutMs: 30_000, what: "the second dispatcher sending the environment's backlog" });
  const forwards = async (d: typeof first) =>
    (await (await fetch(`${d.internalUrl}/internal/metrics`)).text())
      .split('\n')
      .filter((l) => l.startsWith('webhook_forwards_total') || l.startsWith('webhook_attempts_total'))
      .join('; ');
  t.diagnostic(`second before stop: ${await forwards(second)}`);
  assert.equal(await second.stop(), 0, 'the second dispatcher stops cleanly');
  const handedBack = Date.now();
  await eventually(async () => (await partitionsOwned(first.internalUrl)) === 16, {
    timeoutMs: 30_000,
    what: 'the first dispatcher takes the partitions back',
  });

  await eventually(
    async () => {
      const got = new Set(receiver.received.map((r) => JSON.parse(r.raw.toString('utf8')).id));
      return ids.every((id) => got.has(id));
    },
    { timeoutMs: 90_000, what: 'every delivery' },
  );
  t.diagnostic(`first at the end: ${await forwards(first)}`);
  const at = receiver.received.map((r) => r.at);
  assert.ok(
    at.some((time) => time > handedBack + 1_000),
    'both handovers came while the backlog was being sent',
  );
  const excess = excessOverBucket(at, RATE, ARRIVAL_JITTER_MS);
  const t0 = Math.min(...at);
  t.diagnostic(
    `arrivals (ms from the first): ${[...at]
      .sort((a, b) => a - b)
      .map((x) => x - t0)
      .join(' ')}; handed back at ${handedBack - t0}`,
  );
  t.diagnostic(`${receiver.received.length} requests over ${Math.max(...at) - Math.min(...at)} ms; excess over the bucket ${excess.toFixed(2)}`);
  assert.ok(excess <= 0, `arrivals exceed the bucket of ${RATE}/s by ${excess.toFixed(2)}`);
});
