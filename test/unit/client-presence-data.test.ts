import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RtmError } from '@rtm/client';
import { fakeClient, lastSocket } from '../helpers/client-fakes.ts';

async function subscribedLobby() {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  const socket = lastSocket();
  socket.accept();
  const lobby = client.channel('lobby');
  const sub = lobby.subscribe(() => {});
  const [subscribe] = socket.ops('subscribe');
  socket.push({ op: 'subscribed', ref: subscribe.ref, channelId: 'lobby', lastSeq: 0 });
  await sub.ready;
  return { client, clock, socket, lobby, sub };
}

test('client presence data - enter waits for the subscription, one request at a time; update and leave follow; answers resolve them', async () => {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  const socket = lastSocket();
  socket.accept();
  const lobby = client.channel('lobby');
  await assert.rejects(lobby.presence.enter({ a: 1 }), (error: RtmError) => error.code === 'invalid_request', 'not subscribed');
  await assert.rejects(lobby.presence.update({ a: 1 }), (error: RtmError) => error.code === 'invalid_request', 'not entered');

  lobby.subscribe(() => {});
  const entering = lobby.presence.enter({ mood: 'hi' });
  assert.equal(socket.ops('presence-enter').length, 0, 'nothing before `subscribed`');
  const [subscribe] = socket.ops('subscribe');
  socket.push({ op: 'subscribed', ref: subscribe.ref, channelId: 'lobby', lastSeq: 0 });
  const [enter] = socket.ops('presence-enter');
  assert.deepEqual(enter, { op: 'presence-enter', ref: enter.ref, channelId: 'lobby', data: { mood: 'hi' } });

  const updating = lobby.presence.update({ mood: 'busy' });
  assert.equal(socket.ops('presence-update').length, 0, 'waits for the enter to be answered');
  socket.push({ op: 'presence-entered', ref: enter.ref, channelId: 'lobby' });
  await entering;
  const [update] = socket.ops('presence-update');
  assert.deepEqual(update.data, { mood: 'busy' });
  socket.push({ op: 'presence-updated', ref: update.ref, channelId: 'lobby' });
  await updating;
  assert.equal(lobby.presence.entered, true);

  const leaving = lobby.presence.leave();
  const [leave] = socket.ops('presence-leave');
  socket.push({ op: 'presence-left', ref: leave.ref, channelId: 'lobby' });
  await leaving;
  assert.equal(lobby.presence.entered, false);
  await lobby.presence.leave();
  assert.equal(socket.ops('presence-leave').length, 1, 'a leave when not entered asks nothing');
  client.close();
});

test('client presence data - a refusal rejects and keeps what the server holds; data over 1 KiB is refused before sending', async () => {
  const { client, socket, lobby } = await subscribedLobby();
  await assert.rejects(lobby.presence.enter('x'.repeat(1100)), (error: RtmError) => error.code === 'payload_too_large');
  const entering = lobby.presence.enter({ v: 1 });
  const [enter] = socket.ops('presence-enter');
  socket.push({ op: 'error', ref: enter.ref, channelId: 'lobby', code: 'forbidden', reason: 'no presence capability' });
  await assert.rejects(entering, (error: RtmError) => error.code === 'forbidden');
  assert.equal(lobby.presence.entered, false);
  client.close();
});

test('client presence data - after a reconnect the entry is entered again with its latest data', async () => {
  const { client, clock, socket, lobby } = await subscribedLobby();
  const entering = lobby.presence.enter({ v: 1 });
  socket.push({ op: 'presence-entered', ref: socket.ops('presence-enter')[0].ref, channelId: 'lobby' });
  await entering;
  socket.drop(1006);
  const updating = lobby.presence.update({ v: 2 });
  await clock.advance(60_000);
  const next = lastSocket();
  assert.notEqual(next, socket);
  next.accept();
  const [subscribe] = next.ops('subscribe');
  next.push({ op: 'subscribed', ref: subscribe.ref, channelId: 'lobby', lastSeq: 0 });
  const [enter] = next.ops('presence-enter');
  assert.deepEqual(enter.data, { v: 2 }, 'the new subscription holds no entry: enter, with the latest data');
  next.push({ op: 'presence-entered', ref: enter.ref, channelId: 'lobby' });
  await updating;
  client.close();
});

test('client presence data - frames fire enter, update and exit with data, and the batch carries them', async () => {
  const { client, socket, lobby } = await subscribedLobby();
  const events: unknown[] = [];
  lobby.presence.on('join', (userId) => events.push(['join', userId]));
  lobby.presence.on('enter', (userId, data) => events.push(['enter', userId, data]));
  lobby.presence.on('update', (userId, data) => events.push(['update', userId, data]));
  lobby.presence.on('exit', (userId) => events.push(['exit', userId]));
  lobby.presence.on('change', (batch) => events.push(['change', batch]));
  socket.push({
    op: 'presence',
    channelId: 'lobby',
    joined: ['ann'],
    left: [],
    entered: [{ userId: 'ann', data: { v: 1 } }, { userId: 'bob', data: null }, { bogus: 1 }],
    updated: [{ userId: 'cy', data: [2] }],
    exited: ['dee'],
  });
  socket.push({ op: 'presence', channelId: 'lobby', joined: [], left: [], exited: ['ann'] });
  assert.deepEqual(events, [
    ['join', 'ann'],
    ['enter', 'ann', { v: 1 }],
    ['enter', 'bob', null],
    ['update', 'cy', [2]],
    ['exit', 'dee'],
    [
      'change',
      {
        channelId: 'lobby',
        joined: ['ann'],
        left: [],
        entered: [
          { userId: 'ann', data: { v: 1 } },
          { userId: 'bob', data: null },
        ],
        updated: [{ userId: 'cy', data: [2] }],
        exited: ['dee'],
      },
    ],
    ['exit', 'ann'],
    ['change', { channelId: 'lobby', joined: [], left: [], exited: ['ann'] }],
  ]);
  client.close();
});

test('client presence data - the last listener unsubscribing leaves: a pending enter rejects, the next subscription enters nothing', async () => {
  const { client, socket, lobby, sub } = await subscribedLobby();
  const entering = lobby.presence.enter({ v: 1 });
  void sub.unsubscribe();
  await assert.rejects(entering, (error: RtmError) => error.code === 'unsubscribed');
  assert.equal(lobby.presence.entered, false);
  const [unsubscribe] = socket.ops('unsubscribe');
  socket.push({ op: 'unsubscribed', ref: unsubscribe.ref, channelId: 'lobby' });
  lobby.subscribe(() => {});
  const subscribes = socket.ops('subscribe');
  socket.push({ op: 'subscribed', ref: subscribes.at(-1).ref, channelId: 'lobby', lastSeq: 0 });
  assert.equal(socket.ops('presence-enter').length, 1, 'only the first enter was ever sent');
  client.close();
});
