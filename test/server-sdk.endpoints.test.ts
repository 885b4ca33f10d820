/**
 * @rtm/server's webhook endpoint methods against a real cluster, and verifyWebhook / parseWebhook
 * with either signature scheme on real deliveries.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServerClient, parseWebhook, ServerError, verifyWebhook, WebhookVerificationError } from '@rtm/server';
import { startCluster } from './helpers/cluster.ts';
import { eventually } from './helpers/eventually.ts';
import { startReceiver, type ReceivedWebhook } from './helpers/webhook-receiver.ts';

/** The request's headers without the one named: what a receiver behind a proxy that drops it would see. */
const without = (received: ReceivedWebhook, name: string) =>
  Object.fromEntries(Object.entries(received.headers).filter(([key]) => key !== name)) as Record<string, string>;

test('server SDK - webhook endpoints, test events, recovery, and both signature schemes', async (t) => {
  const cluster = await startCluster(t, {
    gateways: 1,
    channelNodes: 1,
    dispatchers: 1,
    env: { WEBHOOK_RETRY_SCHEDULE: '200ms', WEBHOOK_TIMEOUT_MS: '5000' },
  });
  const env = await cluster.createEnvironment();
  const server = createServerClient({ url: cluster.gateways[0]!.controlUrl, secretKey: env.secretKey });
  let healthy = true;
  const receiver = await startReceiver(t, () => ({ status: healthy ? 200 : 500 }));

  const created = await server.createWebhookEndpoint({ url: receiver.url, channels: ['orders-*'], description: 'orders' });
  assert.match(created.id, /^ep_/);
  assert.equal(await server.webhookEndpointSecret(created.id), created.secret);
  const second = await server.createWebhookEndpoint({ url: 'https://example.com/hooks', disabled: true });
  const listed = [];
  for await (const endpoint of server.allWebhookEndpoints()) listed.push(endpoint.id);
  assert.deepEqual(listed, [created.id, second.id]);
  assert.equal((await server.webhookEndpoints({ limit: 1 })).data.length, 1);
  assert.equal((await server.webhookEndpoint(created.id)).description, 'orders');
  const types = await server.webhookEventTypes();
  assert.ok(types.data.some((type) => type.name === 'member.banned'));

  // a real delivery verifies with either scheme, through the headers object
  await server.publish('orders-1', { content: { total: 3 } });
  await receiver.waitFor((r) => r.length >= 1, 'the message');
  const [delivery] = receiver.received;
  assert.equal(verifyWebhook(delivery!.raw, delivery!.headers, created.secret).ok, true, 'service-signature from the headers');
  const standardOnly = without(delivery!, 'service-signature');
  assert.equal(verifyWebhook(delivery!.raw, standardOnly, created.secret).ok, true, 'the Standard Webhooks headers alone');
  assert.equal(verifyWebhook(delivery!.raw, new Headers(standardOnly), created.secret).ok, true, 'a fetch Headers');
  assert.equal(verifyWebhook(delivery!.raw, delivery!.headers['service-signature'] as string, created.secret).ok, true, 'the header value, as before');
  assert.equal(verifyWebhook(Buffer.from(delivery!.raw.toString().replace('3', '4')), standardOnly, created.secret).ok, false, 'other bytes');
  assert.equal(verifyWebhook(delivery!.raw, standardOnly, second.secret!).ok, false, "another endpoint's secret");
  assert.equal(verifyWebhook(delivery!.raw, {}, created.secret).ok, false, 'no signature at all');
  const event = parseWebhook(delivery!.raw, standardOnly, created.secret);
  assert.deepEqual([event.type, event.channelId], ['message.published', 'orders-1']);
  assert.throws(() => parseWebhook(delivery!.raw, without(delivery!, 'webhook-signature'), 'whsec_AAAA'), WebhookVerificationError);

  const test = await server.testWebhookEndpoint(created.id);
  assert.equal(test.eventType, 'webhook.test');
  await receiver.waitFor((r) => r.length >= 2, 'the test event');
  assert.equal((await server.delivery(test.deliveryId)).endpointId, created.id);

  // a drop, then its recovery
  healthy = false;
  const since = new Date(Date.now() - 1000);
  await server.publish('orders-2', { content: { total: 4 } });
  await eventually(async () => ((await server.deliveries({ endpointId: created.id, status: 'dropped' })).data.length === 1 ? true : undefined));
  healthy = true;
  const { taskId } = await server.recoverWebhookEndpoint(created.id, { since });
  const task = await eventually(async () => {
    const current = await server.webhookTask(taskId);
    return current.status === 'completed' ? current : undefined;
  });
  assert.equal(task.recovered, 1);
  await eventually(async () => ((await server.deliveries({ endpointId: created.id, status: 'delivered' })).data.length === 3 ? true : undefined));

  const rotated = await server.rotateWebhookEndpointSecret(created.id);
  assert.notEqual(rotated, created.secret);
  const updated = await server.updateWebhookEndpoint(created.id, { disabled: true });
  assert.deepEqual([updated.disabled, updated.disabledReason], [true, 'manual']);
  await server.deleteWebhookEndpoint(created.id);
  const gone = await server.webhookEndpoint(created.id).catch((error: unknown) => error);
  assert.ok(gone instanceof ServerError && gone.status === 404 && gone.code === 'not_found');
});
