/**
 * Rate limits on the realtime edge's reads and moderation, on socket opens, and the weight of
 * mentions on the publish rate (docs/limits.md, "Rate limits and socket quotas"): one user's
 * flood is refused with 429 / an error frame with retryAfter / 4429, while another user of the
 * same environment, or another environment, goes on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster, type Cluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken, request, type HttpResult } from './helpers/http.ts';
import { openSocket, type TestSocket } from './helpers/ws.ts';
import { assertBounded, timed } from './helpers/rate-windows.ts';

const deploy = (cluster: Cluster, secretKey: string, limits: Record<string, number>) =>
  request(cluster.gateways[0]!.controlUrl, 'PUT', '/v1/config', { token: secretKey, body: { limits } });

const statuses = (results: HttpResult[]) => {
  const counts: Record<number, number> = {};
  for (const res of results) counts[res.status] = (counts[res.status] ?? 0) + 1;
  return counts;
};

function assertRefused(res: HttpResult, limit: string): void {
  assert.equal(res.status, 429);
  assert.equal(errorCode(res), 'rate_limited');
  assert.equal(res.headers.get('retry-after'), '1');
  assert.match(res.body.reason, new RegExp(limit));
}

/** The socket's answer to the frame with `ref`: an ack-like frame or an error. */
const answer = (socket: TestSocket, ref: string) => socket.waitFor(`answer ${ref}`, (f) => f.ref === ref && f.op !== undefined, 15_000);

const mentions = (n: number) => Array.from({ length: n }, (_, i) => `fan-${i}`);

test('limits - reads, retractions and moderation on the realtime edge are limited per user and per environment', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const gw = cluster.gateways[0]!;

  await t.test('a history flood at limit=500 is refused after the limit; another user reads on; small pages cost less', async () => {
    const env = await cluster.createEnvironment('history');
    const control = client(gw.controlUrl, env.secretKey);
    for (let n = 0; n < 3; n++) assert.equal((await control.post('/v1/channels/big/messages', { content: { n } })).status, 201);
    const alice = client(gw.realtimeUrl, await mintToken(gw.controlUrl, env.secretKey, 'alice'));
    const bob = client(gw.realtimeUrl, await mintToken(gw.controlUrl, env.secretKey, 'bob'));
    const carol = client(gw.realtimeUrl, await mintToken(gw.controlUrl, env.secretKey, 'carol'));

    // default userHistoryReadsPerSecond: 100 units; a page of 500 weighs 10, so at most 10 a window
    const [flood, windows] = await timed(() => Promise.all(Array.from({ length: 60 }, () => alice.get('/v1/channels/big/history?limit=500'))));
    const counts = statuses(flood);
    assertBounded('pages of 500', counts[200] ?? 0, counts[429] ?? 0, 60, 10, windows);
    assertRefused(flood.find((res) => res.status === 429)!, 'userHistoryReadsPerSecond');

    // another user of the same environment is not affected
    const other = await bob.get('/v1/channels/big/history?limit=500');
    assert.equal(other.status, 200);
    assert.equal(other.body.messages.length, 3);

    // the same number of default pages (50 messages: one unit each) all pass
    const small = await Promise.all(Array.from({ length: 60 }, () => carol.get('/v1/channels/big/history')));
    assert.deepEqual(statuses(small), { 200: 60 });
  });

  await t.test('the roster, retractions and moderation, over HTTP and both sockets', async () => {
    const env = await cluster.createEnvironment('edge');
    const control = client(gw.controlUrl, env.secretKey);
    assert.equal((await deploy(cluster, env.secretKey, { userRosterReadsPerSecond: 3, userRetractsPerSecond: 3, userModerationsPerSecond: 3 })).status, 200);
    assert.equal((await control.put('/v1/channels/room/members/mod', { role: 'moderator' })).status, 200);
    const published = await control.post('/v1/channels/room/messages', { content: { n: 1 } });
    assert.equal(published.status, 201);
    const modToken = await mintToken(gw.controlUrl, env.secretKey, 'mod');
    const mod = client(gw.realtimeUrl, modToken);
    const dave = client(gw.realtimeUrl, await mintToken(gw.controlUrl, env.secretKey, 'dave'));

    const [roster, rosterWindows] = await timed(() => Promise.all(Array.from({ length: 20 }, () => mod.get('/v1/channels/room/members'))));
    assertBounded('roster', statuses(roster)[200] ?? 0, statuses(roster)[429] ?? 0, 20, 3, rosterWindows);
    assertRefused(roster.find((res) => res.status === 429)!, 'userRosterReadsPerSecond');
    assert.equal((await dave.get('/v1/channels/room/members')).status, 200);

    // retracting a message that is not there is 404 while under the rate, 429 past it
    const [retracts, retractsWindows] = await timed(() =>
      Promise.all(Array.from({ length: 20 }, () => mod.delete('/v1/channels/room/messages/msg_00000000000000000000000000'))),
    );
    assertBounded('retract', statuses(retracts)[404] ?? 0, statuses(retracts)[429] ?? 0, 20, 3, retractsWindows);
    assertRefused(retracts.find((res) => res.status === 429)!, 'userRetractsPerSecond');

    const [bans, bansWindows] = await timed(() => Promise.all(Array.from({ length: 20 }, (_, i) => mod.delete(`/v1/channels/room/bans/user-${i}`))));
    assertBounded('unban', statuses(bans)[204] ?? 0, statuses(bans)[429] ?? 0, 20, 3, bansWindows);
    assertRefused(bans.find((res) => res.status === 429)!, 'userModerationsPerSecond');

    // /v1/connect: retract and moderation frames get an error frame with retryAfter; the connection stays
    const connect = openSocket(gw.realtimeUrl, `/v1/connect?token=${modToken}`);
    await connect.waitFor('connected', (f) => f.op === 'connected');
    const [answers, frameWindows] = await timed(() => {
      for (let i = 0; i < 20; i++) connect.send({ op: 'retract', ref: `r${i}`, channelId: 'room', id: 'msg_00000000000000000000000000' });
      for (let i = 0; i < 20; i++) connect.send({ op: 'unban-member', ref: `b${i}`, channelId: 'room', userId: `user-${i}` });
      return Promise.all(
        [...Array.from({ length: 20 }, (_, i) => `r${i}`), ...Array.from({ length: 20 }, (_, i) => `b${i}`)].map((ref) => answer(connect, ref)),
      );
    });
    const limited = answers.filter((f) => f.op === 'error' && f.code === 'rate_limited');
    const limitedRetracts = limited.filter((f) => f.ref.startsWith('r')).length;
    const limitedBans = limited.filter((f) => f.ref.startsWith('b')).length;
    assertBounded('retract frames', 20 - limitedRetracts, limitedRetracts, 20, 3, frameWindows);
    assertBounded('unban frames', 20 - limitedBans, limitedBans, 20, 3, frameWindows);
    assert.ok(limited.every((f) => f.retryAfter === 1 && f.channelId === 'room'));
    assert.match(limited.find((f) => f.ref.startsWith('r'))!.reason, /userRetractsPerSecond/);
    assert.match(limited.find((f) => f.ref.startsWith('b'))!.reason, /userModerationsPerSecond/);
    connect.send({ op: 'ping', ref: 'alive' });
    await connect.waitFor('pong', (f) => f.op === 'pong' && f.ref === 'alive');

    // the channel socket: the same error frame, and the socket stays open
    const channel = openSocket(gw.realtimeUrl, `/v1/channels/room?token=${modToken}`);
    await channel.waitFor('ready', (f) => f.op === 'ready');
    const [channelAnswers, channelWindows] = await timed(() => {
      for (let i = 0; i < 20; i++) channel.send({ op: 'retract', ref: `c${i}`, id: 'msg_00000000000000000000000000' });
      return Promise.all(Array.from({ length: 20 }, (_, i) => answer(channel, `c${i}`)));
    });
    const channelLimited = channelAnswers.filter((f) => f.op === 'error' && f.code === 'rate_limited');
    assertBounded('channel socket retract frames', 20 - channelLimited.length, channelLimited.length, 20, 3, channelWindows);
    assert.ok(channelLimited.every((f) => f.retryAfter === 1));
    channel.send({ op: 'ping', ref: 'alive' });
    await channel.waitFor('pong', (f) => f.op === 'pong' && f.ref === 'alive');
    await Promise.all([connect.close(), channel.close()]);
  });

  await t.test('the environment total holds many users, each under their own limit; another environment reads on', async () => {
    const env = await cluster.createEnvironment('total');
    const neighbour = await cluster.createEnvironment('neighbour');
    assert.equal((await deploy(cluster, env.secretKey, { environmentEdgeReadsPerSecond: 20 })).status, 200);
    const users = await Promise.all(Array.from({ length: 5 }, (_, i) => mintToken(gw.controlUrl, env.secretKey, `reader-${i}`)));
    // each user asks for 30 units (three pages of 500), under their own 100; together 150 against 20
    const [reads, windows] = await timed(() =>
      Promise.all(users.flatMap((token) => Array.from({ length: 3 }, () => client(gw.realtimeUrl, token).get('/v1/channels/any/history?limit=500')))),
    );
    const counts = statuses(reads);
    assertBounded('pages of 500 against a total of 20 units', counts[200] ?? 0, counts[429] ?? 0, 15, 2, windows);
    assertRefused(reads.find((res) => res.status === 429)!, 'environmentEdgeReadsPerSecond');
    const outsider = client(gw.realtimeUrl, await mintToken(gw.controlUrl, neighbour.secretKey, 'reader-0'));
    assert.equal((await outsider.get('/v1/channels/any/history?limit=500')).status, 200);
  });

  await t.test('a replay on a socket weighs as history', async () => {
    const env = await cluster.createEnvironment('replay');
    const control = client(gw.controlUrl, env.secretKey);
    assert.equal((await deploy(cluster, env.secretKey, { userHistoryReadsPerSecond: 2 })).status, 200);
    for (let n = 0; n < 120; n++) assert.equal((await control.post('/v1/channels/long/messages', { content: { n } })).status, 201);
    const token = await mintToken(gw.controlUrl, env.secretKey, 'resumer');
    // 120 messages to replay weigh 3 units, more than the limit of 2: such a replay counts as the
    // whole limit, so one fits a window and the others of a burst wait for a later one
    const sockets = Array.from({ length: 5 }, () => openSocket(gw.realtimeUrl, `/v1/connect?token=${token}`));
    await Promise.all(sockets.map((socket) => socket.waitFor('connected', (f) => f.op === 'connected')));
    const [replies, windows] = await timed(() => {
      for (const socket of sockets) socket.send({ op: 'subscribe', ref: 's', channelId: 'long', since: 0 });
      return Promise.all(sockets.map((socket) => answer(socket, 's')));
    });
    const subscribed = replies.filter((f) => f.op === 'subscribed');
    const refused = replies.filter((f) => f.op === 'error' && f.code === 'rate_limited');
    assert.ok(subscribed.length >= 1, JSON.stringify(replies));
    assertBounded('replays of 120', subscribed.length, refused.length, 5, 1, windows);
    assert.equal(refused[0].retryAfter, 1);
    assert.match(refused[0].reason, /userHistoryReadsPerSecond/);
    // a subscription without a replay reads no history
    const live = sockets[sockets.findIndex((_, i) => replies[i]!.op === 'error')]!;
    live.send({ op: 'subscribe', ref: 'live', channelId: 'long' });
    assert.equal((await answer(live, 'live')).op, 'subscribed');
    // the channel socket: refused at open with 4429
    const channels = Array.from({ length: 5 }, () => openSocket(gw.realtimeUrl, `/v1/channels/long?token=${token}&since=0`));
    const [codes, openWindows] = await timed(() =>
      Promise.all(
        channels.map((socket) =>
          socket
            .waitFor('ready', (f) => f.op === 'ready')
            .then(
              () => 'ready',
              () => socket.closed.then((c) => c.code),
            ),
        ),
      ),
    );
    assertBounded(
      'channel sockets with a replay of 120',
      codes.filter((code) => code === 'ready').length,
      codes.filter((code) => code === 4429).length,
      5,
      1,
      openWindows,
    );
    await Promise.all([...sockets, ...channels].map((socket) => socket.close()));
  });
});

test('limits - socket opens are limited per user: churn is refused with 4429 before the socket goes live', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment('churn');
  const churner = await mintToken(gw.controlUrl, env.secretKey, 'churner');
  const listenerToken = await mintToken(gw.controlUrl, env.secretKey, 'listener');

  const listener = openSocket(gw.realtimeUrl, `/v1/channels/lobby?token=${listenerToken}`);
  await listener.waitFor('ready', (f) => f.op === 'ready');

  /** Opens one socket and returns how it went: 'live' (ready/connected, then closed by us) or its close code. */
  const once = async (path: string, live: (f: any) => boolean): Promise<{ outcome: 'live' | number; reason?: string; frames: any[] }> => {
    const socket = openSocket(gw.realtimeUrl, path);
    // waitFor rejects when the socket closes first: then the outcome is its close code
    const outcome = await socket.waitFor('live', live, 15_000).then(
      () => 'live' as const,
      () => socket.closed.then((closed) => closed.code),
    );
    const closed = outcome === 'live' ? await socket.close() : await socket.closed;
    return { outcome, reason: closed.reason, frames: socket.frames };
  };

  // five loops that open, wait for ready and close, for three seconds, against a limit of 5 opens a
  // second: even a loaded machine that opens only a few sockets a second per loop goes over it (the
  // default of 30 needs over 30 opens a second, which a busy CI machine may not reach)
  const LIMIT = 5;
  assert.equal((await deploy(cluster, env.secretKey, { userSocketOpensPerSecond: LIMIT })).status, 200);
  const results: Awaited<ReturnType<typeof once>>[] = [];
  const [, windows] = await timed(async () => {
    const until = Date.now() + 3_000;
    await Promise.all(
      Array.from({ length: 5 }, async () => {
        while (Date.now() < until) results.push(await once(`/v1/channels/lobby?token=${churner}`, (f) => f.op === 'ready'));
      }),
    );
  });
  const refused = results.filter((r) => r.outcome === 4429);
  const live = results.filter((r) => r.outcome === 'live');
  assert.ok(refused.length > 0, `no socket refused among ${results.length} opens (${live.length} live)`);
  assert.ok(live.length <= LIMIT * windows, `${live.length} sockets went live in ${windows} one-second windows`);
  assert.equal(results.length, refused.length + live.length, JSON.stringify(results.filter((r) => r.outcome !== 'live' && r.outcome !== 4429)));
  assert.match(refused[0]!.reason ?? '', /sockets opened per second/);
  // a refused socket never went live: no ready, so no presence either
  assert.ok(refused.every((r) => !r.frames.some((f) => f.op === 'ready')));

  // another user opens at once; the listener stayed open throughout
  const other = await once(`/v1/channels/lobby?token=${listenerToken}`, (f) => f.op === 'ready');
  assert.equal(other.outcome, 'live');
  assert.equal(listener.ws.readyState, listener.ws.OPEN);
  await listener.close();

  // /v1/connect and the inbox socket count too (a low limit: a burst of 20 admits at most 2 windows of 3)
  assert.equal((await deploy(cluster, env.secretKey, { userSocketOpensPerSecond: 3 })).status, 200);
  for (const [path, live] of [
    [`/v1/connect?token=${churner}`, (f: any) => f.op === 'connected'],
    [`/inbox?token=${churner}`, (f: any) => f.op === 'ready'],
  ] as const) {
    const [burst, windows] = await timed(() => Promise.all(Array.from({ length: 20 }, () => once(path, live))));
    const burstRefused = burst.filter((r) => r.outcome === 4429);
    assertBounded(path.split('?')[0]!, burst.filter((r) => r.outcome === 'live').length, burstRefused.length, 20, 3, windows);
    assert.ok(burstRefused.every((r) => /sockets opened per second/.test(r.reason ?? '')));
  }
});

test('limits - mentions weigh on the publish rate: a mention-heavy loop is refused sooner, on every publish path', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment('mentions');

  // default userPublishesPerSecond (50): 20 publishes fit; with 100 mentions each weighs 11
  const plain = client(gw.realtimeUrl, await mintToken(gw.controlUrl, env.secretKey, 'plain'));
  const quiet = await Promise.all(Array.from({ length: 20 }, (_, i) => plain.post('/v1/channels/hall/messages', { content: { i } })));
  assert.deepEqual(statuses(quiet), { 201: 20 });

  const loud = client(gw.realtimeUrl, await mintToken(gw.controlUrl, env.secretKey, 'loud'));
  const [heavy, windows] = await timed(() =>
    Promise.all(Array.from({ length: 20 }, (_, i) => loud.post('/v1/channels/hall/messages', { content: { i }, mentions: mentions(100) }))),
  );
  const counts = statuses(heavy);
  // 11 units each: at most 4 of them in a window of 50
  assertBounded('publishes with 100 mentions', counts[201] ?? 0, counts[429] ?? 0, 20, 4, windows);
  assertRefused(heavy.find((res) => res.status === 429)!, 'userPublishesPerSecond');

  // batch publish: each message weighs with its own mentions
  const batcher = client(gw.realtimeUrl, await mintToken(gw.controlUrl, env.secretKey, 'batcher'));
  const [batch, batchWindows] = await timed(() =>
    batcher.post('/v1/messages/batch', {
      messages: Array.from({ length: 20 }, (_, i) => ({ channelId: 'hall', content: { i }, mentions: mentions(100) })),
    }),
  );
  assert.equal(batch.status, 200);
  const batchRefused = batch.body.results.filter((r: any) => r.error?.code === 'rate_limited').length;
  assertBounded('batch messages with 100 mentions', batch.body.results.filter((r: any) => r.seq !== undefined).length, batchRefused, 20, 4, batchWindows);

  // /v1/connect: error frames with retryAfter, the connection stays open
  const socketToken = await mintToken(gw.controlUrl, env.secretKey, 'socketeer');
  const connect = openSocket(gw.realtimeUrl, `/v1/connect?token=${socketToken}`);
  await connect.waitFor('connected', (f) => f.op === 'connected');
  const [answers, socketWindows] = await timed(() => {
    for (let i = 0; i < 20; i++) connect.send({ op: 'publish', ref: `p${i}`, channelId: 'hall', content: { i }, mentions: mentions(100) });
    return Promise.all(Array.from({ length: 20 }, (_, i) => answer(connect, `p${i}`)));
  });
  const limited = answers.filter((f) => f.op === 'error' && f.code === 'rate_limited');
  assertBounded('socket publishes with 100 mentions', answers.filter((f) => f.op === 'ack').length, limited.length, 20, 4, socketWindows);
  assert.ok(limited.every((f) => f.retryAfter === 1));
  await connect.close();

  // the channel socket: over the rate it closes with 4429, as for any publish flood
  const channelToken = await mintToken(gw.controlUrl, env.secretKey, 'channeler');
  const channel = openSocket(gw.realtimeUrl, `/v1/channels/hall?token=${channelToken}`);
  await channel.waitFor('ready', (f) => f.op === 'ready');
  for (let i = 0; i < 20; i++) channel.send({ op: 'publish', ref: `q${i}`, content: { i }, mentions: mentions(100) });
  const outcome = await Promise.race([
    channel.closed.then((closed) => closed.code),
    new Promise<string>((resolve) => setTimeout(resolve, 15_000, 'still open')),
  ]);
  assert.equal(outcome, 4429);
});
