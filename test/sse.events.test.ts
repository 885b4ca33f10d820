/**
 * `GET /v1/events` (docs/protocol.md, "Server-sent events"): the multiplexed connection's frames as
 * an event stream, against real gateways, channel-node, Postgres and NATS.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { EVENT_STREAM_FRAMES } from '@rtm/schemas';
import { startCluster } from './helpers/cluster.ts';
import { client, mintToken } from './helpers/http.ts';
import { admin } from './helpers/admin.ts';
import { tokenSigner } from './helpers/tokens.ts';
import { openStream, type TestStream } from './helpers/sse.ts';
import { channelHash } from '../libs/edge/src/sessions/event-positions.ts';

const Documented = z.union(Object.values(EVENT_STREAM_FRAMES) as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]]);

/** Every frame of the stream is one of the documented stream frames (docs/asyncapi.yaml, channel events). */
function assertDocumented(stream: TestStream): void {
  for (const frame of stream.frames) assert.ok(Documented.safeParse(frame).success, `undocumented frame ${JSON.stringify(frame)}`);
}

/** The seqs of the persisted messages of `channelId` a stream delivered, in order. */
const seqsOf = (stream: TestStream, channelId: string): number[] =>
  stream.frames.filter((f) => f.op === undefined && f.channelId === channelId).map((f) => f.seq);
const upTo = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const messageAt = (stream: TestStream, channelId: string, seq: number) =>
  stream.waitFor(`${channelId} seq ${seq}`, (f) => f.op === undefined && f.channelId === channelId && f.seq === seq);

test('events - two channels streamed, cut, resumed on another gateway from Last-Event-ID with no gap and no duplicate', async (t) => {
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const control = client(gwA.controlUrl, env.secretKey);
  const alice = await mintToken(gwA.controlUrl, env.secretKey, 'alice');
  const publish = async (channelId: string, n: number) =>
    assert.equal((await control.post(`/v1/channels/${channelId}/messages`, { content: { n } })).status, 201);
  for (let n = 1; n <= 3; n++) {
    await publish('a', n);
    await publish('b', n);
  }

  // a replays from 0, b starts live; the token in the Authorization header
  const first = await openStream(gwA.realtimeUrl, '/v1/events?channels=a~0,b', { authorization: `Bearer ${alice}` });
  assert.equal(first.status, 200);
  assert.match(String(first.headers['content-type']), /^text\/event-stream/);
  assert.equal(first.headers['cache-control'], 'no-store');
  assert.equal(first.headers['x-accel-buffering'], 'no');
  const subscribedB = await first.waitFor('b subscribed', (f) => f.op === 'subscribed' && f.channelId === 'b');
  const subscribedA = await first.waitFor('a subscribed', (f) => f.op === 'subscribed' && f.channelId === 'a');
  assert.deepEqual(subscribedA, { op: 'subscribed', channelId: 'a', lastSeq: 3 });
  assert.deepEqual(subscribedB, { op: 'subscribed', channelId: 'b', lastSeq: 3 });
  assert.equal(first.lines[0], 'retry: 1000');
  assert.equal(first.frames[0].op, 'connected');
  assert.equal(first.frames[0].userId, 'alice');
  assert.match(first.frames[0].connectionId, /^sock_/);
  // no `event:` field: EventSource's onmessage gets every event
  assert.ok(!first.lines.some((line) => line.startsWith('event:')));
  assert.deepEqual(seqsOf(first, 'a'), [1, 2, 3]);
  assert.deepEqual(seqsOf(first, 'b'), []);
  assert.equal(first.events.find((e) => e.data.op === 'connected')!.id, `${channelHash('a')}~0`);

  // publishes on both channels race the cut: whatever the first stream saw, the second resumes after it
  let publishing = true;
  let last = 3;
  const racing = (async () => {
    while (publishing || last < 12) {
      last++;
      await Promise.all([publish('a', last), publish('b', last)]);
    }
  })();
  await messageAt(first, 'a', 6);
  await messageAt(first, 'b', 6);
  first.cut();
  await first.ended;
  const cutAt = first.lastId;
  assert.match(cutAt, new RegExp(`^${channelHash('a')}~\\d+,${channelHash('b')}~\\d+$`));
  const [cutA, cutB] = cutAt.split(',').map((entry) => Number(entry.split('~')[1]));
  // the id is where the stream stood: the last seq it delivered on each channel
  assert.equal(cutA, seqsOf(first, 'a').at(-1));
  assert.equal(cutB, seqsOf(first, 'b').at(-1));
  publishing = false;
  await racing;

  // the token as a parameter, the id in the header, on the other gateway
  const second = await openStream(gwB.realtimeUrl, `/v1/events?channels=a,b&token=${alice}`, { 'last-event-id': cutAt });
  assert.equal(second.status, 200);
  await second.waitFor('both subscribed', () => second.frames.filter((f) => f.op === 'subscribed').length === 2);
  await publish('a', last + 1);
  await publish('b', last + 1);
  await messageAt(second, 'a', last + 1);
  await messageAt(second, 'b', last + 1);
  // every seq once, in order, across the two streams: a from 1, b from the live start after 3
  assert.deepEqual([...seqsOf(first, 'a'), ...seqsOf(second, 'a')], upTo(1, last + 1));
  assert.deepEqual([...seqsOf(first, 'b'), ...seqsOf(second, 'b')], upTo(4, last + 1));
  assert.equal(second.lastId, `${channelHash('a')}~${last + 1},${channelHash('b')}~${last + 1}`);
  second.cut();

  // the id as a parameter (clients that cannot send the header): nothing to replay, live goes on
  const third = await openStream(gwA.realtimeUrl, `/v1/events?channels=b,a&token=${alice}&lastEventId=${encodeURIComponent(second.lastId)}`);
  await third.waitFor('both subscribed', () => third.frames.filter((f) => f.op === 'subscribed').length === 2);
  // the two subscriptions are made side by side: frames of different channels interleave (docs/protocol.md),
  // so their `subscribed` frames may come in either order
  assert.deepEqual(
    third.frames.filter((f) => f.op === 'subscribed').sort((x, y) => x.channelId.localeCompare(y.channelId)),
    [
      { op: 'subscribed', channelId: 'a', lastSeq: last + 1 },
      { op: 'subscribed', channelId: 'b', lastSeq: last + 1 },
    ],
  );
  await publish('b', last + 2);
  await messageAt(third, 'b', last + 2);
  assert.deepEqual(seqsOf(third, 'a'), []);
  assert.deepEqual(seqsOf(third, 'b'), [last + 2]);
  // the id follows the query's order
  assert.equal(third.lastId, `${channelHash('b')}~${last + 2},${channelHash('a')}~${last + 1}`);
  third.cut();

  // an explicit ~seq wins over the id; a channel the id does not name starts live
  const fourth = await openStream(gwB.realtimeUrl, `/v1/events?channels=a~5,b,c&token=${alice}`, { 'last-event-id': cutAt });
  await fourth.waitFor('three subscribed', () => fourth.frames.filter((f) => f.op === 'subscribed').length === 3);
  assert.deepEqual(seqsOf(fourth, 'a'), upTo(6, last + 1));
  assert.deepEqual(seqsOf(fourth, 'b'), upTo(cutB! + 1, last + 2));
  assert.deepEqual(
    fourth.frames.find((f) => f.op === 'subscribed' && f.channelId === 'c'),
    { op: 'subscribed', channelId: 'c', lastSeq: 0 },
  );
  fourth.cut();
  for (const stream of [first, second, third, fourth]) assertDocumented(stream);
});

test('events - refusals before the stream are HTTP errors in the envelope; a socket quota is a 429', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const gw = cluster.gateways[0]!;
  const control = client(gw.controlUrl, env.secretKey);
  const bob = await mintToken(gw.controlUrl, env.secretKey, 'bob');
  const refused = async (path: string, headers: Record<string, string> = {}) => {
    const stream = await openStream(gw.realtimeUrl, path, headers);
    const code = stream.body?.code;
    assert.equal(stream.headers['x-service-error'], code, `${path}: the envelope`);
    return [stream.status, code, stream.body?.reason] as const;
  };
  const many = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`).join(',');
  assert.deepEqual((await refused(`/v1/events?token=${bob}`)).slice(0, 2), [400, 'invalid_request']);
  assert.deepEqual((await refused(`/v1/events?channels=&token=${bob}`)).slice(0, 2), [400, 'invalid_request']);
  const [status21, code21, reason21] = await refused(`/v1/events?channels=${many(21)}&token=${bob}`);
  assert.deepEqual([status21, code21], [400, 'invalid_request']);
  assert.match(reason21, /at most 20/);
  assert.deepEqual((await refused(`/v1/events?channels=a,a&token=${bob}`)).slice(0, 2), [400, 'invalid_request']);
  assert.deepEqual((await refused(`/v1/events?channels=${encodeURIComponent('a b')}&token=${bob}`)).slice(0, 2), [400, 'invalid_request']);
  assert.deepEqual((await refused(`/v1/events?channels=a~-1&token=${bob}`)).slice(0, 2), [400, 'invalid_request']);
  assert.deepEqual((await refused(`/v1/events?channels=a&token=${bob}`, { 'last-event-id': 'garbage' })).slice(0, 2), [400, 'invalid_request']);
  assert.deepEqual((await refused(`/v1/events?channels=a&token=${bob}&lastEventId=garbage`)).slice(0, 2), [400, 'invalid_request']);
  assert.deepEqual((await refused('/v1/events?channels=a')).slice(0, 2), [401, 'unauthorized']);
  assert.deepEqual((await refused('/v1/events?channels=a&token=garbage')).slice(0, 2), [401, 'unauthorized']);
  assert.deepEqual((await refused('/v1/events?channels=a', { authorization: 'Bearer garbage' })).slice(0, 2), [401, 'unauthorized']);
  // 20 channels are fine
  const twenty = await openStream(gw.realtimeUrl, `/v1/events?channels=${many(20)}&token=${bob}`);
  assert.equal(twenty.status, 200);
  await twenty.waitFor('20 subscribed', () => twenty.frames.filter((f) => f.op === 'subscribed').length === 20);
  twenty.cut();
  await twenty.ended;

  // a stream counts as a socket: over socketsPerUser, the next one is refused with 429
  await admin(cluster.env, ['set-limits', '--env', env.environmentId, '--set', 'socketsPerUser=1', '--json']);
  const carol = await mintToken(gw.controlUrl, env.secretKey, 'carol');
  const held = await openStream(gw.realtimeUrl, `/v1/events?channels=a&token=${carol}`);
  assert.equal(held.status, 200);
  await held.waitFor('subscribed', (f) => f.op === 'subscribed');
  const [quotaStatus, quotaCode, quotaReason] = await refused(`/v1/events?channels=b&token=${carol}`);
  assert.deepEqual([quotaStatus, quotaCode, quotaReason], [429, 'rate_limited', 'too many sockets for this user']);
  held.cut();

  // banned from the environment: 403 banned
  assert.ok((await control.put('/v1/bans/bob', { reason: 'abuse' })).status < 300);
  const [banStatus, banCode] = await refused(`/v1/events?channels=a&token=${bob}`);
  assert.deepEqual([banStatus, banCode], [403, 'banned']);
});

test('events - a kick ends one channel, a refused channel leaves the others, an environment ban closes 4403, expiry closes 4401', async (t) => {
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const control = client(gwA.controlUrl, env.secretKey);
  const sign = await tokenSigner(cluster.db.pool, env.environmentId);
  assert.ok((await control.put('/v1/channels/club', { access: 'members' })).status < 300);
  const mallory = await mintToken(gwA.controlUrl, env.secretKey, 'mallory');

  // the members-only channel is refused at its subscribe; the others go on
  const stream = await openStream(gwB.realtimeUrl, `/v1/events?channels=general,club,random&token=${mallory}`);
  assert.equal(stream.status, 200);
  await stream.waitFor('subscribed twice', () => stream.frames.filter((f) => f.op === 'subscribed').length === 2);
  const refusedClub = await stream.waitFor('club refused', (f) => f.op === 'error' && f.channelId === 'club');
  assert.equal(refusedClub.code, 'forbidden');
  assert.equal(refusedClub.ref, undefined);

  // a channel ban (control plane on gateway A, stream on gateway B) ends that subscription alone
  await control.put('/v1/channels/general/bans/mallory', { reason: 'spam' });
  assert.deepEqual(await stream.waitFor('banned', (f) => f.op === 'unsubscribed'), {
    op: 'unsubscribed',
    channelId: 'general',
    code: 'banned',
    reason: 'spam',
  });
  await control.post('/v1/channels/general/messages', { content: { banned: 'not seen' } });
  await control.post('/v1/channels/random/messages', { content: { still: 'here' } });
  await stream.waitFor('random goes on', (f) => f.channelId === 'random' && f.content?.still === 'here');
  assert.equal(stream.frames.filter((f) => f.content?.banned).length, 0);

  // an environment ban closes the stream: the back-off, then `closed` with 4403, then the end
  await control.put('/v1/bans/mallory', { reason: 'abuse' });
  const closed = await stream.waitFor('closed', (f) => f.op === 'closed');
  assert.equal(closed.code, 4403);
  assert.equal(typeof closed.reason, 'string');
  await stream.ended;
  const at = stream.lines.lastIndexOf(`data: ${JSON.stringify(closed)}`);
  // `retry:` with the back-off for a ban, then the event (its id line, then its data)
  assert.deepEqual(stream.lines.slice(at - 3, at), ['retry: 60000', '', `id: ${stream.events.at(-1)!.id}`]);
  assert.equal(stream.frames.at(-1).op, 'closed');
  assertDocumented(stream);

  // a token's expiry ends the stream with 4401 (there is no auth frame: the client reopens with a new token)
  const expiring = await openStream(gwA.realtimeUrl, `/v1/events?channels=random&token=${await sign('alice', 4)}`);
  assert.equal(expiring.status, 200);
  assert.deepEqual(await expiring.waitFor('expired', (f) => f.op === 'closed'), { op: 'closed', code: 4401, reason: 'token expired' });
  await expiring.ended;
  // every event carries the positions, the last one too
  assert.equal(expiring.events.at(-1)!.id, `${channelHash('random')}~1`);
  assertDocumented(expiring);

  // a gateway that drains ends its streams with 4503 and a short, spread back-off (reconnect elsewhere, resume)
  const draining = await openStream(gwB.realtimeUrl, `/v1/events?channels=random&token=${await mintToken(gwA.controlUrl, env.secretKey, 'dave')}`);
  await draining.waitFor('subscribed', (f) => f.op === 'subscribed');
  const stopped = gwB.stop();
  assert.deepEqual(await draining.waitFor('drained', (f) => f.op === 'closed'), { op: 'closed', code: 4503, reason: 'gateway draining' });
  const retry = Number(
    draining.lines
      .filter((line) => line.startsWith('retry: '))
      .at(-1)!
      .slice('retry: '.length),
  );
  assert.ok(retry >= 1000 && retry <= 3000, `retry ${retry}`);
  await stopped;
});
