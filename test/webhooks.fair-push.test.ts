import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client } from './helpers/http.ts';
import { eventually, startReceiver, deliveredCount } from './helpers/webhook-receiver.ts';
import { metricTotal } from './helpers/metrics.ts';

test("webhooks - fair by construction: an endpoint's held-back deliveries wait in its owner's memory, never in front of another's", async (t) => {
  const cluster = await startCluster(t, {
    gateways: 1,
    channelNodes: 1,
    dispatchers: 1,
    // the reconciler looks every 10 s for rows overdue by 1 s: held in memory, A's rows are overdue
    env: {
      WEBHOOK_MAX_IN_FLIGHT_PER_ENVIRONMENT: '2',
      WEBHOOK_TIMEOUT_MS: '30000',
      WEBHOOK_RETRY_SCHEDULE: '1h',
      WEBHOOK_STALE_AFTER: '1s',
      WORKER_RECOVERY_INTERVAL: '1s',
    },
  });
  const dispatcher = cluster.dispatchers[0]!;
  const hanging = await startReceiver(t, () => 'hang');
  const healthy = await startReceiver(t);
  const a = await cluster.createEnvironment('a');
  const b = await cluster.createEnvironment('b');
  const apiA = client(cluster.gateways[0]!.controlUrl, a.secretKey);
  const apiB = client(cluster.gateways[0]!.controlUrl, b.secretKey);
  assert.equal((await apiA.put('/v1/config', { webhooks: { url: hanging.url } })).status, 200);
  assert.equal((await apiB.put('/v1/config', { webhooks: { url: healthy.url } })).status, 200);

  // A floods an endpoint that never answers
  for (let i = 0; i < 40; i++) assert.equal((await apiA.post(`/v1/channels/flood-${i % 4}/messages`, { content: { i } })).status, 201);
  await hanging.waitFor((r) => r.length >= 2, "A's first hanging requests");
  // B's deliveries go out while A's wait
  const ids: string[] = [];
  for (let i = 0; i < 10; i++) {
    const res = await apiB.post(`/v1/channels/quiet-${i % 2}/messages`, { content: { i } });
    assert.equal(res.status, 201);
    ids.push(res.body.id);
  }
  await eventually(
    async () => {
      const got = new Set(healthy.received.map((r) => JSON.parse(r.raw.toString('utf8')).id));
      return ids.every((id) => got.has(id));
    },
    { timeoutMs: 20_000, what: "B's ten deliveries" },
  );

  // long enough for reconcile passes (every 10 s) to see A's held rows overdue: they belong to
  // their owner, so they get no job either
  await new Promise((resolve) => setTimeout(resolve, 12_000));
  assert.equal(hanging.received.length, 2, 'A holds at most its own limit (2) of sends');
  // held back in memory: no deferral, no row moved, no job for A's deliveries
  assert.equal(await metricTotal(dispatcher.internalUrl, /^webhook_deferrals_total\{[^}]*\} (\d+)/), 0, 'nothing deferred through Postgres');
  const { rows } = await cluster.db.pool.query<{ moved: number; leased: number; waiting: number }>(
    `select count(*) filter (where next_attempt_at > created_at + interval '1 second')::int as moved,
            count(*) filter (where locked_until is not null)::int as leased,
            count(*) filter (where status = 'pending' and attempts = 0)::int as waiting
     from webhook_ledger where environment_id = $1`,
    [a.environmentId],
  );
  // (rows of the delivery log: the two sends on the wire hold no lease, nothing was written for them)
  assert.deepEqual(rows[0], { moved: 0, leased: 0, waiting: 40 });
  const { rows: jobs } = await cluster.db.pool.query<{ n: number }>(
    `select count(*)::int as n from graphile_worker.jobs where task_identifier in ('deliver_webhook', 'deliver_webhooks')`,
  );
  assert.equal(jobs[0]!.n, 0, 'no job for a delivery held back');
  assert.ok((await metricTotal(dispatcher.internalUrl, /^webhook_push_queued(?:\{[^}]*\})? (\d+)/)) >= 38, "A's other deliveries wait in the owner's memory");
});

test("webhooks - retries held back by their endpoint's limit wait in the owner's memory too, never deferred through Postgres", async (t) => {
  const cluster = await startCluster(t, {
    gateways: 1,
    channelNodes: 1,
    dispatchers: 1,
    env: {
      // one send at a time to the endpoint, each answered after 300 ms: the retries' jobs (up to
      // WORKER_CONCURRENCY at once) find the endpoint busy for longer than a gate wait (250 ms)
      WEBHOOK_MAX_IN_FLIGHT_PER_ENVIRONMENT: '1',
      WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: '1',
      WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s',
      WEBHOOK_BREAKER_THRESHOLD: '1000',
    },
  });
  const dispatcher = cluster.dispatchers[0]!;
  const seen = new Set<string>();
  // every delivery's first attempt fails (500), its retry succeeds
  const receiver = await startReceiver(t, (request) => {
    const id = JSON.parse(request.raw.toString('utf8')).id as string;
    if (seen.has(id)) return { status: 200, delayMs: 300 };
    seen.add(id);
    return { status: 500 };
  });
  const env = await cluster.createEnvironment('retried');
  const api = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  assert.equal((await api.put('/v1/config', { webhooks: { url: receiver.url } })).status, 200);
  const ids: string[] = [];
  for (let i = 0; i < 12; i++) {
    const res = await api.post(`/v1/channels/retried-${i % 3}/messages`, { content: { i } });
    assert.equal(res.status, 201);
    ids.push(res.body.id);
  }
  await eventually(async () => (await deliveredCount(cluster.db.pool, env.environmentId, 2)) === ids.length, {
    timeoutMs: 30_000,
    what: 'every delivery delivered by its retry',
  });
  // the retries ran as jobs on the owner, which queued them behind the endpoint's one place
  assert.ok((await metricTotal(dispatcher.internalUrl, /^webhook_forwards_total\{[^}]*result="queued_here"[^}]*\} (\d+)/)) >= ids.length);
  assert.equal(await metricTotal(dispatcher.internalUrl, /^webhook_deferrals_total\{[^}]*\} (\d+)/), 0, 'no retry deferred through Postgres');
});
