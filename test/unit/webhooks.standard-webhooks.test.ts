/**
 * The Standard Webhooks side of signing (libs/webhooks/src/standard-webhooks.ts), held to the
 * `standardwebhooks` library receivers use, and the channel patterns an endpoint filters with.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret, standardHeaders, verifyStandardWebhook } from '@rtm/webhooks';
import { ChannelPattern, CreateWebhookEndpointBody, UpdateWebhookEndpointBody, WEBHOOK_EVENT_TYPES, webhookEventCatalogue } from '@rtm/schemas';

const body = '{"id":"msg_1","type":"message.published","data":{"content":{"text":"héllo"}}}';
const now = () => Math.floor(Date.now() / 1000);

test('standard webhooks: the library verifies what we sign, with each secret of a rotation', () => {
  const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
  assert.match(current, /^whsec_[A-Za-z0-9+/]{44}$/);
  const headers = standardHeaders([current, previous], 'msg_1', now(), body);
  assert.equal(headers['webhook-id'], 'msg_1');
  assert.equal(headers['webhook-signature']!.split(' ').length, 2);
  for (const secret of [current, previous]) {
    assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
    assert.deepEqual(
      verifyStandardWebhook(body, { id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], signature: headers['webhook-signature'] }, secret).ok,
      true,
    );
  }
  assert.throws(() => new Webhook(generateWebhookSecret()).verify(body, headers), 'a third secret');
});

test('standard webhooks: our verifier accepts what the library signs and refuses changes', () => {
  const secret = generateWebhookSecret();
  const at = new Date();
  const signature = new Webhook(secret).sign('evt_9', at, body);
  const parts = { id: 'evt_9', timestamp: String(Math.floor(at.getTime() / 1000)), signature };
  assert.equal(verifyStandardWebhook(body, parts, secret).ok, true);
  assert.equal(verifyStandardWebhook(`${body} `, parts, secret).ok, false, 'other bytes');
  assert.equal(verifyStandardWebhook(body, { ...parts, id: 'evt_8' }, secret).ok, false, 'another id');
  assert.equal(verifyStandardWebhook(body, { ...parts, signature: signature.replace('v1,', 'v2,') }, secret).ok, false, 'another version');
  assert.equal(verifyStandardWebhook(body, { ...parts, timestamp: String(Number(parts.timestamp) - 301) }, secret).ok, false, 'too old');
  assert.equal(verifyStandardWebhook(body, { ...parts, signature: undefined }, secret).ok, false, 'missing');
  assert.equal(verifyStandardWebhook(body, parts, generateWebhookSecret()).ok, false, 'another secret');
});

test('standard webhooks: a secret made before (base64url) still signs, and our verifier checks it', () => {
  const legacy = 'whsec_' + Buffer.alloc(32, 0xfb).toString('base64url');
  assert.match(legacy, /[-_]/);
  const headers = standardHeaders([legacy], 'evt_1', now(), body);
  const parts = { id: headers['webhook-id'], timestamp: headers['webhook-timestamp'], signature: headers['webhook-signature'] };
  assert.equal(verifyStandardWebhook(body, parts, legacy).ok, true);
});

test('endpoint filters: channel patterns are an id, a prefix with *, or *; types come from the catalogue', () => {
  for (const ok of ['room-1', 'orders-*', '*', 'a:b@c=d.e_f-*']) assert.equal(ChannelPattern.safeParse(ok).success, true, ok);
  for (const bad of ['', 'a*b', '**', 'room 1', '*x', 'x'.repeat(130)]) assert.equal(ChannelPattern.safeParse(bad).success, false, bad);
  const names = webhookEventCatalogue().map((entry) => entry.name);
  assert.equal(CreateWebhookEndpointBody.safeParse({ url: 'https://x.example', eventTypes: names }).success, true);
  assert.equal(CreateWebhookEndpointBody.safeParse({ url: 'https://x.example', eventTypes: ['message.sent'] }).success, false);
  assert.equal(
    CreateWebhookEndpointBody.safeParse({ url: 'https://x.example', eventTypes: [] }).success,
    false,
    'an empty list filters out everything: null means every type',
  );
  assert.equal(UpdateWebhookEndpointBody.safeParse({}).success, false, 'a change names something');
  assert.equal(UpdateWebhookEndpointBody.safeParse({ channels: null }).success, true, 'null clears');
  for (const entry of webhookEventCatalogue()) assert.equal(typeof entry.schema, 'object', entry.name);
  for (const [name, entry] of Object.entries(WEBHOOK_EVENT_TYPES)) {
    assert.equal(entry.data.safeParse(entry.example).success, true, `the example of ${name} is an instance of its schema`);
  }
});
