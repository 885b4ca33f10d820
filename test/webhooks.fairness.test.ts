import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';
import { enqueue, publishedEvent, startReceiver } from './helpers/webhook-receiver.ts';
import { startDnsServer } from './helpers/dns-server.ts';

test("webhooks - fairness: one environment's hanging endpoint and unresolvable host do not hold back another's deliveries", async (t) => {
  // a name server that never answers for A's second host
  const dns = await startDnsServer(t, { 'never.test': 'hang' });
  // few worker slots, so that without per-environment limits A's hanging sends would take them all
  const cluster = await startCluster(t, {
    gateways: 1,
    dispatchers: 1,
    env: {
      WORKER_CONCURRENCY: '4',
      WEBHOOK_MAX_IN_FLIGHT_PER_ENVIRONMENT: '2',
      WEBHOOK_TIMEOUT_MS: '10000',
      WEBHOOK_RETRY_SCHEDULE: '1h',
      DNS_SERVERS: dns.address,
      DNS_TIMEOUT_MS: '2000',
    },
  });
  const hanging = await startReceiver(t, () => 'hang');
  const healthy = await startReceiver(t);
  const a = await cluster.createEnvironment('a');
  const b = await cluster.createEnvironment('b');
  const apiA = client(cluster.gateways[0]!.controlUrl, a.secretKey);
  const apiB = client(cluster.gateways[0]!.controlUrl, b.secretKey);

  // A: 60 deliveries to an endpoint that never answers, then 60 to a host that never resolves,
  // one publishing transaction (one job) each
  assert.equal((await apiA.put('/v1/config', { webhooks: { url: hanging.url } })).status, 200);
  await enqueue(
    cluster.db.pool,
    Array.from({ length: 60 }, (_, i) => publishedEvent(a.environmentId, `hang-${i}`)),
    1,
  );
  assert.equal((await apiA.put('/v1/config', { webhooks: { url: 'https://never.test/hooks' } })).status, 200);
  await enqueue(
    cluster.db.pool,
    Array.from({ length: 60 }, (_, i) => publishedEvent(a.environmentId, `dns-${i}`)),
    1,
  );
  await hanging.waitFor((r) => r.length >= 1, "A's first hanging request");

  assert.equal((await apiB.put('/v1/config', { webhooks: { url: healthy.url } })).status, 200);
  await enqueue(
    cluster.db.pool,
    Array.from({ length: 5 }, (_, i) => publishedEvent(b.environmentId, `b-${i}`)),
  );
  // generous: without the limits B waits behind A's jobs for minutes (4 slots, 10 s each)
  await eventually("B's five deliveries", async () => healthy.received.length >= 5, 20_000);

  assert.ok(hanging.received.length <= 2 + 1, `A never had more than its limit hanging at once (got ${hanging.received.length})`);
  const { rows } = await cluster.db.pool.query(
    `select count(*) filter (where status = 'pending' and attempts = 0)::int as waiting,
            count(*) filter (where status = 'dropped')::int as dropped
     from webhook_ledger where environment_id = $1`,
    [a.environmentId],
  );
  // the jobs' deliveries were queued in the owner's memory, behind A's limit: none attempted
  // beyond it, none dropped
  assert.ok(rows[0].waiting >= 100, `A's deliveries over the limit wait without an attempt (${rows[0].waiting})`);
  assert.equal(rows[0].dropped, 0, 'waiting never drops a delivery');
  const b5 = await apiB.get('/v1/webhooks/deliveries');
  assert.ok(b5.body.data.every((row: any) => row.attempts <= 1));
});
