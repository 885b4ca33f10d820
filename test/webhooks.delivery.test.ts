import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { addressRefusal } from '@rtm/rules';
import { connectBus, decodeText, logFramesOf, LogListeners, subjects, type LogFrame } from '@rtm/bus';
import { startCluster, type Cluster } from './helpers/cluster.ts';
import { client, errorCode } from './helpers/http.ts';
import { closedPort, enqueue, eventually, publishedEvent, startReceiver, type ReceivedWebhook } from './helpers/webhook-receiver.ts';

// shortened schedule with distinct steps, so the order of the gaps shows
const SCHEDULE = [1000, 2000, 1000, 1000, 1000];
const TIMEOUT_MS = 1000;

/** An independent check of `service-signature` over the exact bytes received. */
function signaturesOf(received: ReceivedWebhook): { t: string; v1: string[] } {
  const header = String(received.headers['service-signature'] ?? '');
  const parts = header.split(',').map((part) => part.split('=') as [string, string]);
  const t = parts.filter(([k]) => k === 't').map(([, v]) => v);
  assert.equal(t.length, 1, `one t in ${header}`);
  return { t: t[0]!, v1: parts.filter(([k]) => k === 'v1').map(([, v]) => v) };
}
const hmac = (secret: string, t: string, raw: Buffer) =>
  createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(`${t}.`), raw]))
    .digest('hex');

async function setUp(cluster: Cluster, url: string) {
  const env = await cluster.createEnvironment();
  const api = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  const deployed = await api.put('/v1/config', { webhooks: { url } });
  assert.equal(deployed.status, 200, JSON.stringify(deployed.body));
  const secret = (await api.get('/v1/webhooks/secret')).body.secret as string;
  return { env, api, secret };
}

async function deliveryOf(api: ReturnType<typeof client>, eventId: string, until: (row: any) => boolean) {
  return eventually(async () => {
    const list = await api.get('/v1/webhooks/deliveries?limit=500');
    const row = list.body.data.find((r: any) => r.eventId === eventId);
    if (!row) return undefined;
    const one = await api.get(`/v1/webhooks/deliveries/${row.id}`);
    return until(one.body) ? one.body : undefined;
  });
}

test('webhooks - delivery, signatures, retries on the configured schedule, dead letters', { concurrency: true }, async (t) => {
  const cluster = await startCluster(t, {
    gateways: 1,
    dispatchers: 1,
    env: { WEBHOOK_RETRY_SCHEDULE: '1s,2s,1s,1s,1s', WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) },
  });

  await t.test('the body is the stored bytes, signed with the secret (checked with node:crypto); rotation signs with both', async (t) => {
    const receiver = await startReceiver(t);
    const { env, api, secret } = await setUp(cluster, receiver.url);
    assert.match(secret, /^whsec_/);
    const events = [publishedEvent(env.environmentId, 'room.a'), publishedEvent(env.environmentId, 'room:b', { text: 'héllo ✓' })];
    const retracted = {
      ...events[0]!,
      eventId: `retract_${events[0]!.eventId}`,
      type: 'message.retracted' as const,
      data: JSON.stringify({ ...JSON.parse(events[0]!.data), content: null, retracted: true }),
    };
    assert.equal(await enqueue(cluster.db.pool, [...events, retracted]), 3);
    await receiver.waitFor((r) => r.length >= 3, '3 deliveries');

    const stored = await cluster.db.pool.query<{ event_id: string; body: string }>('select event_id, body from webhook_ledger');
    const bodies = new Map(stored.rows.map((row) => [row.event_id, row.body]));
    for (const received of receiver.received) {
      const { t: ts, v1 } = signaturesOf(received);
      assert.equal(v1.length, 1);
      assert.equal(v1[0], hmac(secret, ts, received.raw));
      assert.ok(Math.abs(Number(ts) - Date.now() / 1000) < 300);
      assert.equal(received.headers['content-type'], 'application/json');
      const event = JSON.parse(received.raw.toString('utf8'));
      assert.deepEqual(received.raw, Buffer.from(bodies.get(event.id)!, 'utf8'), 'exact stored bytes');
      assert.equal(event.environmentId, env.environmentId);
      assert.ok(['message.published', 'message.retracted'].includes(event.type));
      if (event.type === 'message.retracted') {
        assert.equal(event.id, `retract_${event.data.id}`);
        assert.equal(event.data.content, null);
        assert.equal(event.data.retracted, true);
        assert.equal('reason' in event.data, false);
      }
    }
    const list = await eventually(async () => {
      const res = await api.get('/v1/webhooks/deliveries?status=delivered');
      return res.body.data.length === 3 ? res.body : undefined;
    });
    for (const row of list.data) {
      assert.equal(row.attempts, 1);
      assert.equal(row.lastStatusCode, 200);
      assert.ok(row.deliveredAt);
      assert.equal(row.nextAttemptAt, undefined);
      assert.equal(row.url, receiver.url);
    }

    const rotated = await api.post('/v1/webhooks/secret/rotate');
    assert.equal(rotated.status, 200);
    assert.notEqual(rotated.body.secret, secret);
    await enqueue(cluster.db.pool, [publishedEvent(env.environmentId)]);
    await receiver.waitFor((r) => r.length >= 4, 'a delivery after rotation');
    const after = receiver.received[3]!;
    const { t: ts, v1 } = signaturesOf(after);
    assert.deepEqual(v1, [hmac(rotated.body.secret, ts, after.raw), hmac(secret, ts, after.raw)], 'new first, then old');
  });

  await t.test('fails 3 times then succeeds: attempts, lastError, nextAttemptAt and gaps follow the schedule', async (t) => {
    const receiver = await startReceiver(t, (req) => ({ status: req.n <= 3 ? 500 : 204 }));
    const { env, api } = await setUp(cluster, receiver.url);
    const event = publishedEvent(env.environmentId);
    await enqueue(cluster.db.pool, [event]);

    const waiting = await deliveryOf(api, event.eventId, (row) => row.attempts === 1);
    assert.equal(waiting.status, 'pending');
    assert.equal(waiting.lastStatusCode, 500);
    assert.equal(waiting.lastError, 'status 500');
    assert.ok(waiting.nextAttemptAt, 'a pending delivery awaiting a retry shows nextAttemptAt');
    assert.ok(Date.parse(waiting.nextAttemptAt) - Date.parse(waiting.attemptLog[0].at) >= SCHEDULE[0]!);

    const done = await deliveryOf(api, event.eventId, (row) => row.status === 'delivered');
    assert.equal(done.attempts, 4);
    assert.equal(done.lastStatusCode, 204);
    assert.equal(done.lastError, 'status 500', 'the last error stays as history');
    assert.ok(done.deliveredAt);
    assert.equal(done.nextAttemptAt, undefined);
    assert.deepEqual(
      done.attemptLog.map((a: any) => a.statusCode),
      [500, 500, 500, 204],
    );
    assert.equal(receiver.received.length, 4);
    for (let i = 1; i < 4; i++) {
      const gap = receiver.received[i]!.at - receiver.received[i - 1]!.at;
      assert.ok(gap >= SCHEDULE[i - 1]!, `gap ${i} is ${gap} ms, schedule says ${SCHEDULE[i - 1]} ms`);
    }
  });

  await t.test('3xx, time-outs and 4xx/5xx all fail; after 6 attempts the delivery is dropped; a manual retry re-queues it', async (t) => {
    let redirectFollowed = false;
    const answers = [302, 'hang', 400, 503, 301, 500] as const;
    const receiver = await startReceiver(t, (req) => {
      if (req.path === '/elsewhere') {
        redirectFollowed = true;
        return { status: 200 };
      }
      const answer = req.n <= answers.length ? answers[req.n - 1]! : 200;
      if (answer === 'hang') return 'hang';
      const headers: Record<string, string> = answer < 400 ? { location: `http://127.0.0.1:${receiverPort()}/elsewhere` } : {};
      return { status: answer, headers };
    });
    const receiverPort = () => receiver.port;
    const { env, api } = await setUp(cluster, receiver.url);
    const event = publishedEvent(env.environmentId);
    await enqueue(cluster.db.pool, [event]);

    const dropped = await deliveryOf(api, event.eventId, (row) => row.status === 'dropped');
    assert.equal(dropped.attempts, 6);
    assert.equal(dropped.nextAttemptAt, undefined);
    assert.equal(dropped.deliveredAt, undefined);
    const log = dropped.attemptLog as any[];
    assert.equal(log.length, 6);
    assert.deepEqual(
      log.map((a) => a.statusCode ?? null),
      [302, null, 400, 503, 301, 500],
    );
    assert.deepEqual(
      log.map((a) => a.error),
      ['status 302', 'timeout', 'status 400', 'status 503', 'status 301', 'status 500'],
    );
    assert.equal(dropped.lastError, 'status 500');
    assert.equal(redirectFollowed, false);
    const droppedList = await api.get('/v1/webhooks/deliveries?status=dropped');
    assert.deepEqual(
      droppedList.body.data.map((r: any) => r.id),
      [dropped.id],
    );

    const retry = await api.post(`/v1/webhooks/deliveries/${dropped.id}/retry`);
    assert.equal(retry.status, 200);
    assert.equal(retry.body.status, 'pending');
    const delivered = await deliveryOf(api, event.eventId, (row) => row.status === 'delivered');
    assert.equal(delivered.attempts, 7);
    const again = await api.post(`/v1/webhooks/deliveries/${dropped.id}/retry`);
    assert.equal(again.status, 400);
    assert.equal(errorCode(again), 'invalid_request');
    assert.match(again.body.reason, /dropped/);
  });

  await t.test('connection refused counts as a failure and ends dropped; the live log tells each attempt', async (t) => {
    const port = await closedPort();
    const { env, api } = await setUp(cluster, `http://127.0.0.1:${port}/down`);
    const nc = await connectBus(cluster.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'test-logs');
    t.after(() => nc.close());
    const frames: LogFrame[] = [];
    // a bus message carries one frame or several (one per event of a recorded batch)
    nc.subscribe(subjects(cluster.prefix).logs(env.environmentId), {
      callback: (_e, msg) => frames.push(...logFramesOf(decodeText(msg.data)).map((text) => JSON.parse(text) as LogFrame)),
    });
    // a listener of this environment's live log, as a gateway announces one (libs/bus log-interest.ts)
    new LogListeners(nc, subjects(cluster.prefix)).opened(env.environmentId);
    await nc.flush();
    const event = publishedEvent(env.environmentId);
    await enqueue(cluster.db.pool, [event]);
    const dropped = await deliveryOf(api, event.eventId, (row) => row.status === 'dropped');
    assert.equal(dropped.attempts, 6);
    for (const attempt of dropped.attemptLog) {
      assert.equal(attempt.statusCode, undefined);
      assert.equal(attempt.error, 'refused');
    }
    await eventually(async () => frames.some((f) => f.event === 'webhook.dropped'));
    const attempts = frames.filter((f) => f.event === 'webhook.attempt');
    assert.deepEqual(
      attempts.map((f) => f.data.attempt),
      [1, 2, 3, 4, 5, 6],
    );
    for (const frame of attempts) {
      assert.equal(frame.data.deliveryId, dropped.id);
      assert.equal(frame.data.eventId, event.eventId);
      assert.equal(frame.data.statusCode, null);
      assert.equal(typeof frame.data.durationMs, 'number');
      assert.equal(frame.data.error, 'refused');
    }
    const droppedFrame = frames.find((f) => f.event === 'webhook.dropped')!;
    assert.equal(droppedFrame.level, 'error');
    assert.equal(droppedFrame.data.deliveryId, dropped.id);
    assert.equal(
      frames.some((f) => f.event === 'webhook.delivered'),
      false,
    );
  });

  await t.test('send time: a host name that resolves to a non-public address is refused without connecting', async (t) => {
    // this machine's own name passes the deploy-time rules (a plain name, https) but resolves
    // to a loopback or private address: the dispatcher must refuse it when it resolves it
    const name = hostname();
    const resolved = await lookup(name).catch(() => undefined);
    if (!resolved || name === 'localhost' || addressRefusal(resolved.address) === null) {
      t.skip(`${name} does not resolve to a non-public address here`);
      return;
    }
    const receiver = await startReceiver(t);
    const { env, api } = await setUp(cluster, `https://${name}:${receiver.port}/hooks`);
    const event = publishedEvent(env.environmentId);
    await enqueue(cluster.db.pool, [event]);
    const failed = await deliveryOf(api, event.eventId, (row) => row.attempts >= 1);
    assert.equal(failed.attemptLog[0].statusCode, undefined);
    // the dispatcher resolves through DNS (not /etc/hosts, where this name may only be listed):
    // either way it neither connects nor says more than one word
    assert.match(failed.attemptLog[0].error, /^(blocked_address|dns)$/);
    assert.equal(receiver.received.length, 0);
  });
});
