import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RtmError, WebSocketConstructor } from '@rtm/client';
import { fakeClient, lastSocket, settle } from '../helpers/client-fakes.ts';
import { FakeFetch, ThrowingSocket } from '../helpers/sse-fakes.ts';

const code = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: RtmError) => error.code,
  );

test('client change requests - edit, react and unreact go as socket frames and resolve with their ack', async () => {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  const socket = lastSocket();
  socket.accept();
  const room = client.channel('room');
  const edited = room.edit('msg_1', { text: 'better' });
  const reacted = room.react('msg_1', '👍');
  const unreacted = room.unreact('msg_1', '👍');
  const retracted = room.retract('msg_2');
  const [edit] = socket.ops('edit');
  const [react] = socket.ops('react');
  const [unreact] = socket.ops('unreact');
  const [retract] = socket.ops('retract');
  assert.deepEqual(edit, { op: 'edit', channelId: 'room', id: 'msg_1', content: { text: 'better' }, ref: edit.ref });
  assert.deepEqual(react, { op: 'react', channelId: 'room', id: 'msg_1', type: '👍', ref: react.ref });
  assert.deepEqual(unreact, { op: 'unreact', channelId: 'room', id: 'msg_1', type: '👍', ref: unreact.ref });
  socket.push({ op: 'ack', ref: edit.ref, channelId: 'room', id: 'msg_1', seq: 1, version: 2, updatedAt: 77, eventSeq: 9 });
  socket.push({ op: 'ack', ref: react.ref, channelId: 'room', id: 'msg_1', seq: 1, type: '👍', reacted: true });
  socket.push({ op: 'ack', ref: unreact.ref, channelId: 'room', id: 'msg_1', seq: 1, type: '👍', reacted: false });
  socket.push({ op: 'ack', ref: retract.ref, channelId: 'room', id: 'msg_2', seq: 2, retracted: true, eventSeq: 12 });
  assert.deepEqual(await edited, { id: 'msg_1', seq: 1, version: 2, updatedAt: 77, eventSeq: 9 });
  assert.deepEqual(await reacted, { id: 'msg_1', seq: 1, type: '👍', reacted: true });
  assert.deepEqual(await unreacted, { id: 'msg_1', seq: 1, type: '👍', reacted: false });
  assert.deepEqual(await retracted, { id: 'msg_2', seq: 2, eventSeq: 12 });
  client.close();
});

test('client change requests - bad arguments are refused at once with invalid_request, nothing is sent', async () => {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  const socket = lastSocket();
  socket.accept();
  const room = client.channel('room');
  const refused = [
    room.edit('msg_1', null as never),
    room.edit('msg_1', [] as never),
    room.edit('not a message id', { text: 'x' }),
    room.react('msg_1', ''),
    room.react('msg_1', 'thumbs up'),
    room.react('msg_1', 'x'.repeat(33)),
    room.unreact(42 as never, 'ok'),
    room.retract('msg/1'),
  ];
  for (const promise of refused) assert.equal(await code(promise), 'invalid_request');
  assert.deepEqual(
    socket.sent.filter((frame) => frame.op !== 'ping'),
    [],
  );
  client.close();
});

test('client change requests - an edit whose outcome is unknown is rejected, never sent twice; a reaction is sent again', async () => {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  const first = lastSocket();
  first.accept();
  const room = client.channel('room');
  const edited = code(room.edit('msg_1', { text: 'v2' }));
  const reacted = room.react('msg_1', 'ok');
  const queuedEdit = room.edit('msg_1', { text: 'v3' });
  assert.equal(first.ops('edit').length, 2);
  // the first edit is answered `unavailable` (the owner did not answer): its outcome is unknown
  first.push({ op: 'error', ref: first.ops('edit')[0].ref, channelId: 'room', code: 'unavailable', reason: 'owner timed out' });
  assert.equal(await edited, 'unavailable');
  first.drop(1006);
  assert.equal(await code(queuedEdit), 'unavailable', 'sent before the connection was lost: rejected');
  await clock.advance(clock.nextIn()!);
  const second = lastSocket();
  second.accept();
  await settle();
  assert.deepEqual(second.ops('edit'), [], 'no edit is repeated');
  const [react] = second.ops('react');
  assert.equal(react.type, 'ok', 'a reaction is idempotent: sent again');
  second.push({ op: 'ack', ref: react.ref, channelId: 'room', id: 'msg_1', seq: 1, type: 'ok', reacted: true });
  assert.equal((await reacted).reacted, true);
  // a rate limit refused it before anything happened: an edit waits and goes again
  const limited = room.edit('msg_1', { text: 'v4' });
  second.push({ op: 'error', ref: second.ops('edit')[0].ref, channelId: 'room', code: 'rate_limited', retryAfter: 1 });
  await clock.advance(1_000);
  const again = second.ops('edit')[1];
  assert.deepEqual(again.content, { text: 'v4' });
  second.push({ op: 'ack', ref: again.ref, channelId: 'room', id: 'msg_1', seq: 1, version: 3, updatedAt: 1, eventSeq: 5 });
  assert.equal((await limited).version, 3);
  client.close();
});

test('client change requests - on Server-Sent Events they are the HTTP routes, answered as the socket would', async () => {
  const fake = new FakeFetch();
  const { client, clock } = fakeClient({ WebSocket: ThrowingSocket as unknown as WebSocketConstructor, fetch: fake.fetch, transports: ['websocket', 'sse'] });
  await clock.advance(0);
  const room = client.channel('a:room');
  const edited = room.edit('msg_1', { text: 'better' });
  await settle();
  const patch = fake.messages[0]!;
  assert.equal(patch.method, 'PATCH');
  assert.equal(patch.path, '/v1/channels/a%3Aroom/messages/msg_1');
  assert.deepEqual(patch.json(), { content: { text: 'better' } });
  assert.equal(patch.init.headers['content-type'], 'application/json');
  patch.reply(200, { id: 'msg_1', seq: 1, version: 2, updatedAt: 77, eventSeq: 9 });
  assert.deepEqual(await edited, { id: 'msg_1', seq: 1, version: 2, updatedAt: 77, eventSeq: 9 });

  const reacted = room.react('msg_1', '👍');
  await settle();
  const post = fake.messages[1]!;
  assert.equal(post.method, 'POST');
  assert.equal(post.path, '/v1/channels/a%3Aroom/messages/msg_1/reactions');
  assert.deepEqual(post.json(), { type: '👍' });
  post.reply(200, { id: 'msg_1', seq: 1, type: '👍', reacted: true });
  assert.deepEqual(await reacted, { id: 'msg_1', seq: 1, type: '👍', reacted: true });

  const unreacted = room.unreact('msg_1', '👍');
  await settle();
  const del = fake.messages[2]!;
  assert.equal(del.method, 'DELETE');
  assert.equal(del.url.pathname, `/v1/channels/a%3Aroom/messages/msg_1/reactions/${encodeURIComponent('👍')}`);
  assert.equal(del.init.body, undefined);
  del.reply(200, { id: 'msg_1', seq: 1, type: '👍', reacted: false });
  assert.deepEqual(await unreacted, { id: 'msg_1', seq: 1, type: '👍', reacted: false });

  const conflict = room.edit('msg_2', { text: 'too late' });
  await settle();
  fake.messages[3]!.reply(409, { code: 'conflict', reason: 'the message was retracted' });
  await assert.rejects(conflict, { code: 'conflict', reason: 'the message was retracted' });

  const retracted = room.retract('msg_1');
  await settle();
  fake.messages[4]!.reply(200, { id: 'msg_1', seq: 1, retracted: true, eventSeq: 10 });
  assert.deepEqual(await retracted, { id: 'msg_1', seq: 1, eventSeq: 10 });
  client.close();
});

test('client change requests - versions reads every version of a message over HTTP', async () => {
  const fake = new FakeFetch();
  const { client, clock } = fakeClient({ fetch: fake.fetch, autoConnect: false });
  const versions = client.channel('room').versions('msg_1');
  await settle();
  const [request] = fake.messages;
  assert.equal(request!.method, 'GET');
  assert.equal(request!.path, '/v1/channels/room/messages/msg_1/versions');
  assert.equal(request!.token, 'tok-1');
  const list = [
    { version: 1, content: { text: 'first' }, updatedAt: null, updatedBy: null },
    { version: 2, content: { text: 'second' }, updatedAt: 5, updatedBy: 'alice' },
  ];
  request!.reply(200, { versions: list });
  assert.deepEqual(await versions, list);
  const missing = client.channel('room').versions('msg_2');
  await settle();
  fake.messages[1]!.reply(404, { code: 'not_found', reason: 'no such message in this channel' });
  await assert.rejects(missing, { code: 'not_found' });
  await assert.rejects(client.channel('room').versions('../x'), { code: 'invalid_request' });
  await clock.advance(0);
});
