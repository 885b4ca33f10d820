/**
 * The membership, ban, channel-deletion and erasure webhook events through the real processes:
 * each control-plane change (and a moderator's on the realtime edge) reaches an endpoint that
 * takes the type with the catalogue's `data`, signed with that endpoint's secret; a change that
 * changes nothing sends nothing; the type and channel filters apply (an event without a channel
 * passes the channel filter); the default endpoint gets none of them.
 *
 * The events are written in the change's transaction, so the ledger already holds every delivery
 * a change made when its request has been answered (a deletion: when it answers 200; an erasure:
 * when it reads `done`): "nothing sent" is read from the ledger, without waiting for anything.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { verifyStandardWebhook } from '@rtm/webhooks';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@rtm/schemas';
import { startCluster } from './helpers/cluster.ts';
import { client, mintToken } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';
import { startReceiver, type ReceivedWebhook } from './helpers/webhook-receiver.ts';

const TYPES: WebhookEventType[] = ['member.added', 'member.removed', 'member.banned', 'member.unbanned', 'channel.deleted', 'user.messages_erased'];

interface Seen {
  type: string;
  channelId: string | null;
  data: unknown;
}

/** The event's type, channel and data, after checking its signature with `secret` and its data against the catalogue. */
function verified(received: ReceivedWebhook, secret: string, environmentId: string): Seen {
  const result = verifyStandardWebhook(
    received.raw,
    { id: received.headers['webhook-id'], timestamp: received.headers['webhook-timestamp'], signature: received.headers['webhook-signature'] },
    secret,
  );
  assert.equal(result.ok, true, `signature of ${received.raw.toString('utf8')}: ${JSON.stringify(result)}`);
  const body = JSON.parse(received.raw.toString('utf8'));
  assert.equal(body.environmentId, environmentId);
  assert.equal(received.headers['webhook-id'], body.id);
  const schema = WEBHOOK_EVENT_TYPES[body.type as WebhookEventType].data;
  assert.deepEqual(schema.parse(body.data), body.data, `${body.type}: data as the catalogue says, nothing more`);
  return { type: body.type, channelId: body.channelId ?? null, data: body.data };
}

const key = (seen: Seen) => JSON.stringify([seen.type, seen.channelId, seen.data]);
const sorted = (list: Seen[]) => list.map(key).sort();

test('webhook event types - members, bans, channel deletion and erasure, each from its change', { timeout: 240_000 }, async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1, dispatchers: 1 });
  const gateway = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  const api = client(gateway.controlUrl, env.secretKey);
  const [all, room, messagesOnly, fallback] = [await startReceiver(t), await startReceiver(t), await startReceiver(t), await startReceiver(t)];
  assert.equal((await api.put('/v1/config', { webhooks: { url: fallback.url } })).status, 200);
  const endpoint = async (body: object) => {
    const created = await api.post('/v1/webhook-endpoints', body);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body as { id: string; secret: string };
  };
  const allEp = await endpoint({ url: all.url, eventTypes: TYPES });
  const roomEp = await endpoint({ url: room.url, eventTypes: TYPES, channels: ['room-a'] });
  const messagesEp = await endpoint({ url: messagesOnly.url, eventTypes: ['message.published'] });
  /** The event types in an endpoint's ledger (`default`: the configuration's URL). */
  const ledger = async (endpointId: string) => {
    const res = await api.get(`/v1/webhooks/deliveries?endpointId=${endpointId}&limit=500`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return (res.body.data as { eventType: string }[]).map((d) => d.eventType);
  };
  const expected: Seen[] = [];
  /** A change, and the event it must add to the `all` endpoint's ledger (none: `undefined`). */
  const change = async (what: string, act: () => Promise<unknown>, event?: Seen) => {
    const before = (await ledger(allEp.id)).length;
    await act();
    if (event) expected.push(event);
    assert.equal((await ledger(allEp.id)).length, before + (event ? 1 : 0), `${what}: ${event ? 'one event' : 'no event'} in the ledger`);
  };
  const expectStatus = (status: number, what: string) => async (res: Promise<{ status: number; body: unknown }>) => {
    const answered = await res;
    assert.equal(answered.status, status, `${what}: ${JSON.stringify(answered.body)}`);
  };

  // membership: added, a no-op PUT, a new role, another channel, removed, removed again
  await change('add alice', () => expectStatus(200, 'put')(api.put('/v1/channels/room-a/members/alice', {})), {
    type: 'member.added',
    channelId: 'room-a',
    data: { channelId: 'room-a', userId: 'alice', role: 'member' },
  });
  await change('the same role again', () => expectStatus(200, 'put')(api.put('/v1/channels/room-a/members/alice', { role: 'member' })));
  await change('alice a moderator', () => expectStatus(200, 'put')(api.put('/v1/channels/room-a/members/alice', { role: 'moderator' })), {
    type: 'member.added',
    channelId: 'room-a',
    data: { channelId: 'room-a', userId: 'alice', role: 'moderator' },
  });
  await change('bob on room-b', () => expectStatus(200, 'put')(api.put('/v1/channels/room-b/members/bob', {})), {
    type: 'member.added',
    channelId: 'room-b',
    data: { channelId: 'room-b', userId: 'bob', role: 'member' },
  });
  await change('carol a moderator of room-b', () => expectStatus(200, 'put')(api.put('/v1/channels/room-b/members/carol', { role: 'moderator' })), {
    type: 'member.added',
    channelId: 'room-b',
    data: { channelId: 'room-b', userId: 'carol', role: 'moderator' },
  });
  // a moderator's removal on the realtime edge goes through the same store
  const carol = client(gateway.realtimeUrl, await mintToken(gateway.controlUrl, env.secretKey, 'carol'));
  await change('carol removes bob', () => expectStatus(204, 'moderator removal')(carol.delete('/v1/channels/room-b/members/bob')), {
    type: 'member.removed',
    channelId: 'room-b',
    data: { channelId: 'room-b', userId: 'bob', role: 'member' },
  });
  await change('remove alice', () => expectStatus(204, 'delete')(api.delete('/v1/channels/room-a/members/alice')), {
    type: 'member.removed',
    channelId: 'room-a',
    data: { channelId: 'room-a', userId: 'alice', role: 'moderator' },
  });
  await change('remove alice again', () => expectStatus(204, 'delete')(api.delete('/v1/channels/room-a/members/alice')));

  // bans: a channel's, the same ban again, an environment-wide one, both lifted, lifted again
  const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
  await change('ban mallory from room-a', () => expectStatus(200, 'ban')(api.put('/v1/channels/room-a/bans/mallory', { reason: 'spam', expiresAt })), {
    type: 'member.banned',
    channelId: 'room-a',
    data: { userId: 'mallory', channelId: 'room-a', reason: 'spam', expiresAt },
  });
  await change('the same ban again', () => expectStatus(200, 'ban')(api.put('/v1/channels/room-a/bans/mallory', { reason: 'spam', expiresAt })));
  await change('ban mallory everywhere', () => expectStatus(200, 'ban')(api.put('/v1/bans/mallory', {})), {
    type: 'member.banned',
    channelId: null,
    data: { userId: 'mallory', channelId: null, reason: null, expiresAt: null },
  });
  await change('carol bans eve from room-b', () => expectStatus(200, 'moderator ban')(carol.put('/v1/channels/room-b/bans/eve', { reason: 'noise' })), {
    type: 'member.banned',
    channelId: 'room-b',
    data: { userId: 'eve', channelId: 'room-b', reason: 'noise', expiresAt: null },
  });
  await change('unban mallory from room-a', () => expectStatus(204, 'unban')(api.delete('/v1/channels/room-a/bans/mallory')), {
    type: 'member.unbanned',
    channelId: 'room-a',
    data: { userId: 'mallory', channelId: 'room-a', reason: 'spam', expiresAt },
  });
  await change('unban mallory everywhere', () => expectStatus(204, 'unban')(api.delete('/v1/bans/mallory')), {
    type: 'member.unbanned',
    channelId: null,
    data: { userId: 'mallory', channelId: null, reason: null, expiresAt: null },
  });
  await change('unban mallory again', () => expectStatus(204, 'unban')(api.delete('/v1/bans/mallory')));

  // channel deletion: three messages, a member and a ban go; one event with the count
  for (let i = 0; i < 3; i++) assert.equal((await api.post('/v1/channels/room-a/messages', { content: { i } })).status, 201);
  await change('dave on room-a', () => expectStatus(200, 'put')(api.put('/v1/channels/room-a/members/dave', {})), {
    type: 'member.added',
    channelId: 'room-a',
    data: { channelId: 'room-a', userId: 'dave', role: 'member' },
  });
  await change(
    'delete room-a',
    async () => {
      const deleted = await api.delete('/v1/channels/room-a');
      assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
      assert.equal(deleted.body.deleted.messages, 3);
    },
    { type: 'channel.deleted', channelId: 'room-a', data: { channelId: 'room-a', messages: 3 } },
  );

  // a user's erasure: two messages of zoe retracted, one event without a channel
  const zoe = client(gateway.realtimeUrl, await mintToken(gateway.controlUrl, env.secretKey, 'zoe'));
  for (const channel of ['room-c', 'room-d']) assert.equal((await zoe.post(`/v1/channels/${channel}/messages`, { content: { channel } })).status, 201);
  let erasureId = '';
  await change(
    'erase zoe',
    async () => {
      const started = await api.delete('/v1/users/zoe/messages');
      assert.equal(started.status, 202, JSON.stringify(started.body));
      erasureId = started.body.id;
      await eventually('the erasure is done', async () => (await api.get(`/v1/erasures/${erasureId}`)).body.status === 'done', 60_000);
    },
    { type: 'user.messages_erased', channelId: null, data: { userId: 'zoe', erasureId: '', retracted: 2 } },
  );
  expected.at(-1)!.data = { userId: 'zoe', erasureId, retracted: 2 };

  // the endpoint of every type got each event once, as sent, signed with its secret
  await all.waitFor((r) => r.length >= expected.length, 'every event at the endpoint of every type');
  assert.deepEqual(sorted(all.received.map((r) => verified(r, allEp.secret, env.environmentId))), sorted(expected));
  // the room-a endpoint: room-a's events and those without a channel
  const roomExpected = expected.filter((e) => e.channelId === 'room-a' || e.channelId === null);
  await room.waitFor((r) => r.length >= roomExpected.length, "room-a's events and those without a channel");
  assert.deepEqual(sorted(room.received.map((r) => verified(r, roomEp.secret, env.environmentId))), sorted(roomExpected));
  assert.ok(
    roomExpected.some((e) => e.type === 'user.messages_erased'),
    'the erasure passes the channel filter',
  );
  assert.equal((await ledger(roomEp.id)).length, roomExpected.length, 'nothing of room-b in its ledger');

  // the endpoint of message.published and the default endpoint: messages only
  assert.deepEqual([...new Set(await ledger(messagesEp.id))], ['message.published']);
  assert.deepEqual([...new Set(await ledger('default'))].sort(), ['message.published', 'message.retracted']);
  await messagesOnly.waitFor((r) => r.length >= 5, 'the five messages published');
  await fallback.waitFor((r) => r.length >= 7, "the five messages published and zoe's two retracted");
  for (const received of [...messagesOnly.received, ...fallback.received]) {
    assert.match(JSON.parse(received.raw.toString('utf8')).type, /^message\./);
  }
});
