import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster, type Cluster } from './helpers/cluster.ts';
import { client } from './helpers/http.ts';
import { startTcpProxy, type TcpProxy } from './helpers/tcp-proxy.ts';
import { metricTotal } from './helpers/metrics.ts';
import { eventually, startReceiver, deliveredCount } from './helpers/webhook-receiver.ts';

const MESSAGES = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const idOf = (raw: Buffer) => JSON.parse(raw.toString('utf8')).id as string;
const ENV = { WEBHOOK_RETRY_SCHEDULE: '1s,1s,2s,5s,10s', WEBHOOK_TIMEOUT_MS: '2000', WORKER_RECOVERY_INTERVAL: '1s' };

/**
 * Publishes MESSAGES messages from 8 clients (a failed publish is retried with its idempotency
 * key), calls `outage` once 100 are acknowledged, and checks that every persisted message reaches
 * the receiver and is recorded delivered exactly once. Reports the duplicate sends.
 */
async function streamThrough(t: TestContext, cluster: Cluster, outage: () => Promise<void>): Promise<void> {
  const env = await cluster.createEnvironment();
  const api = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  const receiver = await startReceiver(t, () => ({ status: 200, delayMs: 5 }));
  assert.equal((await api.put('/v1/config', { webhooks: { url: receiver.url } })).status, 200);
  const publishOne = async (i: number) => {
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await api.post(`/v1/channels/loss-${i % 16}/messages`, { content: { i }, idempotencyKey: `l-${i}` });
        if (res.status === 201) return;
        assert.ok([500, 503].includes(res.status) && attempt < 200, `publish ${i}: ${res.status} ${JSON.stringify(res.body)}`);
      } catch (error) {
        if (attempt >= 200) throw error;
      }
      await sleep(200);
    }
  };
  let next = 0;
  let acked = 0;
  let outageDone: Promise<void> | undefined;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < MESSAGES) {
        await publishOne(next++);
        if (++acked === 100) outageDone = outage();
      }
    }),
  );
  await outageDone;
  const { rows: persisted } = await cluster.db.pool.query<{ id: string }>(
    `select m.id from messages m join channels c on c.pk = m.channel_pk where c.environment_id = $1`,
    [env.environmentId],
  );
  assert.equal(persisted.length, MESSAGES, 'every message persisted once');
  const started = Date.now();
  await eventually(
    async () => {
      const got = new Set(receiver.received.map((r) => idOf(r.raw)));
      return persisted.every((row) => got.has(row.id));
    },
    { timeoutMs: 40_000, what: 'every persisted message at the receiver' },
  );
  await eventually(async () => (await deliveredCount(cluster.db.pool, env.environmentId)) === MESSAGES, {
    timeoutMs: 60_000,
    what: 'every delivery recorded delivered',
  });
  const { rows: twice } = await cluster.db.pool.query<{ n: number }>(
    `select count(*)::int as n from (
       select a.delivery_id from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
       where d.environment_id = $1 and a.status_code between 200 and 299
       group by a.delivery_id having count(*) > 1) x`,
    [env.environmentId],
  );
  assert.equal(twice[0]!.n, 0, 'no delivery recorded as delivered twice');
  const counts = new Map<string, number>();
  for (const r of receiver.received) counts.set(idOf(r.raw), (counts.get(idOf(r.raw)) ?? 0) + 1);
  const duplicates = [...counts.values()].reduce((sum, n) => sum + n - 1, 0);
  const caughtUp = await metricTotal(cluster.dispatchers[0]!.internalUrl, /^webhook_caught_up_total(?:\{[^}]*\})? (\d+)/);
  t.diagnostic(`all ${MESSAGES} delivered ${Date.now() - started} ms after publishing ended; ${duplicates} duplicate sends; ${caughtUp} found by the catch-up`);
}

test('webhooks - NATS lost mid-stream: nothing is lost and deliveries resume', async (t) => {
  const cluster = await startCluster(t, { env: ENV });
  const proxy: TcpProxy = await startTcpProxy([process.env.NATS_URL ?? 'nats://127.0.0.1:4222']);
  t.after(() => proxy.close());
  const NATS_URL = proxy.url.replace(/^http/, 'nats');
  await cluster.start('channel-node', { NATS_URL });
  await cluster.start('gateway', { NATS_URL });
  await cluster.start('dispatcher', { NATS_URL });
  await streamThrough(t, cluster, async () => {
    // every process loses NATS for 3 s (as a restarted server): notices published meanwhile are lost
    proxy.refuse(true);
    proxy.cut();
    await sleep(3_000);
    proxy.refuse(false);
  });
});

test('webhooks - Postgres away for 8 s mid-stream: nothing is lost, no delivery recorded twice', async (t) => {
  const cluster = await startCluster(t, { env: ENV });
  const db = new URL(cluster.db.url);
  const proxy: TcpProxy = await startTcpProxy([`postgres://${db.host}`]);
  t.after(() => proxy.close());
  const DATABASE_URL = `postgres://postgres@127.0.0.1:${new URL(proxy.url).port}${db.pathname}`;
  await cluster.start('channel-node', { DATABASE_URL });
  await cluster.start('gateway', { DATABASE_URL });
  await cluster.start('dispatcher', { DATABASE_URL });
  await streamThrough(t, cluster, async () => {
    // every process loses Postgres for 8 s: connections reset, new ones refused
    proxy.refuse(true);
    proxy.cut();
    await sleep(8_000);
    proxy.refuse(false);
  });
});
