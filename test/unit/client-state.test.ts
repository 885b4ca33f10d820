import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RtmError, ConnectionState, StateChange } from '@rtm/client';
import { FakeSocket, fakeClient, lastSocket, messageFrame, settle } from '../helpers/client-fakes.ts';

function record(client: { on(name: 'state', fn: (state: ConnectionState, change: StateChange) => void): () => void }) {
  const seen: Array<{ state: ConnectionState } & StateChange> = [];
  client.on('state', (state, change) => seen.push({ state, ...change }));
  return seen;
}

test('client state - connecting → connected → disconnected → connecting → connected, with the close code and the retry delay', async () => {
  const { client, clock } = fakeClient();
  assert.equal(client.state, 'connecting');
  const seen = record(client);
  await clock.advance(0);
  assert.equal(lastSocket().url, 'ws://edge.test/v1/connect?token=tok-1');
  lastSocket().accept({ connectionId: 'conn_1', userId: 'alice' });
  assert.equal(client.state, 'connected');
  assert.equal(client.connectionId, 'conn_1');
  assert.equal(client.userId, 'alice');
  lastSocket().drop(4503, 'gateway draining');
  assert.equal(client.connectionId, undefined);
  const retry = seen.at(-1)!;
  assert.equal(retry.state, 'disconnected');
  assert.equal(retry.code, 4503);
  assert.equal(retry.reason, 'gateway draining');
  assert.ok(retry.retryInMs! >= 0 && retry.retryInMs! <= 500);
  await clock.advance(retry.retryInMs!);
  assert.equal(client.state, 'connecting');
  lastSocket().accept();
  assert.deepEqual(
    seen.map((s) => `${s.previous}>${s.state}`),
    ['connecting>connected', 'connected>disconnected', 'disconnected>connecting', 'connecting>connected'],
  );
  client.close();
  assert.deepEqual(seen.at(-1), { state: 'closed', previous: 'connected' });
  assert.deepEqual(lastSocket().closedByClient, { code: 1000, reason: 'client closed' });
});

test('client state - autoConnect false starts closed; connect() opens', async () => {
  const { client, clock } = fakeClient({ autoConnect: false });
  await clock.advance(60_000);
  assert.equal(client.state, 'closed');
  assert.equal(FakeSocket.instances.length, 0);
  client.connect();
  await clock.advance(0);
  assert.equal(FakeSocket.instances.length, 1);
  client.close();
});

for (const [code, errorCode] of [
  [4400, 'invalid_request'],
  [4403, 'forbidden'],
] as const) {
  test(`client state - ${code} closes the client for good (no reconnect)`, async () => {
    const { client, clock } = fakeClient();
    const errors: RtmError[] = [];
    client.on('error', (error) => errors.push(error));
    const seen = record(client);
    const publish = client
      .channel('a')
      .publish({ n: 1 })
      .catch((error: RtmError) => error);
    await clock.advance(0);
    lastSocket().drop(code, 'go away');
    assert.equal(client.state, 'closed');
    assert.deepEqual(seen.at(-1), { state: 'closed', previous: 'connecting', code, reason: 'go away' });
    assert.equal(errors[0]?.code, errorCode);
    assert.equal(((await publish) as RtmError).code, errorCode, 'pending publishes reject');
    await clock.advance(10 * 60_000);
    assert.equal(FakeSocket.instances.length, 1, 'never reconnects');
  });
}

test('client state - 4429 waits at least the retryAfter of the error frame before it, 1 s without one', async () => {
  const { client, clock } = fakeClient({ random: () => 0 });
  const seen = record(client);
  await clock.advance(0);
  lastSocket().accept();
  lastSocket().push({ op: 'error', code: 'rate_limited', reason: 'too many frames', retryAfter: 7 });
  lastSocket().drop(4429, 'rate limited');
  assert.equal(seen.at(-1)!.retryInMs, 7_000);
  await clock.advance(6_999);
  assert.equal(FakeSocket.instances.length, 1, 'not before retryAfter');
  await clock.advance(1);
  assert.equal(FakeSocket.instances.length, 2);
  lastSocket().drop(4429, 'socket quota');
  assert.equal(seen.at(-1)!.retryInMs, 1_000);
  client.close();
});

test('client state - without a connection for suspendAfterMs the client is suspended and keeps retrying', async () => {
  const { client, clock } = fakeClient({ reconnect: { initialDelayMs: 1_000, maxDelayMs: 4_000, suspendAfterMs: 10_000 } });
  const seen = record(client);
  await clock.advance(0);
  lastSocket().accept();
  lastSocket().drop(1006);
  const lostAt = clock.now();
  while (client.state !== 'suspended') {
    await clock.advance(clock.nextIn()!);
    if (client.state === 'connecting') lastSocket().drop(1006);
  }
  assert.equal(clock.now() - lostAt, 10_000);
  const attempts = FakeSocket.instances.length;
  await clock.advance(clock.nextIn()!);
  assert.equal(FakeSocket.instances.length, attempts + 1, 'still retrying');
  lastSocket().drop(1006);
  assert.equal(client.state, 'suspended', 'a failed attempt returns to suspended, not disconnected');
  await clock.advance(clock.nextIn()!);
  lastSocket().accept();
  assert.equal(client.state, 'connected');
  const states = seen.map((s) => s.state);
  assert.ok(states.includes('suspended'));
  assert.equal(states.at(-1), 'connected');
  client.close();
});

test('client state - a socket that never says connected is abandoned after 15 s and retried', async () => {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  await clock.advance(14_999);
  assert.equal(client.state, 'connecting');
  await clock.advance(1);
  assert.equal(client.state, 'disconnected');
  assert.ok(lastSocket().closedByClient);
  client.close();
});

test('client state - a silent connection is pinged; no answer drops it, any frame keeps it', async () => {
  const { client, clock } = fakeClient({ heartbeatMs: 20_000 });
  await clock.advance(0);
  const socket = lastSocket();
  socket.accept();
  await clock.advance(20_000);
  const [ping] = socket.ops('ping');
  assert.ok(ping, 'pinged after 20 s of silence');
  socket.push({ op: 'pong', ref: ping.ref });
  await clock.advance(10_000);
  assert.equal(client.state, 'connected');
  await clock.advance(10_000);
  assert.equal(socket.ops('ping').length, 2);
  await clock.advance(10_000); // no answer
  assert.equal(client.state, 'disconnected');
  client.close();
});

test('client state - banned ends a subscription for good; unavailable re-subscribes from the last seq', async () => {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  const socket = lastSocket();
  socket.accept();
  const a = client.channel('a');
  const b = client.channel('b');
  const endings: unknown[] = [];
  a.on('unsubscribed', (info) => endings.push(['a', info]));
  b.on('unsubscribed', (info) => endings.push(['b', info]));
  const subA = a.subscribe(() => {});
  b.subscribe(() => {});
  const [sa, sb] = socket.ops('subscribe');
  socket.push({ op: 'subscribed', ref: sa.ref, channelId: 'a', lastSeq: 3 });
  socket.push({ op: 'subscribed', ref: sb.ref, channelId: 'b', lastSeq: 8 });
  assert.deepEqual(await subA.ready, { lastSeq: 3 });
  socket.push(messageFrame('b', 9));
  socket.push({ op: 'unsubscribed', channelId: 'a', code: 'banned', reason: 'spam' });
  socket.push({ op: 'unsubscribed', channelId: 'b', code: 'unavailable', reason: 'too far behind' });
  assert.deepEqual(endings, [
    ['a', { code: 'banned', reason: 'spam', resubscribing: false }],
    ['b', { code: 'unavailable', reason: 'too far behind', resubscribing: true }],
  ]);
  assert.equal(subA.active, false);
  assert.equal(a.subscribed, false);
  await clock.advance(30_000);
  const again = socket.ops('subscribe').slice(2);
  assert.deepEqual(
    again.map((f) => [f.channelId, f.since]),
    [['b', 9]],
    'only b, from its last seq',
  );
  // and after a reconnect a is still not subscribed
  socket.drop(1006);
  await clock.advance(clock.nextIn()!);
  lastSocket().accept();
  assert.deepEqual(
    lastSocket()
      .ops('subscribe')
      .map((f) => f.channelId),
    ['b'],
  );
  client.close();
});

test('client state - a refused subscribe rejects ready (forbidden) or is retried (unavailable)', async () => {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  const socket = lastSocket();
  socket.accept();
  const errors: string[] = [];
  client.channel('x').on('error', (error) => errors.push(error.code));
  const forbidden = client.channel('x').subscribe(() => {});
  const flaky = client.channel('y').subscribe(() => {});
  const [sx, sy] = socket.ops('subscribe');
  socket.push({ op: 'error', ref: sx.ref, channelId: 'x', code: 'forbidden', reason: 'members only' });
  socket.push({ op: 'error', ref: sy.ref, channelId: 'y', code: 'unavailable', reason: 'try again', retryAfter: 2 });
  await assert.rejects(forbidden.ready, (error: RtmError) => error.code === 'forbidden');
  assert.deepEqual(errors, ['forbidden']);
  await clock.advance(1_999);
  assert.equal(socket.ops('subscribe').length, 2);
  await clock.advance(1);
  const retried = socket.ops('subscribe')[2];
  assert.equal(retried.channelId, 'y');
  socket.push({ op: 'subscribed', ref: retried.ref, channelId: 'y', lastSeq: 0 });
  assert.deepEqual(await flaky.ready, { lastSeq: 0 });
  client.close();
});

test('client state - unsubscribe is answered, and the channel is not re-subscribed after a reconnect', async () => {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  const socket = lastSocket();
  socket.accept();
  const got: number[] = [];
  const sub = client.channel('a').subscribe((m) => got.push(m.seq));
  const second = client.channel('a').subscribe(() => {});
  assert.throws(
    () => client.channel('a').subscribe(() => {}, { since: 1 }),
    (error: RtmError) => error.code === 'invalid_request',
  );
  const [s] = socket.ops('subscribe');
  assert.equal(socket.ops('subscribe').length, 1, 'one subscription on the wire for both listeners');
  socket.push({ op: 'subscribed', ref: s.ref, channelId: 'a', lastSeq: 0 });
  await sub.unsubscribe();
  assert.equal(socket.ops('unsubscribe').length, 0, 'another listener is still there');
  socket.push(messageFrame('a', 1));
  assert.deepEqual(got, [], 'an unsubscribed listener gets nothing');
  let done = false;
  const leaving = second.unsubscribe().then(() => (done = true));
  await settle();
  assert.equal(done, false);
  const [u] = socket.ops('unsubscribe');
  socket.push({ op: 'unsubscribed', ref: u.ref, channelId: 'a' });
  await leaving;
  socket.drop(1006);
  await clock.advance(clock.nextIn()!);
  lastSocket().accept();
  assert.equal(lastSocket().ops('subscribe').length, 0);
  client.close();
});

test('client state - close() rejects pending ready promises; connect() afterwards resumes the subscriptions', async () => {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  lastSocket().accept();
  const sub = client.channel('a').subscribe(() => {}, { since: 5 });
  client.close();
  await assert.rejects(sub.ready, (error: RtmError) => error.code === 'closed');
  client.connect();
  await clock.advance(0);
  lastSocket().accept();
  assert.equal(lastSocket().ops('subscribe')[0].since, 5);
  client.close();
});

test('client state - nothing is written to a socket that is closing; what was not sent goes out after the reconnect', async () => {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  const socket = lastSocket();
  socket.accept();
  // the server has started closing (its close frame is on the way): the client still thinks it is connected
  socket.closing();
  const channel = client.channel('a');
  channel.subscribe(() => {});
  const publish = channel.publish({ n: 1 });
  await clock.advance(100);
  assert.deepEqual(socket.sentWhileClosed, [], 'a browser would drop these with a console error');
  socket.drop(1006);
  await clock.advance(clock.nextIn()!);
  const next = lastSocket();
  assert.notEqual(next, socket);
  next.accept();
  await clock.advance(100);
  assert.deepEqual(
    next.ops('subscribe').map((f) => f.channelId),
    ['a'],
  );
  const [sent] = next.ops('publish');
  assert.deepEqual(sent.content, { n: 1 });
  next.push({ op: 'ack', ref: sent.ref, channelId: 'a', id: 'msg_1', seq: 1, timestamp: 1 });
  assert.equal((await publish).seq, 1);
  client.close();
});
