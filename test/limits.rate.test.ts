import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { startCluster, type Cluster } from './helpers/cluster.ts';
import { errorCode, mintToken, request } from './helpers/http.ts';
import { openSocket } from './helpers/ws.ts';

const deploy = (cluster: Cluster, secretKey: string, limits: Record<string, number>) =>
  request(cluster.gateways[0]!.controlUrl, 'PUT', '/v1/config', { token: secretKey, body: { limits } });

/** Waits for the start of a one-second window, so a short burst falls inside one window. */
async function windowStart(): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 1_000 - (Date.now() % 1_000) + 5));
  return Math.floor(Date.now() / 1_000);
}

/** An anonymous mint from a chosen local address (127.0.0.x are all this machine). */
function mintFrom(controlUrl: string, publishableKey: string, localAddress: string): Promise<{ status: number; reason?: string }> {
  const url = new URL('/v1/tokens/anonymous', controlUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'POST', localAddress, headers: { 'x-service-key': publishableKey } }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, reason: text ? (JSON.parse(text) as { reason?: string }).reason : undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('limits - a user over its publish rate gets 429 with retry-after on HTTP and 4429 on the socket, counted together', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const gateway = cluster.gateways[0]!;
  const env = await cluster.createEnvironment('rate');
  assert.equal((await deploy(cluster, env.secretKey, { userPublishesPerSecond: 5 })).status, 200);
  const token = await mintToken(gateway.controlUrl, env.secretKey, 'alice');
  const publish = () => request(gateway.realtimeUrl, 'POST', '/v1/channels/room/messages', { token, body: { content: { n: 1 } } });

  // HTTP: 30 at once span at most two windows, so at most 10 are admitted
  const burst = await Promise.all(Array.from({ length: 30 }, publish));
  const refused = burst.filter((res) => res.status === 429);
  assert.ok(burst.filter((res) => res.status === 201).length <= 10);
  assert.ok(refused.length >= 20);
  assert.equal(errorCode(refused[0]!), 'rate_limited');
  assert.equal(refused[0]!.headers.get('retry-after'), '1');
  assert.match(refused[0]!.body.reason, /userPublishesPerSecond/);

  // socket: a flood of publishes closes the socket with 4429
  const flood = openSocket(gateway.realtimeUrl, `/v1/channels/room?token=${token}`);
  await flood.waitFor('ready', (frame) => frame.op === 'ready');
  for (let i = 0; i < 30; i++) flood.send({ op: 'publish', ref: `r${i}`, content: { i } });
  const floodOutcome = await Promise.race([
    flood.closed.then((closed) => closed.code),
    new Promise<string>((resolve) => setTimeout(resolve, 10_000, 'still open')),
  ]);
  assert.equal(floodOutcome, 4429);
  await flood.close();

  // together: the window's admissions spent over HTTP leave none for the socket
  for (let attempt = 0; ; attempt++) {
    const socket = openSocket(gateway.realtimeUrl, `/v1/channels/room?token=${token}`);
    await socket.waitFor('ready', (frame) => frame.op === 'ready');
    const window = await windowStart();
    const spent = await Promise.all(Array.from({ length: 5 }, publish));
    socket.send({ op: 'publish', ref: 'last', content: { last: true } });
    const outcome = await Promise.race([
      socket.closed.then((closed) => closed.code),
      socket.waitFor('ack', (frame) => frame.op === 'ack' && frame.ref === 'last').then(() => 'ack' as const),
    ]);
    const sameWindow = Math.floor(Date.now() / 1_000) === window && spent.every((res) => res.status === 201);
    if (sameWindow || attempt === 4) {
      assert.ok(sameWindow, 'the burst never fitted in one window');
      assert.equal(outcome, 4429);
      break;
    }
    await socket.close();
  }
});

test('limits - anonymous mints are limited per client IP and per publishable key', async (t) => {
  const cluster = await startCluster(t, { gateways: 1 });
  const gateway = cluster.gateways[0]!;
  const env = await cluster.createEnvironment('anon');

  // per IP: one address spends its share, another address in the same window still mints
  assert.equal((await deploy(cluster, env.secretKey, { anonymousMintsPerIpPerSecond: 3, anonymousMintsPerKeyPerSecond: 1000 })).status, 200);
  for (let attempt = 0; ; attempt++) {
    const window = await windowStart();
    const first = await Promise.all(Array.from({ length: 10 }, () => mintFrom(gateway.controlUrl, env.publishableKey, '127.0.0.1')));
    const other = await mintFrom(gateway.controlUrl, env.publishableKey, '127.0.0.2');
    if (Math.floor(Date.now() / 1_000) === window || attempt === 4) {
      assert.equal(first.filter((res) => res.status === 201).length, 3);
      assert.ok(first.filter((res) => res.status === 429).every((res) => /anonymousMintsPerIpPerSecond/.test(res.reason ?? '')));
      assert.equal(other.status, 201);
      break;
    }
  }

  // per key: two addresses together are held to the key's limit
  assert.equal((await deploy(cluster, env.secretKey, { anonymousMintsPerIpPerSecond: 1000, anonymousMintsPerKeyPerSecond: 4 })).status, 200);
  const mints = await Promise.all(Array.from({ length: 40 }, (_, i) => mintFrom(gateway.controlUrl, env.publishableKey, i % 2 ? '127.0.0.1' : '127.0.0.3')));
  assert.ok(mints.filter((res) => res.status === 201).length <= 8);
  assert.ok(mints.filter((res) => res.status === 429).every((res) => /anonymousMintsPerKeyPerSecond/.test(res.reason ?? '')));
});

test('limits - the secret key default is high: a burst of a few hundred requests is not limited', async (t) => {
  const cluster = await startCluster(t, { gateways: 1 });
  const gateway = cluster.gateways[0]!;
  const env = await cluster.createEnvironment('backend');
  const burst = await Promise.all(
    Array.from({ length: 300 }, (_, i) => request(gateway.controlUrl, 'POST', '/v1/tokens', { token: env.secretKey, body: { userId: `u${i}` } })),
  );
  assert.deepEqual([...new Set(burst.map((res) => res.status))], [201]);
  const config = await request(gateway.controlUrl, 'GET', '/v1/config', { token: env.secretKey });
  assert.equal(config.body.config.limits.secretKeyRequestsPerSecond, 10_000);
});
