import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeClient, lastSocket } from '../helpers/client-fakes.ts';

test('client presence - a coalesced frame fires join/leave and presence per user, then one change; the single-change form of older servers too', async () => {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  const socket = lastSocket();
  socket.accept();
  const lobby = client.channel('lobby');
  const events: unknown[] = [];
  lobby.presence.on('join', (userId) => events.push(['join', userId]));
  lobby.presence.on('leave', (userId) => events.push(['leave', userId]));
  lobby.presence.on('change', (batch) => events.push(['change', batch]));
  lobby.on('presence', (change) => events.push(['presence', change.userId, change.online]));

  // not subscribed yet: ignored
  socket.push({ op: 'presence', channelId: 'lobby', joined: ['early'], left: [] });
  const sub = lobby.subscribe(() => {});
  const [subscribe] = socket.ops('subscribe');
  socket.push({ op: 'subscribed', ref: subscribe.ref, channelId: 'lobby', lastSeq: 0 });
  await sub.ready;

  socket.push({ op: 'presence', channelId: 'lobby', joined: ['ann', 'ben'], left: ['cy'] });
  socket.push({ op: 'presence', channelId: 'lobby', joined: [], left: [] });
  socket.push({ op: 'presence', channelId: 'lobby', joined: ['dee', 7], left: 'nope' });
  socket.push({ op: 'presence', channelId: 'lobby', userId: 'ann', online: false });
  socket.push({ op: 'presence', channelId: 'other', joined: ['zed'], left: [] });
  assert.deepEqual(events, [
    ['presence', 'ann', true],
    ['join', 'ann'],
    ['presence', 'ben', true],
    ['join', 'ben'],
    ['presence', 'cy', false],
    ['leave', 'cy'],
    ['change', { channelId: 'lobby', joined: ['ann', 'ben'], left: ['cy'] }],
    ['presence', 'dee', true],
    ['join', 'dee'],
    ['change', { channelId: 'lobby', joined: ['dee'], left: [] }],
    ['presence', 'ann', false],
    ['leave', 'ann'],
    ['change', { channelId: 'lobby', joined: [], left: ['ann'] }],
  ]);
  client.close();
});

test('client occupancy - the first listener asks for it (re-subscribing from the position), frames update channel.occupancy', async () => {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  const socket = lastSocket();
  socket.accept();
  const room = client.channel('room');
  room.subscribe(() => {});
  const [first] = socket.ops('subscribe');
  assert.equal(first.occupancy, undefined, 'not asked without a listener');
  socket.push({ op: 'subscribed', ref: first.ref, channelId: 'room', lastSeq: 4 });
  socket.push({ channelId: 'room', id: 'm5', seq: 5, content: {}, ephemeral: false });
  const seen: unknown[] = [];
  room.on('occupancy', (occupancy) => seen.push(occupancy));
  const [unsubscribe] = socket.ops('unsubscribe');
  assert.ok(unsubscribe, 'the live subscription is asked again');
  socket.push({ op: 'unsubscribed', ref: unsubscribe.ref, channelId: 'room' });
  const [, second] = socket.ops('subscribe');
  assert.deepEqual({ since: second.since, occupancy: second.occupancy }, { since: 5, occupancy: true }, 'from the position, with the counts');
  socket.push({ op: 'occupancy', channelId: 'room', connections: 3, users: 2 }); // subscribing: accepted
  socket.push({ op: 'subscribed', ref: second.ref, channelId: 'room', lastSeq: 5 });
  socket.push({ op: 'occupancy', channelId: 'room', connections: 4, users: 3 });
  socket.push({ op: 'occupancy', channelId: 'room', connections: 'x', users: 3 }); // malformed: ignored
  assert.deepEqual(seen, [
    { channelId: 'room', connections: 3, users: 2 },
    { channelId: 'room', connections: 4, users: 3 },
  ]);
  assert.deepEqual(room.occupancy, { channelId: 'room', connections: 4, users: 3 });
  room.on('occupancy', () => {});
  assert.equal(socket.ops('unsubscribe').length, 1, 'a second listener changes nothing on the wire');
  client.close();
});

test('client subscribe - refused rate_limited with retryAfter (a subscribe storm): tried again after it, not ended', async () => {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  const socket = lastSocket();
  socket.accept();
  const room = client.channel('room');
  const errors: string[] = [];
  room.on('error', (error) => errors.push(error.code));
  const sub = room.subscribe(() => {});
  const [first] = socket.ops('subscribe');
  socket.push({ op: 'error', ref: first.ref, channelId: 'room', code: 'rate_limited', reason: 'queue full', retryAfter: 2 });
  await clock.advance(1_900);
  assert.equal(socket.ops('subscribe').length, 1, 'not before retryAfter');
  await clock.advance(2_000);
  const [, second] = socket.ops('subscribe');
  assert.ok(second, 'subscribed again');
  socket.push({ op: 'subscribed', ref: second.ref, channelId: 'room', lastSeq: 0 });
  assert.deepEqual(await sub.ready, { lastSeq: 0 });
  assert.deepEqual(errors, ['rate_limited']);
  // without retryAfter (the subscriptions-per-connection cap) it ends: retrying would not help
  const other = client.channel('other');
  const refused = other.subscribe(() => {});
  const [otherSubscribe] = socket.ops('subscribe').filter((f) => f.channelId === 'other');
  socket.push({ op: 'error', ref: otherSubscribe.ref, channelId: 'other', code: 'rate_limited', reason: 'at most 1 subscriptions per connection' });
  await assert.rejects(refused.ready, (error: { code: string }) => error.code === 'rate_limited');
  client.close();
});
