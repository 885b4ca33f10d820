import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { generateWebhookSecret, signatureHeader } from '@rtm/webhooks';
import { buildReceiver, type WebhookEvent } from '../examples/webhook-receiver/receiver.ts';
import { startCluster } from './helpers/cluster.ts';
import { client } from './helpers/http.ts';
import { enqueue, eventually, publishedEvent } from './helpers/webhook-receiver.ts';

const now = () => Math.floor(Date.now() / 1000);

test('example receiver - verifies the raw body, answers 401 on failure, processes each event id once', async () => {
  const secret = generateWebhookSecret();
  const processed: WebhookEvent[] = [];
  const app = buildReceiver({ secret, onEvent: (event) => void processed.push(event) });
  const body = '{"id":"msg_1","type":"message.published","timestamp":1,"environmentId":"env_1","channelId":"c","data":{"a":1}}';
  const send = (payload: string, signature?: string) =>
    app.inject({
      method: 'POST',
      url: '/webhooks',
      payload,
      headers: { 'content-type': 'application/json', ...(signature !== undefined && { 'service-signature': signature }) },
    });

  const first = await send(body, signatureHeader([secret], now(), body));
  assert.equal(first.statusCode, 200);
  assert.deepEqual(first.json(), { received: true, duplicate: false });
  const again = await send(body, signatureHeader([secret], now(), body));
  assert.equal(again.statusCode, 200);
  assert.deepEqual(again.json(), { received: true, duplicate: true });
  assert.equal(processed.length, 1);

  assert.equal((await send(body)).statusCode, 401);
  assert.equal((await send(body, signatureHeader([generateWebhookSecret()], now(), body))).statusCode, 401);
  assert.equal((await send(body, signatureHeader([secret], now() - 3600, body))).statusCode, 401);
  const other = body.replace('msg_1', 'msg_2');
  assert.equal((await send(other, signatureHeader([secret], now(), body))).statusCode, 401, 'signature of other bytes');
  const spaced = JSON.stringify(JSON.parse(other), null, 1);
  assert.equal((await send(spaced, signatureHeader([secret], now(), other))).statusCode, 401, 're-serialised body');
  assert.equal(processed.length, 1, 'nothing unverified was processed');
  await app.close();
});

test('example receiver - receives real deliveries from a dispatcher', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, dispatchers: 1 });
  const env = await cluster.createEnvironment();
  const api = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  // deploy first (it creates the secret), then point the receiver at that secret
  await api.put('/v1/config', { webhooks: { url: 'http://127.0.0.1:9/placeholder' } });
  const secret = (await api.get('/v1/webhooks/secret')).body.secret;
  const processed: WebhookEvent[] = [];
  const app = buildReceiver({ secret, onEvent: (event) => void processed.push(event) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.after(() => app.close());
  const port = (app.server.address() as AddressInfo).port;
  assert.equal((await api.put('/v1/config', { webhooks: { url: `http://localhost:${port}/webhooks` } })).status, 200);

  const events = [publishedEvent(env.environmentId, 'a'), publishedEvent(env.environmentId, 'b')];
  await enqueue(cluster.db.pool, events);
  await eventually(async () => processed.length === 2);
  assert.deepEqual(processed.map((e) => e.id).sort(), events.map((e) => e.eventId).sort());
  const delivered = await eventually(async () => {
    const res = await api.get('/v1/webhooks/deliveries?status=delivered');
    return res.body.data.length === 2 ? res.body.data : undefined;
  });
  assert.ok(delivered.every((row: any) => row.url === `http://localhost:${port}/webhooks` && row.attempts === 1));
});
