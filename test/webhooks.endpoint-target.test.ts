/**
 * A delivery goes where its endpoint points now. A retry after the endpoint's URL changed goes to
 * the new URL, never the old one; a disabled endpoint gets no send at all (its pending delivery
 * waits, attempts unchanged) until it is enabled again, when the delivery goes at once. The same
 * for the default endpoint: the configuration's URL as it is now, and no send while it has none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';
import { startReceiver, type ReceivedWebhook } from './helpers/webhook-receiver.ts';

const contentOf = (r: ReceivedWebhook) => JSON.parse(r.raw.toString('utf8')).data?.content;

test("webhooks - retries follow an endpoint's current URL; a disabled endpoint gets no sends until enabled", { timeout: 120_000 }, async (t) => {
  // retries 3 s apart: time enough to change the endpoint between two attempts
  const cluster = await startCluster(t, {
    gateways: 1,
    channelNodes: 1,
    dispatchers: 1,
    env: { WEBHOOK_RETRY_SCHEDULE: '3s,3s,3s,3s,3s,3s,3s,3s', WEBHOOK_TIMEOUT_MS: '1000' },
  });
  const gateway = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  const api = client(gateway.controlUrl, env.secretKey);
  const old = await startReceiver(t, () => ({ status: 503 }));
  const moved = await startReceiver(t);
  const endpoint = (await api.post('/v1/webhook-endpoints', { url: old.url, eventTypes: ['message.published'] })).body;
  assert.match(endpoint.id, /^ep_/);

  await t.test('a retry after the URL changed goes to the new URL', async () => {
    assert.equal((await api.post('/v1/channels/a/messages', { content: { n: 'moved' } })).status, 201);
    await old.waitFor((r) => r.length >= 1, 'the first attempt, at the old URL');
    const patched = await api.patch(`/v1/webhook-endpoints/${endpoint.id}`, { url: moved.url });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    const atOld = old.received.length;
    await eventually('the retry, at the new URL', async () => moved.received.some((x) => contentOf(x)?.n === 'moved'), 30_000);
    assert.equal(old.received.length, atOld, 'nothing more to the old URL');
    const list = (await api.get(`/v1/webhooks/deliveries?endpointId=${endpoint.id}`)).body.data;
    await eventually('delivered', async () => (await api.get(`/v1/webhooks/deliveries/${list[0].id}`)).body.status === 'delivered');
  });

  await t.test('a disabled endpoint gets no sends; enabled again, its waiting delivery goes at once', async () => {
    let up = false;
    const later = await startReceiver(t, () => ({ status: up ? 200 : 503 }));
    assert.equal((await api.patch(`/v1/webhook-endpoints/${endpoint.id}`, { url: later.url })).status, 200);
    assert.equal((await api.post('/v1/channels/a/messages', { content: { n: 'held' } })).status, 201);
    await later.waitFor((r) => r.length >= 1, 'the first attempt');
    assert.equal((await api.patch(`/v1/webhook-endpoints/${endpoint.id}`, { disabled: true })).status, 200);
    const atDisable = later.received.length;
    up = true;
    const delivery = (await api.get(`/v1/webhooks/deliveries?endpointId=${endpoint.id}&status=pending`)).body.data[0];
    assert.ok(delivery, 'the delivery is pending, waiting for its retry');
    // its retry falls due 3 s after the first attempt, and twice more in the next 8 s: none is sent
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    assert.equal(later.received.length, atDisable, 'no send while disabled');
    const waiting = (await api.get(`/v1/webhooks/deliveries/${delivery.id}`)).body;
    assert.equal(waiting.status, 'pending');
    assert.equal(waiting.attempts, 1, 'waiting is not an attempt');
    const enabled = Date.now();
    assert.equal((await api.patch(`/v1/webhook-endpoints/${endpoint.id}`, { disabled: false })).status, 200);
    await eventually('the delivery after enabling', async () => later.received.some((x) => contentOf(x)?.n === 'held' && x.at >= enabled), 30_000);
    // within seconds, not after the minute a disabled delivery's deferral lasts
    assert.ok(later.received.at(-1)!.at - enabled < 20_000);
    await eventually('delivered', async () => (await api.get(`/v1/webhooks/deliveries/${delivery.id}`)).body.status === 'delivered');
  });

  await t.test("the default endpoint: a retry goes to the configuration's URL now; none while webhooks are off", async () => {
    const other = await cluster.createEnvironment();
    const control = client(gateway.controlUrl, other.secretKey);
    const first = await startReceiver(t, () => ({ status: 503 }));
    const second = await startReceiver(t);
    assert.equal((await control.put('/v1/config', { webhooks: { url: first.url } })).status, 200);
    assert.equal((await control.post('/v1/channels/d/messages', { content: { n: 'default' } })).status, 201);
    await first.waitFor((r) => r.length >= 1, 'the first attempt');
    // webhooks off: its retries fall due and nothing is sent anywhere
    assert.equal((await control.put('/v1/config', {})).status, 200);
    const atOff = first.received.length;
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    assert.equal(first.received.length, atOff, 'no send while the configuration has no URL');
    const [waiting] = (await control.get('/v1/webhooks/deliveries?endpointId=default')).body.data;
    assert.deepEqual([waiting.status, waiting.attempts], ['pending', 1]);
    // a new URL: the waiting delivery goes there at once
    const deployed = Date.now();
    assert.equal((await control.put('/v1/config', { webhooks: { url: second.url } })).status, 200);
    await eventually('sent to the new URL', async () => second.received.some((x) => contentOf(x)?.n === 'default'), 30_000);
    assert.ok(second.received.at(-1)!.at - deployed < 20_000);
    assert.equal(first.received.length, atOff, 'never again to the old URL');
  });
});
