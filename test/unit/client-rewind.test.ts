/**
 * `channel.subscribe(listener, {rewind})` in @rtm/client: the first `subscribe` asks for the
 * rewind; once the subscription has a position (a message delivered, or `subscribed`), every
 * re-subscription (a reconnect, a gap, a reopened event stream) resumes with `since` and never
 * rewinds again. Bad values throw `invalid_request` at the call.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RtmError, WebSocketConstructor } from '@rtm/client';
import { ChannelPosition } from '../../libs/client/src/resume.ts';
import { channelsQuery } from '../../libs/client/src/sse-stream.ts';
import { fakeClient, lastSocket, messageFrame, settle } from '../helpers/client-fakes.ts';
import { connectedFrame, FakeFetch, ThrowingSocket } from '../helpers/sse-fakes.ts';

test('client rewind - the position sends the rewind only until it has a position', () => {
  const delivered = new ChannelPosition(undefined, 10);
  assert.equal(delivered.startReplay(), undefined);
  assert.equal(delivered.rewind, 10);
  assert.equal(delivered.accept(41), 'deliver');
  assert.equal(delivered.rewind, undefined, 'a delivered message is a position: resume from it');
  assert.equal(delivered.startReplay(), 41);

  const confirmed = new ChannelPosition(undefined, '2m');
  assert.equal(confirmed.rewind, '2m');
  confirmed.subscribed(7);
  assert.equal(confirmed.rewind, undefined, 'subscribed is a position too (a rewind that found nothing)');
  assert.equal(confirmed.startReplay(), 7);

  assert.equal(new ChannelPosition(3, 10).rewind, undefined, 'since wins');
});

test('client rewind - bad values, since with rewind, and a rewind for a second listener throw invalid_request', () => {
  const { client } = fakeClient();
  const channel = client.channel('a');
  for (const rewind of [0, 101, 2.5, '0s', '25h', '2d', '1h30m', '', true] as unknown[]) {
    assert.throws(
      () => channel.subscribe(() => {}, { rewind: rewind as number }),
      (error: RtmError) => error.code === 'invalid_request' && /rewind/.test(error.message),
      JSON.stringify(rewind),
    );
  }
  assert.throws(
    () => channel.subscribe(() => {}, { since: 3, rewind: 10 }),
    (error: RtmError) => error.code === 'invalid_request' && /not both/.test(error.message),
  );
  channel.subscribe(() => {}, { rewind: 5 });
  assert.throws(
    () => channel.subscribe(() => {}, { rewind: 5 }),
    (error: RtmError) => error.code === 'invalid_request' && /first subscription/.test(error.message),
  );
  channel.subscribe(() => {});
  client.close();
});

test('client rewind - the first subscribe rewinds; after a reconnect it resumes with since and nothing is delivered twice', async () => {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  lastSocket().accept();
  const got: number[] = [];
  client.channel('a').subscribe((m) => got.push(m.seq), { rewind: 3 });
  client.channel('b').subscribe(() => {}, { rewind: '90s' });
  const first = lastSocket();
  const [subA, subB] = first.ops('subscribe');
  assert.deepEqual(subA, { op: 'subscribe', ref: subA.ref, channelId: 'a', rewind: 3 });
  assert.deepEqual(subB, { op: 'subscribe', ref: subB.ref, channelId: 'b', rewind: '90s' });
  for (const seq of [8, 9, 10]) first.push(messageFrame('a', seq));
  first.push({ op: 'subscribed', ref: subA.ref, channelId: 'a', lastSeq: 10 });
  first.push(messageFrame('a', 11));
  // b is cut before anything reached it: it has no position, so it asks for its rewind again
  first.drop(4503, 'gateway draining');
  await clock.advance(clock.nextIn()!);

  const second = lastSocket();
  second.accept();
  const [againA, againB] = second.ops('subscribe');
  assert.deepEqual(againA, { op: 'subscribe', ref: againA.ref, channelId: 'a', since: 11 }, 'a resumes, never rewinds again');
  assert.deepEqual(againB, { op: 'subscribe', ref: againB.ref, channelId: 'b', rewind: '90s' });
  second.push(messageFrame('a', 12));
  second.push({ op: 'subscribed', ref: againA.ref, channelId: 'a', lastSeq: 12 });
  second.push(messageFrame('a', 13));
  assert.deepEqual(got, [8, 9, 10, 11, 12, 13]);
  client.close();
  await settle();
});

test('client rewind - on Server-Sent Events the stream names ~rewind: first, then ~seq after a reconnect', async () => {
  assert.equal(
    channelsQuery([
      { channelId: 'a', since: 4 },
      { channelId: 'b', since: undefined, rewind: 20 },
      { channelId: 'c', since: undefined, rewind: '2m' },
      { channelId: 'd', since: undefined },
    ]),
    'a~4,b~rewind:20,c~rewind:2m,d',
  );
  const fake = new FakeFetch();
  const { client, clock } = fakeClient({ WebSocket: ThrowingSocket as unknown as WebSocketConstructor, fetch: fake.fetch, transports: ['websocket', 'sse'] });
  await clock.advance(0);
  const got: number[] = [];
  client.channel('room').subscribe((m) => got.push(m.seq), { rewind: '2m' });
  await clock.advance(0);
  assert.equal(fake.lastStream().channels, 'room~rewind:2m');
  fake
    .lastStream()
    .open()
    .frame(connectedFrame())
    .frame(messageFrame('room', 5))
    .frame(messageFrame('room', 6))
    .frame({ op: 'subscribed', channelId: 'room', lastSeq: 6 });
  await settle();
  fake.lastStream().frame({ op: 'closed', code: 4503, reason: 'draining' });
  await settle();
  await clock.advance(30_000);
  const again = fake.lastStream();
  assert.equal(again.channels, 'room~6', 'the reconnect resumes after the last seq delivered');
  again.open().frame(connectedFrame()).frame({ op: 'subscribed', channelId: 'room', lastSeq: 6 }).frame(messageFrame('room', 7));
  await settle();
  assert.deepEqual(got, [5, 6, 7]);
  client.close();
});
