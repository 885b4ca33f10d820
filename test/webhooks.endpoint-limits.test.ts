/**
 * An endpoint's own limits and the operational events, through the real processes: the
 * per-endpoint rate limit (held deliveries wait, they are not attempts, and the environment's
 * other endpoints are not held back), the auto-disable of an endpoint failing for
 * WEBHOOK_DISABLE_AFTER (its `endpoint.disabled` event, audit entry, and enabling it again), and
 * `delivery.dropped` (to the other endpoints, never the dropped delivery's own, and no chains).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { verifyWebhookSignature } from '@rtm/webhooks';
import { startCluster, type Cluster } from './helpers/cluster.ts';
import { client } from './helpers/http.ts';
import { openSocket } from './helpers/ws.ts';
import { ARRIVAL_JITTER_MS, excessOverBucket } from './helpers/rate.ts';
import { eventually, startReceiver, type ReceivedWebhook, type Receiver } from './helpers/webhook-receiver.ts';

const bodyOf = (r: ReceivedWebhook) => JSON.parse(r.raw.toString('utf8'));

/** Verifies a delivery with the library a Standard Webhooks receiver uses. */
function standardVerify(secret: string, received: ReceivedWebhook): unknown {
  return new Webhook(secret).verify(received.raw.toString('utf8'), {
    'webhook-id': String(received.headers['webhook-id']),
    'webhook-timestamp': String(received.headers['webhook-timestamp']),
    'webhook-signature': String(received.headers['webhook-signature']),
  });
}

/** Waits, with a deadline, until the receiver's requests satisfy `predicate`. */
const arrived = (receiver: Receiver, predicate: (received: ReceivedWebhook[]) => boolean, what: string) =>
  eventually(what, async () => predicate(receiver.received), 30_000);

async function environment(cluster: Cluster) {
  const env = await cluster.createEnvironment();
  return { env, api: client(cluster.gateways[0]!.controlUrl, env.secretKey) };
}

test('webhook endpoint limits - rate limit, auto-disable, delivery.dropped', { concurrency: true }, async (t) => {
  const cluster = await startCluster(t, {
    gateways: 1,
    channelNodes: 1,
    dispatchers: 1,
    env: { WEBHOOK_RETRY_SCHEDULE: '1s', WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_DISABLE_AFTER: '2s', WEBHOOK_DISABLE_CHECK_MS: '300' },
  });

  await t.test("an endpoint's rate limit holds its deliveries to its bucket, without attempts, and holds back no other endpoint", async (t) => {
    const limited = await startReceiver(t);
    const free = await startReceiver(t);
    const { api } = await environment(cluster);
    const slow = await api.post('/v1/webhook-endpoints', { url: limited.url, rateLimitPerSecond: 2 });
    assert.equal(slow.status, 201, JSON.stringify(slow.body));
    const fast = await api.post('/v1/webhook-endpoints', { url: free.url });
    assert.equal(fast.status, 201);
    for (let i = 0; i < 10; i++) assert.equal((await api.post('/v1/channels/rated/messages', { content: { i } })).status, 201);
    await arrived(free, (r) => r.length >= 10, 'the endpoint without a limit: all 10');
    await arrived(limited, (r) => r.length >= 10, 'the limited endpoint: all 10');
    // arrivals carry up to ARRIVAL_JITTER_MS of scheduling jitter; without the limit all 10 come
    // within a few hundred ms, far over the 2 + 2 x (window + jitter) a bucket of 2/s allows
    const excess = excessOverBucket(
      limited.received.map((r) => r.at),
      2,
      ARRIVAL_JITTER_MS,
    );
    assert.ok(
      excess <= 0,
      `arrivals exceed the bucket of 2/s by ${excess.toFixed(2)}: ${limited.received.map((r) => r.at - limited.received[0]!.at).join(', ')} ms`,
    );
    assert.ok(
      Math.max(...free.received.map((r) => r.at)) < Math.max(...limited.received.map((r) => r.at)),
      'the unlimited endpoint got all of its deliveries before the limited one got its last',
    );
    // held deliveries waited: not attempts
    const ledger = await eventually("the limited endpoint's ledger: 10 delivered", async () => {
      const res = await api.get(`/v1/webhooks/deliveries?endpointId=${slow.body.id}&status=delivered`);
      return res.body.data.length === 10 ? res.body.data : undefined;
    });
    assert.deepEqual(
      ledger.map((d: any) => d.attempts),
      Array(10).fill(1),
    );
    const one = await api.get(`/v1/webhooks/deliveries/${ledger[0].id}`);
    assert.equal(one.body.attemptLog.length, 1);
    assert.equal(limited.received.length, 10, 'each sent once');
  });

  await t.test('an endpoint failing for WEBHOOK_DISABLE_AFTER is disabled, with its event and audit entry; enabling it works', async (t) => {
    let healthy = false;
    let recoverOnRetry = true;
    const failing = await startReceiver(t, () => ({ status: healthy ? 200 : 500 }));
    // fails its first attempt, succeeds at the retry: the success ends its failing streak
    const flaky = await startReceiver(t, () => {
      if (recoverOnRetry) {
        recoverOnRetry = false;
        return { status: 503 };
      }
      return { status: 200 };
    });
    const watcher = await startReceiver(t);
    const { env, api } = await environment(cluster);
    const token = (await api.post(`/v1/environments/${env.environmentId}/logs-token`)).body.token;
    const logs = openSocket(cluster.gateways[0]!.realtimeUrl, `/v1/environments/${env.environmentId}/logs?token=${token}`);
    t.after(() => logs.close());
    await logs.waitFor('ready', (f) => f.op === 'ready');
    const watching = await api.post('/v1/webhook-endpoints', { url: watcher.url, eventTypes: ['endpoint.disabled'] });
    assert.equal(watching.status, 201);
    // the flaky one fails first, so had its success not cleared the streak it would be disabled no later than the other
    const flakyEndpoint = await api.post('/v1/webhook-endpoints', { url: flaky.url, channels: ['flaky'] });
    await api.post('/v1/channels/flaky/messages', { content: { n: 0 } });
    await arrived(flaky, (r) => r.length >= 1, "the flaky endpoint's first, failed attempt");
    const failingEndpoint = await api.post('/v1/webhook-endpoints', { url: failing.url, channels: ['down'] });
    await api.post('/v1/channels/down/messages', { content: { n: 1 } });

    await arrived(watcher, (r) => r.length >= 1, 'endpoint.disabled');
    const received = watcher.received[0]!;
    const event = bodyOf(received);
    assert.equal(event.type, 'endpoint.disabled');
    assert.equal(event.environmentId, env.environmentId);
    assert.deepEqual(standardVerify(watching.body.secret, received), event, "signed with the watching endpoint's secret");
    assert.equal(verifyWebhookSignature(received.raw, received.headers['service-signature'], watching.body.secret).ok, true);
    assert.deepEqual(Object.keys(event.data).sort(), ['disabledAt', 'endpointId', 'failingSince', 'url']);
    assert.deepEqual([event.data.endpointId, event.data.url], [failingEndpoint.body.id, failing.url]);
    assert.ok(Date.parse(event.data.disabledAt) - Date.parse(event.data.failingSince) >= 2_000, 'failing for at least WEBHOOK_DISABLE_AFTER');

    const disabled = await api.get(`/v1/webhook-endpoints/${failingEndpoint.body.id}`);
    assert.deepEqual([disabled.body.disabled, disabled.body.disabledReason], [true, 'failing']);
    assert.deepEqual([disabled.body.disabledAt, disabled.body.failingSince], [event.data.disabledAt, event.data.failingSince]);
    const { rows: audit } = await cluster.db.pool.query(
      `select a.actor_kind, a.target_type, a.organization_id = p.organization_id as same_org
       from audit_log a, environments e join projects p on p.id = e.project_id
       where a.action = 'webhook_endpoint.disabled' and a.target_id = $1 and e.id = $2`,
      [failingEndpoint.body.id, env.environmentId],
    );
    assert.deepEqual(audit, [{ actor_kind: 'system', target_type: 'webhook_endpoint', same_org: true }]);
    const stillOn = await api.get(`/v1/webhook-endpoints/${flakyEndpoint.body.id}`);
    assert.deepEqual([stillOn.body.disabled, 'failingSince' in stillOn.body], [false, false], "a success ended the flaky endpoint's streak");
    assert.equal(watcher.received.length, 1, 'one endpoint disabled, one event');
    const warned = await logs.waitFor("the live log's warning", (f) => f.op === 'log' && f.event === 'webhook.endpoint_disabled');
    assert.deepEqual([warned.level, warned.data.endpointId, warned.data.reason], ['warn', failingEndpoint.body.id, 'failing']);

    const enabled = await api.patch(`/v1/webhook-endpoints/${failingEndpoint.body.id}`, { disabled: false });
    assert.equal(enabled.status, 200);
    assert.deepEqual([enabled.body.disabled, 'disabledReason' in enabled.body, 'failingSince' in enabled.body], [false, false, false]);
    healthy = true;
    const before = failing.received.length;
    await api.post('/v1/channels/down/messages', { content: { n: 2 } });
    await arrived(failing, (r) => r.slice(before).some((x) => bodyOf(x).data?.content?.n === 2), 'a delivery after enabling');
  });

  await t.test('a dropped delivery reports delivery.dropped to the other endpoints, not its own; a dropped report reports nothing', async (t) => {
    const dropping = await startReceiver(t, () => ({ status: 500 }));
    const alsoFailing = await startReceiver(t, () => ({ status: 500 }));
    const witness = await startReceiver(t);
    const { env, api } = await environment(cluster);
    // no filter: only the event's `except` keeps its own report from it
    const source = await api.post('/v1/webhook-endpoints', { url: dropping.url });
    const failingReports = await api.post('/v1/webhook-endpoints', { url: alsoFailing.url, eventTypes: ['delivery.dropped'] });
    const witnessing = await api.post('/v1/webhook-endpoints', { url: witness.url, eventTypes: ['delivery.dropped'] });
    assert.equal(witnessing.status, 201);
    const published = await api.post('/v1/channels/drops/messages', { content: { x: 1 } });
    assert.equal(published.status, 201);

    await arrived(witness, (r) => r.length >= 1, 'delivery.dropped');
    const report = bodyOf(witness.received[0]!);
    assert.deepEqual(standardVerify(witnessing.body.secret, witness.received[0]!), report);
    const [dropped] = (await api.get(`/v1/webhooks/deliveries?endpointId=${source.body.id}&status=dropped`)).body.data;
    assert.ok(dropped, 'the source delivery is dropped');
    assert.equal(report.type, 'delivery.dropped');
    assert.deepEqual(report.data, {
      deliveryId: dropped.id,
      endpointId: source.body.id,
      eventId: published.body.id,
      eventType: 'message.published',
      attempts: 2,
      lastError: 'status 500',
    });

    // the failing endpoint's copy of the report drops too: once that is visible, so would be any
    // report of it (written in the drop's transaction)
    await eventually("the failing endpoint's report dropped", async () => {
      const res = await api.get(`/v1/webhooks/deliveries?endpointId=${failingReports.body.id}&status=dropped`);
      return res.body.data.length === 1 ? true : undefined;
    });
    const { rows } = await cluster.db.pool.query<{ endpoint_id: string; n: number }>(
      `select endpoint_id, count(*)::int as n from webhook_deliveries where environment_id = $1 and event_type = 'delivery.dropped' group by endpoint_id order by endpoint_id`,
      [env.environmentId],
    );
    assert.deepEqual(
      rows.map((r) => [r.endpoint_id, r.n]),
      [
        [failingReports.body.id, 1],
        [witnessing.body.id, 1],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      'one report, to the two other endpoints; none of the dropped report',
    );
    assert.ok(
      dropping.received.every((r) => bodyOf(r).type === 'message.published'),
      'the source never gets its own report',
    );
    await eventually("the witness's delivery recorded", async () => {
      const res = await api.get(`/v1/webhooks/deliveries?endpointId=${witnessing.body.id}&status=delivered`);
      return res.body.data.length === 1 ? true : undefined;
    });
    assert.equal(witness.received.length, 1);
  });
});
