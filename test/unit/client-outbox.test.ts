import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RtmError } from '@rtm/client';
import { Outbox } from '../../libs/client/src/outbox.ts';
import { fakeClient, lastSocket, settle } from '../helpers/client-fakes.ts';

const entry = (n: number, ephemeral = false) => ({
  kind: 'publish' as const,
  channelId: 'a',
  frame: { op: 'publish', channelId: 'a', content: { n }, idempotencyKey: `k${n}` },
  ephemeral,
  resolve: () => {},
  reject: () => {},
});

test('client outbox - offline entries are bounded; online ones are not held', () => {
  const outbox = new Outbox(3);
  for (let n = 1; n <= 3; n++) outbox.add(entry(n), false);
  assert.throws(
    () => outbox.add(entry(4), false),
    (error: RtmError) => error.code === 'queue_full',
    "the SDK's own code, not the server's rate_limited",
  );
  assert.equal(outbox.size, 3);
  // online entries go out at once: taken, they no longer count as held
  let ref = 0;
  outbox.takeQueued(() => ++ref);
  assert.equal(outbox.held, 0);
  outbox.add(entry(5), true);
  outbox.add(entry(6), false);
  assert.equal(outbox.held, 2);
});

test('client outbox - a lost connection queues sent entries again, in order, keeping their frames; ephemeral ones are rejected', () => {
  const outbox = new Outbox(10);
  const rejected: string[] = [];
  outbox.add(entry(1), true);
  outbox.add({ ...entry(2, true), reject: (e: RtmError) => rejected.push(e.code) }, true);
  outbox.add(entry(3), true);
  let ref = 0;
  const first = outbox.takeQueued(() => ++ref);
  assert.deepEqual(
    first.map((e) => e.ref),
    [1, 2, 3],
  );
  outbox.connectionLost();
  assert.deepEqual(rejected, ['unavailable']);
  const again = outbox.takeQueued(() => ++ref);
  assert.deepEqual(
    again.map((e) => e.frame.idempotencyKey),
    ['k1', 'k3'],
  );
  assert.deepEqual(
    again.map((e) => e.ref),
    [4, 5],
    'new refs, same keys',
  );
});

test('client outbox - publishes made while offline are held up to maxQueuedPublishes and sent after connecting', async () => {
  const { client, clock } = fakeClient({ maxQueuedPublishes: 2 });
  const channel = client.channel('room');
  const results: unknown[] = [];
  const p1 = channel.publish({ n: 1 }).then((r) => results.push(r));
  const p2 = channel.publish({ n: 2 });
  await assert.rejects(channel.publish({ n: 3 }), (error: RtmError) => error.code === 'queue_full');
  await clock.advance(0);
  const socket = lastSocket();
  assert.equal(socket.sent.length, 0, 'nothing goes out before connected');
  socket.accept();
  const sent = socket.ops('publish');
  assert.deepEqual(
    sent.map((f) => f.content.n),
    [1, 2],
  );
  for (const frame of sent) {
    assert.match(frame.idempotencyKey, /^k_[0-9a-f]{32}$/);
    assert.equal(frame.channelId, 'room');
  }
  assert.notEqual(sent[0].idempotencyKey, sent[1].idempotencyKey);
  socket.push({ op: 'ack', ref: sent[1].ref, channelId: 'room', id: 'msg_2', seq: 8, timestamp: 5 });
  socket.push({ op: 'ack', ref: sent[0].ref, channelId: 'room', id: 'msg_1', seq: 7, timestamp: 4 });
  await p1;
  assert.deepEqual(await p2, { id: 'msg_2', seq: 8, timestamp: 5 });
  assert.deepEqual(results, [{ id: 'msg_1', seq: 7, timestamp: 4 }]);
  client.close();
});

test('client outbox - a publish whose ack was lost is re-sent after the reconnect with the same idempotency key', async () => {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  lastSocket().accept();
  const channel = client.channel('room');
  const acked = channel.publish({ text: 'once' }, { type: 'chat' });
  const retracted = channel.retract('msg_9', 'typo');
  const first = lastSocket();
  const [publish] = first.ops('publish');
  assert.equal(publish.type, 'chat');
  first.drop(1006); // before the ack
  await clock.advance(clock.nextIn()!);
  const second = lastSocket();
  second.accept();
  const [again] = second.ops('publish');
  assert.equal(again.idempotencyKey, publish.idempotencyKey);
  assert.deepEqual({ ...again, ref: 0 }, { ...publish, ref: 0 });
  assert.notEqual(again.ref, publish.ref);
  const [retract] = second.ops('retract');
  assert.deepEqual({ ...retract, ref: 0 }, { op: 'retract', channelId: 'room', id: 'msg_9', reason: 'typo', ref: 0 });
  second.push({ op: 'ack', ref: again.ref, channelId: 'room', id: 'msg_1', seq: 1, timestamp: 9 });
  second.push({ op: 'ack', ref: retract.ref, channelId: 'room', id: 'msg_9', seq: 3, retracted: true });
  assert.deepEqual(await acked, { id: 'msg_1', seq: 1, timestamp: 9 });
  assert.deepEqual(await retracted, { id: 'msg_9', seq: 3 });
  client.close();
});

test('client outbox - rate_limited refusals are retried with the same key, not before retryAfter', async () => {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  const socket = lastSocket();
  socket.accept();
  const result = client.channel('room').publish({ n: 1 });
  const [first] = socket.ops('publish');
  socket.push({ op: 'error', ref: first.ref, channelId: 'room', code: 'rate_limited', reason: 'slow down', retryAfter: 2 });
  const later = client.channel('room').publish({ n: 2 });
  await clock.advance(1_999);
  assert.equal(socket.ops('publish').length, 1, 'nothing is sent while paused');
  await clock.advance(1);
  const resent = socket.ops('publish').slice(1);
  assert.deepEqual(
    resent.map((f) => f.content.n),
    [1, 2],
    'in order once the pause is over',
  );
  assert.equal(resent[0].idempotencyKey, first.idempotencyKey);
  socket.push({ op: 'ack', ref: resent[0].ref, channelId: 'room', id: 'm1', seq: 1, timestamp: 1 });
  socket.push({ op: 'ack', ref: resent[1].ref, channelId: 'room', id: 'm2', seq: 2, timestamp: 1 });
  assert.equal((await result).id, 'm1');
  assert.equal((await later).id, 'm2');
  client.close();
});

test('client outbox - refusals that retrying cannot fix reject the publish', async () => {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  const socket = lastSocket();
  socket.accept();
  const result = client.channel('room').publish({ n: 1 });
  const [frame] = socket.ops('publish');
  socket.push({ op: 'error', ref: frame.ref, channelId: 'room', code: 'forbidden', reason: 'no publish access' });
  await assert.rejects(result, (error: RtmError) => error instanceof RtmError && error.code === 'forbidden' && error.reason === 'no publish access');
  await clock.advance(60_000);
  assert.equal(socket.ops('publish').length, 1, 'not re-sent');
  client.close();
});

test('client outbox - suspended rejects queued and new publishes; closed rejects pending ones', async () => {
  const { client, clock } = fakeClient({ reconnect: { suspendAfterMs: 5_000 } });
  await clock.advance(0);
  lastSocket().accept();
  // errors are collected as they come (a rejection nobody handles yet would fail the test)
  const inFlight = client
    .channel('room')
    .publish({ n: 1 })
    .catch((error: RtmError) => error);
  lastSocket().drop(1006);
  const queued = client
    .channel('room')
    .publish({ n: 2 })
    .catch((error: RtmError) => error);
  for (let i = 0; i < 20 && client.state !== 'suspended'; i++) {
    await clock.advance(clock.nextIn()!);
    if (client.state === 'connecting') lastSocket().drop(1006);
  }
  assert.equal(client.state, 'suspended');
  const [lost, unsent] = [await inFlight, await queued];
  assert.ok(lost instanceof RtmError && lost.code === 'unavailable' && /may have been persisted/.test(lost.reason!), String(lost));
  assert.ok(unsent instanceof RtmError && unsent.code === 'unavailable' && /not sent/.test(unsent.reason!), String(unsent));
  await assert.rejects(client.channel('room').publish({ n: 3 }), (error: RtmError) => error.code === 'unavailable');

  const { client: other, clock: otherClock } = fakeClient();
  const pending = other.channel('room').publish({ n: 1 });
  other.close();
  await assert.rejects(pending, (error: RtmError) => error.code === 'closed');
  await assert.rejects(other.channel('room').publish({ n: 2 }), (error: RtmError) => error.code === 'closed');
  await otherClock.advance(0);
  client.close();
  await settle();
});

test('client outbox - what is sent is paced under the server inbound rate: 200 frames and 1 MiB per second', async () => {
  const { client, clock } = fakeClient({ maxQueuedPublishes: 1_000 });
  const channel = client.channel('room');
  const pending = Array.from({ length: 450 }, (_, n) => channel.publish({ n }).catch(() => {}));
  await clock.advance(0);
  const socket = lastSocket();
  socket.accept();
  assert.equal(socket.ops('publish').length, 200, 'one second worth at once');
  await clock.advance(500);
  assert.equal(socket.ops('publish').length, 300);
  await clock.advance(500);
  assert.equal(socket.ops('publish').length, 400);
  await clock.advance(250);
  assert.deepEqual(
    socket.ops('publish').map((f) => f.content.n),
    Array.from({ length: 450 }, (_, n) => n),
    'all of them, in order',
  );
  // bytes too: a burst of one second's worth (1 MiB: fifteen 64 KiB contents), then 1 MiB per second
  await clock.advance(2_000);
  const big = 'é'.repeat(32 * 1024); // 64 KiB in UTF-8
  const heavy = Array.from({ length: 40 }, () => channel.publish({ big }).catch(() => {}));
  await clock.advance(0);
  assert.equal(socket.ops('publish').length - 450, 15);
  await clock.advance(1_000);
  const second = socket.ops('publish').length - 450;
  assert.ok(second >= 30 && second <= 31, `${second} after one more second (plus what the first burst left)`);
  client.close();
  await Promise.all([...pending, ...heavy]);
});

test('client outbox - utf8Length counts UTF-8 bytes', async () => {
  const { utf8Length } = await import('../../libs/client/src/paced-sender.ts');
  for (const text of ['', 'abc', 'é', '€', '😀', 'a😀é€', '\ud800']) assert.equal(utf8Length(text), Buffer.byteLength(text), JSON.stringify(text));
});
