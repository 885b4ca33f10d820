/**
 * Webhook endpoints through the real processes: many endpoints with their own filters and
 * secrets beside the default one (the configuration's URL), verified by the `standardwebhooks`
 * library; test events; disabling and enabling; recovery of dropped deliveries by a dispatcher
 * task; the ledger per endpoint; the limits and errors of the routes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { verifyWebhookSignature } from '@rtm/webhooks';
import { startCluster, type Cluster } from './helpers/cluster.ts';
import { client, errorCode } from './helpers/http.ts';
import { eventually, startReceiver, type ReceivedWebhook } from './helpers/webhook-receiver.ts';

const bodyOf = (r: ReceivedWebhook) => JSON.parse(r.raw.toString('utf8'));
const typesAt = (received: ReceivedWebhook[]) => received.map((r) => `${bodyOf(r).type}@${bodyOf(r).channelId ?? '-'}`).sort();

/** Verifies a delivery as a Standard Webhooks receiver would, with the library. */
function standardVerify(secret: string, received: ReceivedWebhook): unknown {
  const headers = {
    'webhook-id': String(received.headers['webhook-id']),
    'webhook-timestamp': String(received.headers['webhook-timestamp']),
    'webhook-signature': String(received.headers['webhook-signature']),
  };
  return new Webhook(secret).verify(received.raw.toString('utf8'), headers);
}

async function environment(cluster: Cluster) {
  const env = await cluster.createEnvironment();
  return { env, api: client(cluster.gateways[0]!.controlUrl, env.secretKey) };
}

test('webhook endpoints - filters, secrets, test events, disabling, recovery, the ledger per endpoint', { concurrency: true }, async (t) => {
  const cluster = await startCluster(t, {
    gateways: 1,
    channelNodes: 1,
    dispatchers: 1,
    env: { WEBHOOK_RETRY_SCHEDULE: '1s', WEBHOOK_TIMEOUT_MS: '1000' },
  });

  await t.test('two endpoints with different filters get only their events; the default one is unchanged', async (t) => {
    const [fallback, only, room] = [await startReceiver(t), await startReceiver(t), await startReceiver(t)];
    const { api } = await environment(cluster);
    assert.equal((await api.put('/v1/config', { webhooks: { url: fallback.url } })).status, 200);
    const a = await api.post('/v1/webhook-endpoints', { url: only.url, eventTypes: ['message.published'], channels: ['room-a*'], description: 'A' });
    assert.equal(a.status, 201, JSON.stringify(a.body));
    assert.match(a.body.id, /^ep_[0-9a-z]{26}$/);
    assert.match(a.body.secret, /^whsec_[A-Za-z0-9+/]{44}$/);
    assert.deepEqual([a.body.eventTypes, a.body.channels, a.body.disabled, a.body.rateLimitPerSecond], [['message.published'], ['room-a*'], false, null]);
    const b = await api.post('/v1/webhook-endpoints', { url: room.url, channels: ['room-b'] });
    assert.equal(b.status, 201);
    assert.equal(b.body.eventTypes, null, 'no filter: every type');

    const sent: Record<string, string> = {};
    for (const channel of ['room-a1', 'room-b', 'room-c']) {
      const res = await api.post(`/v1/channels/${channel}/messages`, { content: { channel } });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      sent[channel] = res.body.id;
    }
    assert.equal((await api.delete(`/v1/channels/room-b/messages/${sent['room-b']}`)).status, 200);
    await fallback.waitFor((r) => r.length >= 4, 'the default endpoint: 3 published, 1 retracted');
    await only.waitFor((r) => r.length >= 1, 'A: room-a1 published');
    await room.waitFor((r) => r.length >= 2, 'B: room-b published and retracted');
    // a later event of each kind, so anything that should not have come has had time to come
    await api.post('/v1/channels/room-a1/messages', { content: { last: true } });
    await only.waitFor((r) => r.length >= 2, 'A: the last one');
    await fallback.waitFor((r) => r.length >= 5, 'the default endpoint: the last one');
    assert.deepEqual(typesAt(fallback.received), [
      'message.published@room-a1',
      'message.published@room-a1',
      'message.published@room-b',
      'message.published@room-c',
      'message.retracted@room-b',
    ]);
    assert.deepEqual(typesAt(only.received), ['message.published@room-a1', 'message.published@room-a1']);
    assert.deepEqual(typesAt(room.received), ['message.published@room-b', 'message.retracted@room-b']);

    // each endpoint signs with its own secret, in both schemes; the default one with the environment's
    const defaultSecret = (await api.get('/v1/webhooks/secret')).body.secret as string;
    for (const received of only.received) {
      assert.equal(verifyWebhookSignature(received.raw, received.headers['service-signature'], a.body.secret).ok, true);
      assert.deepEqual(standardVerify(a.body.secret, received), bodyOf(received), 'standardwebhooks verifies it');
      assert.equal(received.headers['webhook-id'], bodyOf(received).id, 'webhook-id is the event id');
      assert.throws(() => standardVerify(b.body.secret, received), "another endpoint's secret does not verify it");
    }
    for (const received of fallback.received) assert.deepEqual(standardVerify(defaultSecret, received), bodyOf(received));
    const event = bodyOf(room.received[0]!);
    assert.equal(fallback.received.find((r) => bodyOf(r).id === event.id)!.headers['webhook-id'], event.id, 'the same event id on every endpoint');

    // the ledger per endpoint: a receiver holds an event a moment before its dispatcher records
    // the outcome (outcomes are written in gathered batches), so the ledger is read until it has
    const ledgerA = await eventually(
      async () => {
        const page = await api.get(`/v1/webhooks/deliveries?endpointId=${a.body.id}`);
        return page.body.data.every((d: any) => d.status !== 'pending') && page;
      },
      { what: "endpoint A's deliveries recorded", timeoutMs: 10_000 },
    );
    assert.deepEqual(
      ledgerA.body.data.map((d: any) => [d.endpointId, d.channelId, d.status]),
      [
        [a.body.id, 'room-a1', 'delivered'],
        [a.body.id, 'room-a1', 'delivered'],
      ],
    );
    const ledgerDefault = await api.get('/v1/webhooks/deliveries?endpointId=default');
    assert.equal(ledgerDefault.body.data.length, 5);
    assert.ok(ledgerDefault.body.data.every((d: any) => d.endpointId === null && d.url === fallback.url));
    assert.equal((await api.get('/v1/webhooks/deliveries')).body.data.length, 9, 'every delivery of every endpoint');
    assert.equal(errorCode(await api.get('/v1/webhooks/deliveries?endpointId=nope')), 'invalid_request');
  });

  await t.test('rotation: both signatures in both schemes, each verifiable alone', async (t) => {
    const receiver = await startReceiver(t);
    const { api } = await environment(cluster);
    const created = await api.post('/v1/webhook-endpoints', { url: receiver.url });
    const rotated = await api.post(`/v1/webhook-endpoints/${created.body.id}/secret/rotate`);
    assert.equal(rotated.status, 200);
    assert.notEqual(rotated.body.secret, created.body.secret);
    assert.equal((await api.get(`/v1/webhook-endpoints/${created.body.id}/secret`)).body.secret, rotated.body.secret);
    await api.post('/v1/channels/rot/messages', { content: {} });
    await receiver.waitFor((r) => r.length >= 1);
    const [received] = receiver.received;
    assert.equal(String(received!.headers['webhook-signature']).split(' ').length, 2, 'new and previous');
    for (const secret of [rotated.body.secret, created.body.secret]) {
      assert.deepEqual(standardVerify(secret, received!), bodyOf(received!));
      assert.equal(verifyWebhookSignature(received!.raw, received!.headers['service-signature'], secret).ok, true);
    }
  });

  await t.test('a test event, an example of a named type, and the catalogue', async (t) => {
    const receiver = await startReceiver(t);
    const other = await startReceiver(t);
    const { env, api } = await environment(cluster);
    const created = await api.post('/v1/webhook-endpoints', { url: receiver.url, eventTypes: ['message.published'] });
    await api.post('/v1/webhook-endpoints', { url: other.url });
    const sent = await api.post(`/v1/webhook-endpoints/${created.body.id}/test`, {});
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
    assert.equal(sent.body.eventType, 'webhook.test');
    await receiver.waitFor((r) => r.length >= 1, 'the test event');
    const body = bodyOf(receiver.received[0]!);
    assert.deepEqual([body.type, body.environmentId, body.data.endpointId, 'channelId' in body], ['webhook.test', env.environmentId, created.body.id, false]);
    assert.deepEqual(standardVerify(created.body.secret, receiver.received[0]!), body);
    const example = await api.post(`/v1/webhook-endpoints/${created.body.id}/test`, { eventType: 'member.banned' });
    assert.equal(example.status, 202);
    await receiver.waitFor((r) => r.length >= 2, 'the example');
    assert.equal(bodyOf(receiver.received[1]!).type, 'member.banned', "an example goes even past the endpoint's type filter");
    const one = await api.get(`/v1/webhooks/deliveries/${example.body.deliveryId}`);
    assert.equal(one.body.endpointId, created.body.id);
    assert.equal(other.received.length, 0, 'a test goes to its endpoint only');

    const catalogue = await api.get('/v1/webhook-event-types');
    assert.equal(catalogue.status, 200);
    const names = catalogue.body.data.map((e: any) => e.name);
    for (const name of [
      'message.published',
      'message.retracted',
      'member.added',
      'member.removed',
      'member.banned',
      'member.unbanned',
      'channel.deleted',
      'user.messages_erased',
      'webhook.test',
      'endpoint.disabled',
      'delivery.dropped',
    ]) {
      assert.ok(names.includes(name), name);
    }
    const banned = catalogue.body.data.find((e: any) => e.name === 'member.banned');
    assert.equal(banned.schema.type, 'object');
    assert.ok(banned.schema.required.includes('userId'));
    assert.equal(errorCode(await api.post(`/v1/webhook-endpoints/${created.body.id}/test`, { eventType: 'nope' })), 'invalid_request');
  });

  await t.test('disabled: no new deliveries, no test; enabled again: deliveries resume', async (t) => {
    const receiver = await startReceiver(t);
    const witness = await startReceiver(t);
    const { api } = await environment(cluster);
    const created = await api.post('/v1/webhook-endpoints', { url: receiver.url, disabled: true });
    assert.deepEqual([created.body.disabled, created.body.disabledReason], [true, 'manual']);
    await api.post('/v1/webhook-endpoints', { url: witness.url });
    await api.post('/v1/channels/off/messages', { content: { n: 1 } });
    await witness.waitFor((r) => r.length >= 1, 'the witness got the first');
    assert.equal(errorCode(await api.post(`/v1/webhook-endpoints/${created.body.id}/test`, {})), 'invalid_request');
    const enabled = await api.patch(`/v1/webhook-endpoints/${created.body.id}`, { disabled: false });
    assert.equal(enabled.status, 200);
    assert.deepEqual([enabled.body.disabled, 'disabledReason' in enabled.body], [false, false]);
    await api.post('/v1/channels/off/messages', { content: { n: 2 } });
    await receiver.waitFor((r) => r.length >= 1, 'the second');
    assert.deepEqual(
      receiver.received.map((r) => bodyOf(r).data.content),
      [{ n: 2 }],
      'only what came after enabling',
    );
  });

  await t.test('recovery: dropped deliveries sent again by a dispatcher task', async (t) => {
    let healthy = false;
    const receiver = await startReceiver(t, () => ({ status: healthy ? 200 : 500 }));
    const { api } = await environment(cluster);
    const since = new Date(Date.now() - 1000).toISOString();
    const created = await api.post('/v1/webhook-endpoints', { url: receiver.url });
    for (let i = 0; i < 3; i++) await api.post('/v1/channels/flaky/messages', { content: { i } });
    // the schedule is one retry a second later: two failed attempts each, then dropped
    await eventually(async () => {
      const list = await api.get(`/v1/webhooks/deliveries?endpointId=${created.body.id}&status=dropped`);
      return list.body.data.length === 3 ? true : undefined;
    });
    healthy = true;
    const started = await api.post(`/v1/webhook-endpoints/${created.body.id}/recover`, { since });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    assert.equal(started.headers.get('location'), `/v1/webhook-tasks/${started.body.taskId}`);
    const task = await eventually(async () => {
      const res = await api.get(`/v1/webhook-tasks/${started.body.taskId}`);
      return res.body.status === 'completed' ? res.body : undefined;
    });
    assert.deepEqual([task.recovered, task.endpointId, task.kind], [3, created.body.id, 'recover']);
    await receiver.waitFor((r) => r.filter((x) => x.headers['webhook-id'] && bodyOf(x)).length >= 9, '6 failed attempts, 3 recovered');
    await eventually(async () => {
      const list = await api.get(`/v1/webhooks/deliveries?endpointId=${created.body.id}&status=delivered`);
      return list.body.data.length === 3 ? true : undefined;
    });
    const before = new Date(Date.now() - 3_600_000).toISOString();
    assert.equal(
      errorCode(await api.post(`/v1/webhook-endpoints/${created.body.id}/recover`, { since: new Date().toISOString(), until: before })),
      'invalid_request',
    );
    assert.equal(errorCode(await api.get('/v1/webhook-tasks/wtk_00000000000000000000000000')), 'not_found');
  });

  await t.test('CRUD, the URL policy, the limit of 50, and isolation between environments', async () => {
    const { api } = await environment(cluster);
    const { api: stranger } = await environment(cluster);
    assert.equal(errorCode(await api.post('/v1/webhook-endpoints', { url: 'http://10.0.0.1/x' })), 'invalid_webhook_url');
    assert.equal(errorCode(await api.post('/v1/webhook-endpoints', { url: 'https://example.com/x', eventTypes: ['nope'] })), 'invalid_request');
    assert.equal(errorCode(await api.post('/v1/webhook-endpoints', { url: 'https://example.com/x', channels: ['a*b'] })), 'invalid_request');
    assert.equal(errorCode(await api.post('/v1/webhook-endpoints', { url: 'https://example.com/x', extra: 1 })), 'invalid_request');
    const created = await api.post('/v1/webhook-endpoints', { url: 'https://example.com/one', rateLimitPerSecond: 5 });
    const id = created.body.id as string;
    assert.equal(created.body.rateLimitPerSecond, 5);
    for (const call of [
      stranger.get(`/v1/webhook-endpoints/${id}`),
      stranger.patch(`/v1/webhook-endpoints/${id}`, { description: 'x' }),
      stranger.delete(`/v1/webhook-endpoints/${id}`),
      stranger.get(`/v1/webhook-endpoints/${id}/secret`),
      stranger.post(`/v1/webhook-endpoints/${id}/test`, {}),
    ]) {
      assert.equal(errorCode(await call), 'not_found');
    }
    const patched = await api.patch(`/v1/webhook-endpoints/${id}`, { description: 'renamed', channels: ['x*'], rateLimitPerSecond: null });
    assert.deepEqual(
      [patched.body.description, patched.body.channels, patched.body.rateLimitPerSecond, patched.body.url],
      ['renamed', ['x*'], null, 'https://example.com/one'],
    );
    assert.equal(errorCode(await api.patch(`/v1/webhook-endpoints/${id}`, {})), 'invalid_request');
    assert.equal(errorCode(await api.patch(`/v1/webhook-endpoints/${id}`, { url: 'http://169.254.169.254/' })), 'invalid_webhook_url');
    for (let i = 1; i < 50; i++) assert.equal((await api.post('/v1/webhook-endpoints', { url: `https://example.com/${i}` })).status, 201);
    const refused = await api.post('/v1/webhook-endpoints', { url: 'https://example.com/51' });
    assert.equal(errorCode(refused), 'invalid_request');
    assert.match(refused.body.reason, /at most 50/);
    const first = await api.get('/v1/webhook-endpoints?limit=30');
    const second = await api.get(`/v1/webhook-endpoints?limit=30&cursor=${first.body.nextCursor}`);
    assert.equal(first.body.data[0].id, id, 'oldest first');
    assert.deepEqual([first.body.data.length, second.body.data.length, second.body.nextCursor], [30, 20, null]);
    assert.equal((await stranger.get('/v1/webhook-endpoints')).body.data.length, 0);
    assert.equal((await api.delete(`/v1/webhook-endpoints/${id}`)).status, 204);
    assert.equal(errorCode(await api.get(`/v1/webhook-endpoints/${id}`)), 'not_found');
    assert.equal((await api.post('/v1/webhook-endpoints', { url: 'https://example.com/again' })).status, 201, 'room again after a delete');
  });
});
