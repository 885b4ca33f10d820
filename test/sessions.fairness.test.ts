import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, mintToken } from './helpers/http.ts';
import { openSocket, type TestSocket } from './helpers/ws.ts';
import { metricTotal } from './helpers/metrics.ts';
import { sdkClient } from './helpers/sdk.ts';

const KIB = 1024;

const SHED = /^gateway_sockets_shed_total(?:\{[^}]*\})? (\S+)/;

test('neighbours - one environment storming subscribes or not reading does not hold up another', async (t) => {
  const cluster = await startCluster(t, { gateways: 0, channelNodes: 1 });
  const A = await cluster.createEnvironment('storming');
  const B = await cluster.createEnvironment('neighbour');

  await t.test("B's subscribe is admitted in turn while A's storm of subscribes is still queued", async () => {
    // one subscribe at a time per environment, two on the gateway: A's storm has to queue
    const gw = await cluster.start('gateway', {
      SUBSCRIBE_CONCURRENCY: '2',
      SUBSCRIBE_CONCURRENCY_PER_ENVIRONMENT: '1',
      MAX_SUBSCRIPTIONS: '1000',
      CONNECT_FRAMES_PER_SECOND: '100000',
    });
    const a = openSocket(gw.realtimeUrl, `/v1/connect?token=${await mintToken(gw.controlUrl, A.secretKey, 'stormer')}`);
    const b = openSocket(gw.realtimeUrl, `/v1/connect?token=${await mintToken(gw.controlUrl, B.secretKey, 'neighbour')}`);
    await a.waitFor('A connected', (f) => f.op === 'connected');
    await b.waitFor('B connected', (f) => f.op === 'connected');
    const STORM = 400;
    for (let i = 0; i < STORM; i++) a.send({ op: 'subscribe', ref: i, channelId: `storm-${i}` });
    // the gateway is working through A's storm
    await a.waitFor("A's first subscribe answered", (f) => f.op === 'subscribed');
    b.send({ op: 'subscribe', ref: 'b', channelId: 'calm' });
    await b.waitFor("B's subscribe answered", (f) => f.op === 'subscribed' && f.ref === 'b', 60_000);
    const answeredBeforeB = a.frames.filter((f) => f.op === 'subscribed').length;
    // in turn: B waited for at most a few of A's, not for A's queue to drain
    assert.ok(answeredBeforeB < STORM / 2, `${answeredBeforeB} of A's ${STORM} subscribes were answered before B's one`);
    // and A's storm is served in full, none refused
    await a.waitFor("A's last subscribe answered", () => a.frames.filter((f) => f.op === 'subscribed').length === STORM, 120_000);
    assert.equal(a.frames.filter((f) => f.op === 'error').length, 0);
    await a.close();
    await b.close();
    await gw.stop();
  });

  await t.test("A's sockets that do not read are shed at A's share of the send budget while B's keep receiving", async () => {
    // a per-socket limit no test here reaches: what sheds A's sockets is A's share (256 KiB) alone
    const gw = await cluster.start('gateway', {
      SOCKET_BUFFER_LIMIT: String(64 * 1024 * KIB),
      SOCKET_SEND_BUDGET: String(256 * 1024 * KIB),
      SOCKET_SEND_BUDGET_PER_ENVIRONMENT: String(256 * KIB),
      HEARTBEAT_MS: '60000',
      SOCKET_CLOSE_GRACE_MS: '60000',
    });
    const aControl = client(gw.controlUrl, A.secretKey);
    const bControl = client(gw.controlUrl, B.secretKey);
    const aToken = await mintToken(gw.controlUrl, A.secretKey, 'sleeper');
    const bToken = await mintToken(gw.controlUrl, B.secretKey, 'reader');
    const ready = (socket: TestSocket) => socket.waitFor('ready', (f) => f.op === 'ready');
    const stalled = Array.from({ length: 4 }, () => openSocket(gw.realtimeUrl, `/v1/channels/flood?token=${aToken}`));
    const reader = openSocket(gw.realtimeUrl, `/v1/channels/calm?token=${bToken}`);
    await Promise.all([...stalled, reader].map(ready));
    for (const sock of stalled) sock.ws.pause();
    const content = { blob: 'x'.repeat(32 * KIB) };
    let published = 0;
    // at most ~10 MiB per socket: far under the per-socket limit and the gateway-wide budget
    while ((await metricTotal(gw.internalUrl, SHED)) < stalled.length && published < 300) {
      await Promise.all(Array.from({ length: 5 }, () => aControl.post('/v1/channels/flood/messages', { content })));
      // B's channel is busy too, and its reader keeps up
      await bControl.post('/v1/channels/calm/messages', { content: { n: published } });
      published += 5;
    }
    assert.equal(await metricTotal(gw.internalUrl, SHED), stalled.length, `after ${published} messages of 32 KiB`);
    const last = await bControl.post('/v1/channels/calm/messages', { content: { last: true } });
    assert.equal((await reader.waitFor('the message after shedding', (f) => f.seq === last.body.seq)).content.last, true);
    assert.equal(reader.ws.readyState, reader.ws.OPEN);
    for (const sock of stalled) {
      sock.ws.resume();
      const closed = await sock.closed;
      assert.deepEqual(closed, { code: 4503, reason: 'slow consumer: reconnect and resume with since' });
    }
    await reader.close();
    await gw.stop();
  });

  await t.test('a full subscribe queue refuses with rate_limited and retryAfter, never unavailable; the SDK subscribes again after it', async (t) => {
    const gw = await cluster.start('gateway', {
      SUBSCRIBE_CONCURRENCY_PER_ENVIRONMENT: '1',
      SUBSCRIBE_QUEUE_PER_ENVIRONMENT: '5',
      MAX_SUBSCRIPTIONS: '1000',
      CONNECT_FRAMES_PER_SECOND: '100000',
    });
    const raw = openSocket(gw.realtimeUrl, `/v1/connect?token=${await mintToken(gw.controlUrl, A.secretKey, 'burst')}`);
    await raw.waitFor('connected', (f) => f.op === 'connected');
    const BURST = 60;
    for (let i = 0; i < BURST; i++) raw.send({ op: 'subscribe', ref: i, channelId: `burst-${i}` });
    await raw.waitFor('every subscribe answered', () => raw.frames.filter((f) => f.op === 'subscribed' || f.op === 'error').length === BURST, 60_000);
    const refusals = raw.frames.filter((f) => f.op === 'error');
    assert.ok(refusals.length > 0, 'the queue of 5 overflowed');
    for (const refusal of refusals) assert.deepEqual([refusal.code, refusal.retryAfter], ['rate_limited', 1], JSON.stringify(refusal));
    await raw.close();

    // the SDK: every channel ends up subscribed, the refused ones after retryAfter
    const sdk = sdkClient(t, gw.realtimeUrl, () => mintToken(gw.controlUrl, A.secretKey, 'patient'));
    const codes: string[] = [];
    const subs = Array.from({ length: 40 }, (_, i) => {
      const channel = sdk.channel(`sdk-${i}`);
      channel.on('error', (error) => codes.push(error.code));
      return channel.subscribe(() => {});
    });
    await Promise.all(subs.map((sub) => sub.ready));
    assert.ok(codes.length > 0, 'some subscribes were refused and retried');
    assert.ok(
      codes.every((code) => code === 'rate_limited'),
      codes.join(' '),
    );
    sdk.close();
    await gw.stop();
  });
});
