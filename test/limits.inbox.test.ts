/**
 * The inbox's reads on the realtime edge are rate-limited like the other edge reads
 * (docs/limits.md, "Rate limits and socket quotas"): `GET /v1/inbox` weighs by its page size
 * against `userInboxReadsPerSecond`, and so does every page an inbox subscription replays (the
 * inbox socket, `/v1/connect`'s `subscribe-inbox`). One user's flood is refused with 429 / 4429 /
 * an error frame, with `retry-after` 1; another user reads on.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken, request, type HttpResult } from './helpers/http.ts';
import { openSocket } from './helpers/ws.ts';
import { openStream } from './helpers/sse.ts';
import { assertBounded, timed } from './helpers/rate-windows.ts';

const LIMIT = 3;

const count = (results: HttpResult[], status: number) => results.filter((res) => res.status === status).length;

test('limits - the inbox is rate-limited per user: GET /v1/inbox by page size, and the replays of inbox subscriptions', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment('inbox-limits');
  const deployed = await request(gw.controlUrl, 'PUT', '/v1/config', { token: env.secretKey, body: { limits: { userInboxReadsPerSecond: LIMIT } } });
  assert.equal(deployed.status, 200);
  const control = client(gw.controlUrl, env.secretKey);
  for (let n = 0; n < 3; n++) assert.equal((await control.post('/v1/notifications', { userIds: ['alice'], type: 'note', payload: { n } })).status, 202);
  const aliceToken = await mintToken(gw.controlUrl, env.secretKey, 'alice');
  const alice = client(gw.realtimeUrl, aliceToken);
  const bob = client(gw.realtimeUrl, await mintToken(gw.controlUrl, env.secretKey, 'bob'));

  await t.test('a flood of GET /v1/inbox is refused past the limit with 429 rate_limited and retry-after; another user reads on', async () => {
    const [flood, windows] = await timed(() => Promise.all(Array.from({ length: 30 }, () => alice.get('/v1/inbox'))));
    assertBounded('default pages', count(flood, 200), count(flood, 429), 30, LIMIT, windows);
    const refused = flood.find((res) => res.status === 429)!;
    assert.equal(errorCode(refused), 'rate_limited');
    assert.equal(refused.headers.get('retry-after'), '1');
    assert.match(refused.body.reason, /userInboxReadsPerSecond/);
    const other = await bob.get('/v1/inbox');
    assert.equal(other.status, 200, JSON.stringify(other.body));
  });

  await t.test('a page of 500 weighs 10 units: more than the limit, at most one a window', async () => {
    const [flood, windows] = await timed(() => Promise.all(Array.from({ length: 10 }, () => alice.get('/v1/inbox?limit=500'))));
    assertBounded('pages of 500', count(flood, 200), count(flood, 429), 10, 1, windows);
  });

  await t.test('inbox sockets replay within the limit: the rest close with 4429', async () => {
    const sockets = Array.from({ length: 10 }, () => openSocket(gw.realtimeUrl, `/inbox?token=${aliceToken}`));
    const [outcomes, windows] = await timed(() =>
      Promise.all(
        sockets.map((socket) =>
          socket
            .waitFor('ready', (f) => f.op === 'ready')
            .then(
              () => 'ready' as const,
              () => socket.closed.then((c) => c.code),
            ),
        ),
      ),
    );
    assertBounded('inbox sockets', outcomes.filter((o) => o === 'ready').length, outcomes.filter((o) => o === 4429).length, 10, LIMIT, windows);
    await Promise.all(sockets.map((socket) => socket.close()));
  });

  await t.test('subscribe-inbox on /v1/connect: past the limit an error frame rate_limited with retryAfter; the connection stays', async () => {
    const sockets = Array.from({ length: 10 }, () => openSocket(gw.realtimeUrl, `/v1/connect?token=${aliceToken}`));
    await Promise.all(sockets.map((socket) => socket.waitFor('connected', (f) => f.op === 'connected')));
    const [replies, windows] = await timed(() => {
      for (const socket of sockets) socket.send({ op: 'subscribe-inbox', ref: 'i' });
      return Promise.all(sockets.map((socket) => socket.waitFor('answer', (f) => f.ref === 'i' && (f.op === 'inbox-subscribed' || f.op === 'error'), 15_000)));
    });
    const refused = replies.filter((f) => f.op === 'error');
    assertBounded('subscribe-inbox', replies.filter((f) => f.op === 'inbox-subscribed').length, refused.length, 10, LIMIT, windows);
    assert.equal(refused[0].code, 'rate_limited');
    assert.equal(refused[0].retryAfter, 1);
    assert.match(refused[0].reason, /userInboxReadsPerSecond/);
    for (const socket of sockets) assert.equal(socket.ws.readyState, socket.ws.OPEN);
    await Promise.all(sockets.map((socket) => socket.close()));
  });

  await t.test("an event stream's inbox=1: past the limit its stream carries the error frame rate_limited and stays open", async () => {
    const [streams, windows] = await timed(async () => {
      const opened = await Promise.all(
        Array.from({ length: 10 }, () => openStream(gw.realtimeUrl, '/v1/events?channels=&inbox=1', { authorization: `Bearer ${aliceToken}` })),
      );
      await Promise.all(opened.map((stream) => stream.waitFor('the inbox answer', (f) => f.op === 'inbox-subscribed' || f.op === 'error')));
      return opened;
    });
    const answers = streams.map((stream) => stream.frames.find((f) => f.op === 'inbox-subscribed' || f.op === 'error'));
    const refused = answers.filter((f) => f.op === 'error');
    assertBounded('event streams with the inbox', answers.length - refused.length, refused.length, 10, LIMIT, windows);
    assert.equal(refused[0].code, 'rate_limited');
    assert.equal(refused[0].retryAfter, 1);
    for (const stream of streams) stream.cut();
  });
});
