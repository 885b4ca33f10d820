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
