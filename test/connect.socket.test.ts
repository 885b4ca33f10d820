import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { startCluster } from './helpers/cluster.ts';
import { client, mintToken } from './helpers/http.ts';
import { tokenSigner } from './helpers/tokens.ts';
import { openSocket, type TestSocket } from './helpers/ws.ts';
import { ConnectServerFrame } from '@rtm/schemas';

/** Every frame a connection received is one of the documented server frames (docs/asyncapi.yaml). */
function assertDocumented(socket: TestSocket): void {
  for (const frame of socket.frames) {
    const parsed = ConnectServerFrame.safeParse(frame);
    assert.ok(parsed.success, `undocumented frame ${JSON.stringify(frame)}`);
  }
}

const connected = (socket: TestSocket) => socket.waitFor('connected', (f) => f.op === 'connected');
const answer = (socket: TestSocket, ref: string | number, op?: string) =>
  socket.waitFor(`answer to ${ref}`, (f) => f.ref === ref && (op === undefined || f.op === op));
const messagesOf = (socket: TestSocket, channelId: string) => socket.frames.filter((f) => f.op === undefined && f.channelId === channelId);

/** Waits until `socket` holds persisted messages of `channelId` up to seq `until`. */
async function messagesUntil(socket: TestSocket, channelId: string, until: number): Promise<any[]> {
  await socket.waitFor(`${channelId} seq ${until}`, (f) => f.op === undefined && f.channelId === channelId && f.seq === until, 20_000);
  return messagesOf(socket, channelId);
}

test('connect - one socket, many channels: replay then live with no gap or duplicate, tagged frames, acks, refusals', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1, env: { MAX_SUBSCRIPTIONS: '4' } });
  const env = await cluster.createEnvironment();
  const gw = cluster.gateways[0]!;
  const control = client(gw.controlUrl, env.secretKey);
  // presence frames are opt-in (channels.joinLeave)
  assert.equal((await control.put('/v1/config', { channels: { access: 'open', joinLeave: true } })).status, 200);
  const alice = await mintToken(gw.controlUrl, env.secretKey, 'alice');
  const bob = await mintToken(gw.controlUrl, env.secretKey, 'bob');

  for (let n = 1; n <= 5; n++) assert.equal((await control.post('/v1/channels/a/messages', { content: { n } })).status, 201);

  const socket = openSocket(gw.realtimeUrl, `/v1/connect?token=${alice}`);
  const hello = await connected(socket);
  assert.equal(hello.userId, 'alice');
  assert.match(hello.connectionId, /^sock_/);
  // and docs/protocol.md shows the prefix the server sends
  const documented = (await readFile(new URL('../docs/protocol.md', import.meta.url), 'utf8')).match(/"connectionId":"([a-z]+_)…"/)?.[1];
  assert.equal(documented, hello.connectionId.slice(0, hello.connectionId.indexOf('_') + 1), "docs/protocol.md's connected frame");
  assert.ok(Date.parse(hello.expiresAt) > Date.now());

  // publishes race the subscription's hand-off from replay to live: every seq arrives once, in order
  const racing = (async () => {
    for (let n = 6; n <= 40; n++) await control.post('/v1/channels/a/messages', { content: { n } });
  })();
  socket.send({ op: 'subscribe', ref: 's-a', channelId: 'a', since: 2 });
  socket.send({ op: 'subscribe', ref: 's-b', channelId: 'b' });
  const subscribedA = await answer(socket, 's-a');
  assert.equal(subscribedA.op, 'subscribed');
  assert.equal(subscribedA.channelId, 'a');
  assert.ok(subscribedA.lastSeq >= 5);
  const subscribedB = await answer(socket, 's-b');
  assert.deepEqual(subscribedB, { op: 'subscribed', ref: 's-b', channelId: 'b', lastSeq: 0 });
  await racing;
  const seen = await messagesUntil(socket, 'a', 40);
  assert.deepEqual(
    seen.map((m) => m.seq),
    Array.from({ length: 38 }, (_, i) => i + 3),
  );
  assert.equal(seen[0].content.n, 3);
  // the message frame is the envelope plus channelId
  assert.deepEqual(Object.keys(seen[0]).sort(), ['channelId', 'content', 'ephemeral', 'id', 'kind', 'retracted', 'sender', 'seq', 'timestamp', 'type']);
  // the replay ends with `subscribed` before any live frame past its lastSeq
  const order = socket.frames.filter((f) => f.channelId === 'a');
  const cut = order.findIndex((f) => f.op === 'subscribed');
  assert.ok(order.slice(0, cut).every((f) => f.seq <= subscribedA.lastSeq));

  // publish and retract over the connection, acked with channelId
  socket.send({ op: 'publish', ref: 1, channelId: 'b', content: { text: 'hi' }, idempotencyKey: 'k1' });
  const ack = await answer(socket, 1);
  assert.equal(ack.op, 'ack');
  assert.equal(ack.channelId, 'b');
  assert.equal(ack.seq, 1);
  const live = await socket.waitFor('b live', (f) => f.op === undefined && f.channelId === 'b' && f.seq === 1);
  assert.deepEqual(live.content, { text: 'hi' });
  // the same idempotency key again: the first result, nothing new
  socket.send({ op: 'publish', ref: 2, channelId: 'b', content: { text: 'hi' }, idempotencyKey: 'k1' });
  assert.equal((await answer(socket, 2)).id, ack.id);
  // publishing needs no subscription
  socket.send({ op: 'publish', ref: 3, channelId: 'elsewhere', content: { x: 1 } });
  assert.equal((await answer(socket, 3)).op, 'ack');
  socket.send({ op: 'retract', ref: 4, channelId: 'b', id: ack.id, reason: 'oops' });
  const retractAck = { ...(await answer(socket, 4)) };
  assert.deepEqual(retractAck, { op: 'ack', ref: 4, channelId: 'b', id: ack.id, seq: 1, retracted: true, eventSeq: retractAck.eventSeq });
  assert.ok(retractAck.eventSeq > 1, 'the retraction took a later seq of the channel');
  const retract = await socket.waitFor('retract frame', (f) => f.op === 'retract' && f.channelId === 'b');
  assert.deepEqual(retract, { channelId: 'b', op: 'retract', id: ack.id, seq: 1, eventSeq: retractAck.eventSeq, reason: 'oops' });

  // presence frames carry channelId
  const other = openSocket(gw.realtimeUrl, `/v1/connect?token=${bob}`);
  await connected(other);
  other.send({ op: 'subscribe', ref: 'x', channelId: 'b' });
  await answer(other, 'x', 'subscribed');
  // (alice's own arrival on b may fall in the same 250 ms window as bob's, so she may be listed too)
  const presence = await socket.waitFor('presence of bob', (f) => f.op === 'presence' && f.joined.includes('bob'));
  assert.deepEqual(Object.keys(presence).sort(), ['channelId', 'joined', 'left', 'op']);
  assert.equal(presence.channelId, 'b');
  assert.deepEqual(presence.left, []);
  assert.ok(
    presence.joined.every((userId: string) => userId === 'alice' || userId === 'bob'),
    JSON.stringify(presence),
  );
  // a message addressed to bob only: bob gets it, alice gets only its seq, so her seqs stay contiguous
  const dm = await control.post('/v1/channels/b/messages', { content: { secret: 1 }, to: ['bob'] });
  assert.equal((await other.waitFor('dm for bob', (f) => f.op === undefined && f.seq === dm.body.seq)).content.secret, 1);
  assert.deepEqual(await socket.waitFor('skip', (f) => f.op === 'skip'), { channelId: 'b', op: 'skip', seq: dm.body.seq });
  assert.equal(socket.frames.filter((f) => f.content?.secret).length, 0);
  // both users are in the roster over HTTP
  const roster = await client(gw.realtimeUrl, alice).get('/v1/channels/b/members');
  assert.deepEqual(
    roster.body.members.map((m: any) => [m.userId, m.online]),
    [
      ['alice', true],
      ['bob', true],
    ],
  );

  // refusals are error frames; the connection stays open
  socket.send({ op: 'subscribe', ref: 'dup', channelId: 'a' });
  assert.deepEqual(await answer(socket, 'dup'), {
    op: 'error',
    ref: 'dup',
    channelId: 'a',
    code: 'invalid_request',
    reason: 'already subscribed to this channel on this connection',
  });
  socket.send({ op: 'subscribe', ref: 'bad', channelId: 'x'.repeat(200) });
  assert.equal((await answer(socket, 'bad')).code, 'invalid_request');
  socket.send({ op: 'subscribe', ref: 'neg', channelId: 'c', since: -1 });
  assert.equal((await answer(socket, 'neg')).code, 'invalid_request');
  socket.send({ op: 'nonsense', ref: 'n' });
  assert.equal((await answer(socket, 'n')).code, 'invalid_request');
  socket.ws.send('{not json');
  await socket.waitFor('malformed', (f) => f.op === 'error' && f.reason === 'malformed JSON');
  await control.put('/v1/channels/secret', { access: 'members' });
  socket.send({ op: 'subscribe', ref: 'sec', channelId: 'secret' });
  assert.deepEqual(
    { ...(await answer(socket, 'sec')), reason: undefined },
    { op: 'error', ref: 'sec', channelId: 'secret', code: 'forbidden', reason: undefined },
  );
  socket.send({ op: 'publish', ref: 'psec', channelId: 'secret', content: {} });
  assert.equal((await answer(socket, 'psec')).code, 'forbidden');
  // MAX_SUBSCRIPTIONS is 4 here: a, b, then c and d fill it, e is refused
  socket.send({ op: 'subscribe', ref: 'c', channelId: 'c' });
  socket.send({ op: 'subscribe', ref: 'd', channelId: 'd' });
  socket.send({ op: 'subscribe', ref: 'e', channelId: 'e' });
  await answer(socket, 'd', 'subscribed');
  assert.deepEqual(await answer(socket, 'e'), {
    op: 'error',
    ref: 'e',
    channelId: 'e',
    code: 'rate_limited',
    reason: 'at most 4 subscriptions per connection',
  });

  // unsubscribe: answered, and nothing more of that channel arrives
  socket.send({ op: 'unsubscribe', ref: 'u', channelId: 'd' });
  assert.deepEqual(await answer(socket, 'u'), { op: 'unsubscribed', ref: 'u', channelId: 'd' });
  socket.send({ op: 'unsubscribe', ref: 'u2', channelId: 'never' });
  assert.deepEqual(await answer(socket, 'u2'), { op: 'unsubscribed', ref: 'u2', channelId: 'never' });
  await control.post('/v1/channels/d/messages', { content: { after: 'unsubscribe' } });
  await control.post('/v1/channels/c/messages', { content: { marker: true } });
  await socket.waitFor('c marker', (f) => f.channelId === 'c' && f.content?.marker === true);
  assert.equal(messagesOf(socket, 'd').length, 0);
  // and a free slot: e can now be subscribed
  socket.send({ op: 'subscribe', ref: 'e2', channelId: 'e' });
  await answer(socket, 'e2', 'subscribed');

  socket.send({ op: 'ping', ref: 'p' });
  assert.deepEqual(await answer(socket, 'p'), { op: 'pong', ref: 'p' });
  // an ephemeral publish reaches subscribers live and is acked
  socket.send({ op: 'publish', ref: 'eph', channelId: 'b', content: { typing: true }, ephemeral: true });
  assert.equal((await answer(socket, 'eph')).ephemeral, true);
  await socket.waitFor('ephemeral frame', (f) => f.channelId === 'b' && f.ephemeral === true);
  await other.close();
  await socket.close();
  assertDocumented(socket);
  assertDocumented(other);
});

test('connect - subscriptions (and channel sockets) opened while the channel is busy see every seq once, in order', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const gw = cluster.gateways[0]!;
  const control = client(gw.controlUrl, env.secretKey);
  const alice = await mintToken(gw.controlUrl, env.secretKey, 'alice');
  const TOTAL = 400;
  let next = 0;
  // 8 publishers keep the channel busy while subscriptions join its feed, snapshot and replay
  const publishers = Array.from({ length: 8 }, async () => {
    while (next < TOTAL) {
      next++;
      const res = await control.post('/v1/channels/hot/messages', { content: {} });
      assert.equal(res.status, 201);
    }
  });
  const sockets: { socket: TestSocket; since: number }[] = [];
  // the channel socket shares the reader: the same guarantee, checked on it too
  const channelSockets: { socket: TestSocket; since: number }[] = [];
  for (let i = 0; i < 12; i++) {
    await new Promise((resolve) => setTimeout(resolve, 40));
    const socket = openSocket(gw.realtimeUrl, `/v1/connect?token=${alice}`);
    await connected(socket);
    const since = i % 3 === 0 ? 0 : Math.max(0, next - 30);
    // two subscriptions of the same feed on one connection would be refused; one per connection
    socket.send({ op: 'subscribe', ref: 'hot', channelId: 'hot', since });
    sockets.push({ socket, since });
    channelSockets.push({ socket: openSocket(gw.realtimeUrl, `/v1/channels/hot?token=${alice}&since=${since}`), since });
  }
  await Promise.all(publishers);
  for (const { socket, since } of channelSockets) {
    await socket.waitFor(`seq ${TOTAL}`, (f) => f.op === undefined && f.seq === TOTAL, 20_000);
    const seqs = socket.frames.filter((f) => f.op === undefined).map((m) => m.seq);
    assert.deepEqual(
      seqs,
      Array.from({ length: TOTAL - since }, (_, i) => since + i + 1),
      `channel socket since ${since}`,
    );
    await socket.close();
  }
  for (const { socket, since } of sockets) {
    const seqs = (await messagesUntil(socket, 'hot', TOTAL)).map((m) => m.seq);
    assert.deepEqual(
      seqs,
      Array.from({ length: TOTAL - since }, (_, i) => since + i + 1),
      `since ${since}`,
    );
    await socket.close();
  }
});

test('connect - a ban or removal ends one subscription; an environment ban closes the connection', async (t) => {
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const control = client(gwA.controlUrl, env.secretKey);
  const mallory = await mintToken(gwA.controlUrl, env.secretKey, 'mallory');
  const socket = openSocket(gwB.realtimeUrl, `/v1/connect?token=${mallory}`);
  await connected(socket);
  for (const channelId of ['general', 'random', 'club']) socket.send({ op: 'subscribe', ref: channelId, channelId });
  await Promise.all(['general', 'random', 'club'].map((ref) => answer(socket, ref, 'subscribed')));

  // a channel ban (control plane on gateway A, socket on gateway B)
  await control.put('/v1/channels/general/bans/mallory', { reason: 'spam' });
  assert.deepEqual(await socket.waitFor('banned', (f) => f.op === 'unsubscribed' && f.channelId === 'general'), {
    op: 'unsubscribed',
    channelId: 'general',
    code: 'banned',
    reason: 'spam',
  });
  // removal from a members-only channel
  await control.put('/v1/channels/club/members/mallory');
  await control.put('/v1/channels/club', { access: 'members' });
  await control.delete('/v1/channels/club/members/mallory');
  const removed = await socket.waitFor('removed', (f) => f.op === 'unsubscribed' && f.channelId === 'club');
  assert.equal(removed.code, 'forbidden');
  // the other subscription goes on
  await control.post('/v1/channels/random/messages', { content: { still: 'here' } });
  await socket.waitFor('random goes on', (f) => f.channelId === 'random' && f.content?.still === 'here');
  await control.post('/v1/channels/general/messages', { content: { banned: 'not seen' } });
  // a new subscribe to the banned channel is refused
  socket.send({ op: 'subscribe', ref: 'again', channelId: 'general' });
  assert.equal((await answer(socket, 'again')).code, 'banned');
  assert.equal(socket.frames.filter((f) => f.content?.banned).length, 0);

  // an environment ban closes the whole connection with 4403
  await control.put('/v1/bans/mallory', { reason: 'abuse' });
  assert.equal((await socket.closed).code, 4403);
  assertDocumented(socket);
  // and a new connection is refused (its token is still valid)
  assert.equal((await openSocket(gwA.realtimeUrl, `/v1/connect?token=${mallory}`).closed).code, 4403);
});

test('connect - inbox over the connection, token renewal in place, expiry, refusals at open', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const other = await cluster.createEnvironment();
  const gw = cluster.gateways[0]!;
  const control = client(gw.controlUrl, env.secretKey);
  const sign = await tokenSigner(cluster.db.pool, env.environmentId);
  const signOther = await tokenSigner(cluster.db.pool, other.environmentId);

  const first = await control.post('/v1/notifications', { userIds: ['alice'], payload: { n: 1 } });
  await control.post('/v1/notifications', { userIds: ['alice'], payload: { n: 2 } });
  const socket = openSocket(gw.realtimeUrl, `/v1/connect?token=${await sign('alice', 3)}`);
  const hello = await connected(socket);
  socket.send({ op: 'subscribe-inbox', ref: 'in', since: first.body.ids[0] });
  await answer(socket, 'in', 'inbox-subscribed');
  assert.deepEqual(
    socket.frames.filter((f) => f.op === 'notification').map((f) => f.payload.n),
    [2],
  );
  await control.post('/v1/notifications', { userIds: ['alice'], payload: { n: 3 } });
  await socket.waitFor('live notification', (f) => f.op === 'notification' && f.payload.n === 3);
  socket.send({ op: 'subscribe-inbox', ref: 'in2' });
  assert.equal((await answer(socket, 'in2')).code, 'invalid_request');

  // renewal: a bad token is refused without closing; a good one moves the expiry past the first one
  socket.send({ op: 'auth', ref: 'bad', token: 'garbage' });
  assert.equal((await answer(socket, 'bad')).code, 'unauthorized');
  socket.send({ op: 'auth', ref: 'renew', token: await sign('alice', 60) });
  const renewed = await answer(socket, 'renew', 'authenticated');
  assert.ok(Date.parse(renewed.expiresAt) > Date.parse(hello.expiresAt) + 30_000);
  await new Promise((resolve) => setTimeout(resolve, 3_500));
  socket.send({ op: 'ping', ref: 'alive' });
  await answer(socket, 'alive', 'pong');

  // unsubscribe-inbox stops notifications
  socket.send({ op: 'unsubscribe-inbox', ref: 'uin' });
  await answer(socket, 'uin', 'inbox-unsubscribed');
  await control.post('/v1/notifications', { userIds: ['alice'], payload: { n: 4 } });
  socket.send({ op: 'ping', ref: 'after' });
  await answer(socket, 'after', 'pong');
  await new Promise((resolve) => setTimeout(resolve, 300));
  assert.equal(socket.frames.filter((f) => f.op === 'notification' && f.payload.n === 4).length, 0);

  // a token of another user closes with 4401
  socket.send({ op: 'auth', ref: 'mallory', token: await sign('mallory', 60) });
  assert.equal((await socket.closed).code, 4401);
  assertDocumented(socket);
  // so does one of another environment
  const second = openSocket(gw.realtimeUrl, `/v1/connect?token=${await sign('alice', 60)}`);
  await connected(second);
  second.send({ op: 'auth', ref: 'x', token: await signOther('alice', 60) });
  assert.equal((await second.closed).code, 4401);

  // without renewal the connection closes with 4401 at expiry
  const expiring = openSocket(gw.realtimeUrl, `/v1/connect?token=${await sign('alice', 2)}`);
  await connected(expiring);
  assert.deepEqual(await expiring.closed, { code: 4401, reason: 'token expired' });

  // refusals at open
  assert.equal((await openSocket(gw.realtimeUrl, '/v1/connect').closed).code, 4401);
  assert.equal((await openSocket(gw.realtimeUrl, '/v1/connect?token=garbage').closed).code, 4401);
  assert.equal((await openSocket(gw.realtimeUrl, `/v1/connect?token=${await sign('alice', 60)}&since=3`).closed).code, 4400);
});
