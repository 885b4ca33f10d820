import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, mintToken } from './helpers/http.ts';
import { openSocket, type TestSocket } from './helpers/ws.ts';
import { clientFrame, rawSocket, textFrame } from './helpers/raw-ws.ts';

const KIB = 1024;

/** `promise`, or a failure naming `what` after `ms`: every wait here has a deadline. */
function within<T>(promise: Promise<T>, what: string, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout;
  const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)));
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/** Reads one counter or gauge from a process's Prometheus text. */
async function metric(internalUrl: string, name: string): Promise<number> {
  const text = await (await fetch(`${internalUrl}/internal/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line ? Number(line.split(' ').at(-1)) : 0;
}

test('hostile sockets - frame size, early frames, inbound rate, send budget: the same close code on every endpoint', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  const control = client(gw.controlUrl, env.secretKey);
  const alice = await mintToken(gw.controlUrl, env.secretKey, 'alice');
  const bob = await mintToken(gw.controlUrl, env.secretKey, 'bob');
  const logsToken = (await control.post(`/v1/environments/${env.environmentId}/logs-token`)).body.token as string;
  const paths = (token: string) => ({
    channel: `/v1/channels/room?token=${token}`,
    inbox: `/inbox?token=${token}`,
    logs: `/v1/environments/${env.environmentId}/logs?token=${logsToken}`,
    connect: `/v1/connect?token=${token}`,
  });
  const ready = (socket: TestSocket) => socket.waitFor('ready', (f) => f.op === 'ready' || f.op === 'connected');

  await t.test('a frame announcing 200 KiB is refused from its header with 4400 on every endpoint', async () => {
    for (const [kind, path] of Object.entries(paths(alice))) {
      const raw = rawSocket(gw.realtimeUrl, path);
      await raw.upgraded;
      // only the header and 1 KiB are sent: an answer proves the gateway did not wait to read the rest
      raw.write(clientFrame(0x1, Buffer.alloc(KIB, 0x20), 200 * KIB));
      const closed = await within(raw.closed, `${kind} close`);
      assert.deepEqual(closed, { code: 4400, reason: 'frame over 131072 bytes' }, kind);
      raw.destroy();
    }
    // the largest legal frame still gets an answer, not a close
    const sock = openSocket(gw.realtimeUrl, paths(alice).channel);
    await ready(sock);
    sock.send({ op: 'ping', ref: 'x'.repeat(10), pad: 'y'.repeat(128 * KIB - 100) });
    await sock.waitFor('answer to a 128 KiB frame', (f) => f.op === 'pong' || f.op === 'error');
    assert.equal(sock.ws.readyState, sock.ws.OPEN);
    await sock.close();
  });

  await t.test('bytes sent before ready are bounded: three 100 KiB frames with the upgrade close 4429', async () => {
    const big = textFrame({ op: 'ping', pad: 'x'.repeat(100 * KIB) });
    const raw = rawSocket(gw.realtimeUrl, `${paths(alice).channel}&since=0`, Buffer.concat([big, big, big]));
    assert.deepEqual(await within(raw.closed, 'close before ready'), { code: 4429, reason: 'rate limited: too much sent before ready' });
    raw.destroy();
    // two are within the bound: both answered after ready
    const fine = rawSocket(gw.realtimeUrl, `${paths(alice).channel}&since=0`, Buffer.concat([big, big]));
    await fine.upgraded;
    const deadline = Date.now() + 10_000;
    const answers = () => fine.frames.filter((f) => f.op === 'pong' || f.op === 'error').length;
    while (answers() < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(answers(), 2);
    assert.equal(fine.frames.find((f) => f.op === 'ready')?.channelId, 'room');
    fine.destroy();
  });

  await t.test('a flooding client gets rate_limited then 4429 on every endpoint; a normal socket keeps working', async () => {
    const normal = openSocket(gw.realtimeUrl, paths(bob).channel);
    await ready(normal);
    for (const [kind, path] of Object.entries(paths(alice))) {
      const flood = openSocket(gw.realtimeUrl, path);
      await ready(flood);
      // the multiplexed socket allows 500 frames/s (CONNECT_FRAMES_PER_SECOND): 2,000 is over every rate
      for (let i = 0; i < 2000 && flood.ws.readyState === flood.ws.OPEN; i++) flood.send({ op: 'ping' });
      const closed = await within(flood.closed, `${kind} flood close`);
      assert.deepEqual(closed, { code: 4429, reason: 'rate limited: too many frames or bytes per second' }, kind);
      assert.ok(
        flood.frames.some((f) => f.op === 'error' && f.code === 'rate_limited'),
        kind,
      );
    }
    normal.send({ op: 'publish', ref: 'still', content: { ok: true } });
    assert.equal((await normal.waitFor('ack', (f) => f.op === 'ack')).ref, 'still');
    await normal.close();
  });

  await t.test('over the send budget, the sockets that do not read are shed with 4503; a reading one keeps receiving', async () => {
    // a low budget; long heartbeat and close grace so the paused clients can read their close frame later
    const small = await cluster.start('gateway', {
      SOCKET_SEND_BUDGET: String(64 * KIB),
      HEARTBEAT_MS: '60000',
      SOCKET_CLOSE_GRACE_MS: '60000',
    });
    const path = `/v1/channels/flood?token=${alice}`;
    const reader = openSocket(small.realtimeUrl, path);
    const stalled = [openSocket(small.realtimeUrl, path), openSocket(small.realtimeUrl, path), openSocket(small.realtimeUrl, path)];
    await Promise.all([reader, ...stalled].map(ready));
    for (const sock of stalled) sock.ws.pause();
    const content = { blob: 'x'.repeat(32 * KIB) };
    let published = 0;
    while ((await metric(small.internalUrl, 'gateway_sockets_shed_total')) < stalled.length && published < 600) {
      await Promise.all(Array.from({ length: 5 }, () => control.post('/v1/channels/flood/messages', { content })));
      published += 5;
    }
    assert.equal(await metric(small.internalUrl, 'gateway_sockets_shed_total'), stalled.length);
    const last = await control.post('/v1/channels/flood/messages', { content: { last: true } });
    assert.equal((await reader.waitFor('the message after shedding', (f) => f.seq === last.body.seq)).content.last, true);
    assert.equal(reader.ws.readyState, reader.ws.OPEN);
    for (const sock of stalled) {
      sock.ws.resume();
      assert.deepEqual(await within(sock.closed, 'shed close'), { code: 4503, reason: 'slow consumer: reconnect and resume with since' });
    }
    await reader.close();
  });
});
