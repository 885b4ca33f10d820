import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConnectionState, WebSocketConstructor } from '@rtm/client';
const WEBSOCKET_RETRY_MS = 60_000; // reconnect.webSocketRetryMs's default
import { FakeSocket, fakeClient, lastSocket, messageFrame, settle } from '../helpers/client-fakes.ts';
import { connectedFrame, FakeFetch, ThrowingSocket } from '../helpers/sse-fakes.ts';

test('client transports - two WebSockets in a row closing before connected (1006): SSE; a close code from the server does not count', async () => {
  const fake = new FakeFetch();
  const { client, clock } = fakeClient({ fetch: fake.fetch, transports: ['websocket', 'sse'] });
  const transports: string[] = [];
  client.on('transport', (t) => transports.push(t));
  /** The next attempt's socket (the backoff waits a few seconds at most here). */
  const next = async () => {
    const count = FakeSocket.instances.length;
    while (FakeSocket.instances.length === count) await clock.advance(100);
    return lastSocket();
  };
  await clock.advance(0);
  lastSocket().drop(4503, 'draining');
  (await next()).drop(1006);
  (await next()).drop(4429);
  (await next()).drop(1006);
  assert.equal(client.transport, 'websocket', 'the server answered in between: WebSockets get through');
  assert.equal(FakeSocket.instances.length, 4);
  (await next()).accept();
  await settle();
  lastSocket().drop(1006);
  (await next()).drop(1006);
  assert.equal(client.transport, 'websocket', 'one failure after a connection');
  const last = await next();
  assert.equal(FakeSocket.instances.length, 7);
  last.drop(1006);
  await settle();
  assert.equal(client.transport, 'sse');
  assert.deepEqual(transports, ['sse']);
  await clock.advance(0);
  assert.equal(client.state, 'connected', 'on SSE at once, without waiting a backoff');
  assert.equal(FakeSocket.instances.length, 7);
});

test('client transports - transports: ["websocket"] keeps the old behaviour; a bad list is refused', async () => {
  const fake = new FakeFetch();
  const { client, clock } = fakeClient({ WebSocket: ThrowingSocket as unknown as WebSocketConstructor, fetch: fake.fetch, transports: ['websocket'] });
  const errors: string[] = [];
  client.on('error', (e) => errors.push(e.code));
  await clock.advance(0);
  assert.equal(client.state, 'closed');
  assert.equal(client.transport, 'websocket');
  assert.equal(fake.requests.length, 0);
  for (const transports of [[], ['sse', 'websocket'], ['websocket', 'websocket'], ['polling']]) {
    assert.throws(() => fakeClient({ transports: transports as never, autoConnect: false }), { code: 'invalid_request' });
  }
  // no WebSocket at all (none given and no global one, as on Node 20 without ws): SSE from the
  // start. Node 22+ has a global WebSocket, so it is taken away for the while.
  const global = Object.getOwnPropertyDescriptor(globalThis, 'WebSocket');
  delete (globalThis as { WebSocket?: unknown }).WebSocket;
  try {
    const { client: bare, clock: bareClock } = fakeClient({ WebSocket: undefined, fetch: fake.fetch, transports: ['websocket', 'sse'] });
    assert.equal(bare.transport, 'sse');
    await bareClock.advance(0);
    assert.equal(bare.state, 'connected');
  } finally {
    if (global) Object.defineProperty(globalThis, 'WebSocket', global);
  }
});

test('client transports - on SSE a WebSocket is tried every 60 s; when it says connected the client moves to it without a state change', async () => {
  const fake = new FakeFetch();
  let blocked = true;
  class Switchable extends FakeSocket {
    constructor(url: string) {
      if (blocked) throw new Error('blocked');
      super(url);
    }
  }
  const { client, clock } = fakeClient({ WebSocket: Switchable, fetch: fake.fetch, transports: ['websocket', 'sse'] });
  const states: ConnectionState[] = [];
  client.on('state', (s) => states.push(s));
  const transports: string[] = [];
  client.on('transport', (t) => transports.push(t));
  await clock.advance(0);
  const got: number[] = [];
  client.channel('room').subscribe((m) => got.push(m.seq));
  client.inbox.subscribe(() => {});
  await clock.advance(0);
  const stream = fake.lastStream();
  stream.open().frame(connectedFrame()).frame({ op: 'subscribed', channelId: 'room', lastSeq: 3 }).frame(messageFrame('room', 4));
  await settle();

  await fake.advanceAlive(clock, WEBSOCKET_RETRY_MS);
  assert.equal(FakeSocket.instances.length, 0, 'still blocked');
  blocked = false;
  await fake.advanceAlive(clock, WEBSOCKET_RETRY_MS);
  const socket = lastSocket();
  socket.drop(1006); // the first probe fails: another a minute later
  await fake.advanceAlive(clock, WEBSOCKET_RETRY_MS - 1);
  assert.equal(FakeSocket.instances.length, 1);
  await clock.advance(1);
  const probe = lastSocket();
  assert.notEqual(probe, socket);
  assert.equal(stream.aborted, false, 'make before break: the stream stays until the socket is up');
  probe.accept();
  await settle();
  assert.equal(client.transport, 'websocket');
  assert.deepEqual(transports, ['sse', 'websocket']);
  assert.equal(stream.aborted, true);
  assert.deepEqual(states, ['connected'], 'no state change');
  assert.deepEqual(probe.ops('subscribe'), [{ op: 'subscribe', ref: probe.ops('subscribe')[0].ref, channelId: 'room', since: 4 }]);
  assert.equal(probe.ops('subscribe-inbox').length, 1, 'the inbox subscribes on the WebSocket');
  probe.push(messageFrame('room', 4));
  probe.push({ op: 'subscribed', ref: probe.ops('subscribe')[0].ref, channelId: 'room', lastSeq: 5 });
  probe.push(messageFrame('room', 6));
  await settle();
  assert.deepEqual(got, [4, 6], 'the replay on the socket repeats nothing');
  for (let i = 0; i < 9; i++) {
    await clock.advance(20_000);
    probe.push({ op: 'pong' });
  }
  assert.equal(FakeSocket.instances.length, 2, 'no probe while on WebSockets');
  assert.equal(fake.streams.length, 1);
});

test('client sse - publishes and retractions go over HTTP with their idempotency keys; acks and refusals as on the socket', async () => {
  const fake = new FakeFetch();
  const { client, clock } = fakeClient({ WebSocket: ThrowingSocket as unknown as WebSocketConstructor, fetch: fake.fetch, transports: ['websocket', 'sse'] });
  await clock.advance(0);
  const room = client.channel('room');
  const published = room.publish({ text: 'hi' }, { type: 'chat', mentions: ['bob'] });
  await settle();
  assert.equal(fake.messages.length, 1);
  const [post] = fake.messages;
  assert.equal(post!.method, 'POST');
  assert.equal(post!.path, '/v1/channels/room/messages');
  assert.equal(post!.token, 'tok-1');
  const body = post!.json();
  assert.match(body.idempotencyKey, /^k_[0-9a-f]{32}$/);
  assert.deepEqual(body, { content: { text: 'hi' }, type: 'chat', mentions: ['bob'], idempotencyKey: body.idempotencyKey });
  post!.fail(); // no answer: the outcome is unknown, sent again with the same key
  await settle();
  await clock.advance(30_000);
  const again = fake.messages[1]!;
  assert.equal(again.json().content.text, 'hi');
  assert.equal(again.json().idempotencyKey, body.idempotencyKey);
  again.reply(201, { id: 'msg_1', seq: 9, timestamp: 5 });
  assert.deepEqual(await published, { id: 'msg_1', seq: 9, timestamp: 5 });
  const second = room.publish({ text: 'second' });
  const other = client.channel('other').publish({ text: 'elsewhere' });
  await settle();
  assert.equal(fake.messages.length, 4, 'channels do not wait for each other');
  const third = fake.messages[2]!;
  assert.equal(third.json().content.text, 'second');
  fake.messages[3]!.reply(201, { id: 'msg_o', seq: 1, timestamp: 6 });
  assert.equal((await other).id, 'msg_o');
  third.reply(429, { code: 'rate_limited', reason: 'slow down' }, { 'retry-after': '2' });
  await settle();
  await clock.advance(1_999);
  assert.equal(fake.messages.length, 4, 'paused for the retry-after');
  await clock.advance(1);
  fake.messages[4]!.reply(201, { id: 'msg_2', seq: 10, timestamp: 6 });
  assert.deepEqual(await second, { id: 'msg_2', seq: 10, timestamp: 6 });

  const retracted = room.retract('msg_1', 'typo');
  const missing = room.retract('msg_x');
  await settle();
  assert.equal(fake.messages.length, 6, 'one request per channel at a time, in order');
  const del = fake.messages[5]!;
  assert.equal(del.method, 'DELETE');
  assert.equal(del.path, '/v1/channels/room/messages/msg_1');
  assert.deepEqual(del.json(), { reason: 'typo' });
  assert.equal(del.init.headers['content-type'], 'application/json');
  del.reply(200, { id: 'msg_1', seq: 9, retracted: true });
  assert.deepEqual(await retracted, { id: 'msg_1', seq: 9 });
  await settle();
  const del2 = fake.messages[6]!;
  assert.equal(del2.init.body, undefined);
  del2.reply(404, { code: 'not_found', reason: 'no such message' });
  await assert.rejects(missing, { code: 'not_found', reason: 'no such message' });

  const ephemeral = room.publish({ typing: true }, { ephemeral: true });
  await settle();
  fake.messages[7]!.reply(202, { id: 'eph_1', ephemeral: true });
  assert.deepEqual(await ephemeral, { id: 'eph_1', ephemeral: true });
});

test('client sse - a 401 on a publish fetches a new token once and sends again', async () => {
  const fake = new FakeFetch();
  const { client, clock, tokens } = fakeClient({
    WebSocket: ThrowingSocket as unknown as WebSocketConstructor,
    fetch: fake.fetch,
    transports: ['websocket', 'sse'],
  });
  await clock.advance(0);
  const published = client.channel('room').publish({ n: 1 });
  await settle();
  fake.messages[0]!.reply(401, { code: 'unauthorized', reason: 'token expired' });
  await settle();
  assert.equal(tokens.length, 2);
  assert.equal(fake.messages[1]!.token, 'tok-2');
  fake.messages[1]!.reply(201, { id: 'm', seq: 1, timestamp: 1 });
  assert.equal((await published).seq, 1);
});

test('client sse - token renewal reopens every stream with the new token; the first new connected answers it', async () => {
  const fake = new FakeFetch();
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const issued: string[] = [];
  const { client, clock } = fakeClient({
    WebSocket: ThrowingSocket as unknown as WebSocketConstructor,
    fetch: fake.fetch,
    transports: ['websocket', 'sse'],
    getToken: () => {
      const iat = Math.floor(clock.now() / 1000);
      const token = `${b64({ alg: 'none' })}.${b64({ sub: 'alice', iat, exp: iat + 60, n: issued.length })}.x`;
      issued.push(token);
      return token;
    },
  });
  fake.me = (request) => request.reply(200, { userId: 'alice', expiresAt: new Date(clock.now() + 60_000).toISOString() });
  await clock.advance(0);
  const got: number[] = [];
  client.channel('room').subscribe((m) => got.push(m.seq));
  await clock.advance(0);
  const first = fake.lastStream();
  first.open().frame(connectedFrame({ expiresAt: new Date(clock.now() + 60_000).toISOString() }));
  first.frame({ op: 'subscribed', channelId: 'room', lastSeq: 1 }).frame(messageFrame('room', 2));
  await settle();
  await fake.advanceAlive(clock, 48_000);
  assert.equal(issued.length, 2, 'renewed 12 s before expiry');
  await clock.advance(0);
  const second = fake.lastStream();
  assert.equal(first.aborted, true);
  assert.equal(second.token, issued[1]);
  assert.equal(second.channels, 'room~2');
  second
    .open()
    .frame(connectedFrame({ expiresAt: new Date(clock.now() + 60_000).toISOString() }))
    .frame(messageFrame('room', 3));
  await settle();
  assert.deepEqual(got, [2, 3]);
  await fake.advanceAlive(clock, 47_999);
  assert.equal(issued.length, 2, 'the next renewal is scheduled from the new expiry');
  await clock.advance(1);
  assert.equal(issued.length, 3);
  assert.equal(client.state, 'connected');
});

test('client sse - a publish request with no answer in 30 s is abandoned and sent again with its key; closing ends the requests under way', async () => {
  const fake = new FakeFetch();
  const { client, clock } = fakeClient({ WebSocket: ThrowingSocket as unknown as WebSocketConstructor, fetch: fake.fetch, transports: ['websocket', 'sse'] });
  await clock.advance(0);
  const published = client.channel('room').publish({ n: 1 });
  await settle();
  const [first] = fake.messages;
  await clock.advance(29_999);
  assert.equal(first!.aborted, false);
  await clock.advance(1);
  assert.equal(first!.aborted, true);
  await clock.advance(30_000);
  const second = fake.messages[1]!;
  assert.equal(second.json().idempotencyKey, first!.json().idempotencyKey);
  second.reply(201, { id: 'm', seq: 1, timestamp: 1 });
  assert.equal((await published).id, 'm');
  const pending = client
    .channel('room')
    .publish({ n: 2 })
    .catch((error) => error.code);
  await settle();
  client.close();
  assert.equal(fake.messages[2]!.aborted, true);
  assert.equal(await pending, 'closed');
});
