/**
 * HTTP hygiene against real processes: compression of large answers (never of the event stream),
 * the ETag/304 of each encoding, the access log (one line per request and per socket upgrade,
 * route patterns only, no token), the dispatcher's line per failed webhook attempt, and HOST.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { get, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { startCluster, type RunningProcess } from './helpers/cluster.ts';
import { client, mintToken } from './helpers/http.ts';
import { openStream } from './helpers/sse.ts';
import { openSocket } from './helpers/ws.ts';
import { eventually } from './helpers/eventually.ts';
import { enqueue, publishedEvent, startReceiver } from './helpers/webhook-receiver.ts';

/** A GET as sent (fetch would add Accept-Encoding and decompress): status, headers and raw bytes. */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

/** The JSON log lines of a process with `msg`. */
const linesOf = (proc: RunningProcess, msg: string): Record<string, any>[] =>
  proc.output.filter((line) => line.startsWith('{') && line.includes(`"msg":"${msg}`)).map((line) => JSON.parse(line) as Record<string, any>);

test('http - compression, ETags per encoding, the access log, failed webhook attempts', async (t) => {
  const cluster = await startCluster(t, {
    gateways: 1,
    channelNodes: 1,
    dispatchers: 1,
    env: { ACCESS_LOG: 'on', LOG_LEVEL: 'info', WEBHOOK_RETRY_SCHEDULE: '1s,1s', WEBHOOK_TIMEOUT_MS: '1000' },
  });
  const gateway = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();

  await t.test('openapi.json: brotli or gzip as accepted, smaller, the same JSON; a 304 per encoding', async () => {
    const url = `${gateway.controlUrl}/openapi.json`;
    const plain = await rawGet(url);
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-encoding'], undefined);
    const document = JSON.parse(plain.body.toString('utf8'));
    assert.equal(document.openapi, '3.1.0');

    const br = await rawGet(url, { 'accept-encoding': 'gzip, br' });
    assert.equal(br.status, 200);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.match(String(br.headers.vary), /accept-encoding/);
    assert.ok(br.body.length * 5 < plain.body.length, `brotli ${br.body.length} bytes of ${plain.body.length}`);
    assert.deepEqual(brotliDecompressSync(br.body), plain.body);

    const gz = await rawGet(url, { 'accept-encoding': 'gzip' });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.ok(gz.body.length * 4 < plain.body.length, `gzip ${gz.body.length} bytes of ${plain.body.length}`);
    assert.deepEqual(gunzipSync(gz.body), plain.body);

    // each encoding is its own representation: its own ETag, and a 304 for exactly that one
    const tags = new Set([plain.headers.etag, br.headers.etag, gz.headers.etag]);
    assert.equal(tags.size, 3, [...tags].join(' '));
    const revalidated = await rawGet(url, { 'accept-encoding': 'gzip, br', 'if-none-match': br.headers.etag! });
    assert.equal(revalidated.status, 304);
    assert.equal(revalidated.body.length, 0);
    assert.equal((await rawGet(url, { 'if-none-match': plain.headers.etag! })).status, 304);
    assert.equal((await rawGet(url, { 'accept-encoding': 'gzip', 'if-none-match': br.headers.etag! })).status, 200);
    // the same bytes again (compressed once, kept)
    assert.deepEqual((await rawGet(url, { 'accept-encoding': 'br' })).body, br.body);
  });

  await t.test('the SDK bundle is served compressed with a 304 of its own', async () => {
    const url = `${gateway.realtimeUrl}/sdk/client.js`;
    const br = await rawGet(url, { 'accept-encoding': 'br' });
    assert.equal(br.status, 200);
    assert.equal(br.headers['content-encoding'], 'br');
    assert.match(brotliDecompressSync(br.body).toString('utf8'), /createClient/);
    assert.equal((await rawGet(url, { 'accept-encoding': 'br', 'if-none-match': br.headers.etag! })).status, 304);
  });

  await t.test('answers made per request: compressed from 1 KiB, small ones as they are', async () => {
    // a page of 20 messages is over 1 KiB; an error envelope is not
    const api = client(gateway.controlUrl, env.secretKey);
    for (let i = 0; i < 20; i++) assert.equal((await api.post('/v1/channels/compression-room/messages', { content: { text: `message ${i}` } })).status, 201);
    const headers = { authorization: `Bearer ${env.secretKey}`, 'accept-encoding': 'gzip, br' };
    const history = await rawGet(`${gateway.controlUrl}/v1/channels/compression-room/history?limit=50`, headers);
    assert.equal(history.status, 200);
    assert.equal(history.headers['content-encoding'], 'br', `a ${history.body.length}-byte answer`);
    const page = JSON.parse(brotliDecompressSync(history.body).toString('utf8'));
    assert.equal(page.messages.length, 20);
    const small = await rawGet(`${gateway.realtimeUrl}/v1/me`, { 'accept-encoding': 'gzip, br' });
    assert.equal(small.status, 401);
    assert.equal(small.headers['content-encoding'], undefined);
    assert.equal(small.headers['x-service-error'], 'unauthorized');
  });

  const token = await mintToken(gateway.controlUrl, env.secretKey, 'alice');

  await t.test('the event stream is never compressed', async () => {
    const stream = await openStream(gateway.realtimeUrl, `/v1/events?channels=sse-room&token=${token}`, { 'accept-encoding': 'gzip, br, deflate' });
    assert.equal(stream.status, 200);
    assert.match(String(stream.headers['content-type']), /^text\/event-stream/);
    assert.equal(stream.headers['content-encoding'], undefined);
    // a message published before the subscription joined the channel would not be sent (no `since`)
    await stream.waitFor('subscribed', (frame) => frame.op === 'subscribed' && frame.channelId === 'sse-room');
    await client(gateway.controlUrl, env.secretKey).post('/v1/channels/sse-room/messages', { content: { text: 'over the stream' } });
    await stream.waitFor('the message', (frame) => frame.channelId === 'sse-room' && frame.content?.text === 'over the stream');
    stream.cut();
  });

  await t.test('the access log: a line per request with its route pattern, never a token; a socket upgrade once', async () => {
    await rawGet(`${gateway.controlUrl}/v1/channels/compression-room/history?limit=2&unused=1`, { authorization: `Bearer ${env.secretKey}` });
    const socket = openSocket(gateway.realtimeUrl, `/v1/connect?token=${token}`);
    await socket.waitFor('connected', (frame) => frame.op === 'connected');
    for (let i = 0; i < 5; i++) socket.send({ op: 'ping', ref: i });
    await socket.close();

    const lines = await eventually('the event stream and the socket logged', async () => {
      const all = linesOf(gateway, 'request');
      return all.some((l) => l.route === '/v1/events') && all.some((l) => l.route === '/v1/connect') ? all : undefined;
    }).catch((error: Error) => {
      throw new Error(
        `${error.message}; logged: ${linesOf(gateway, 'request')
          .map((l) => `${l.method} ${l.route} ${l.status}`)
          .join(', ')}`,
      );
    });
    const openapi = lines.find((l) => l.route === '/openapi.json' && l.status === 200)!;
    assert.equal(openapi.method, 'GET');
    assert.equal(openapi.host, 'control');
    assert.equal(typeof openapi.ms, 'number');
    assert.equal(typeof openapi.reqId, 'string');
    assert.equal(openapi.environmentId, undefined, 'a public route has no environment');
    assert.ok(lines.some((l) => l.route === '/openapi.json' && l.status === 304));
    const channel = lines.find((l) => l.route === '/v1/channels/:channelId/history')!;
    assert.equal(channel.environmentId, env.environmentId);
    assert.equal(channel.host, 'control');
    const refused = lines.find((l) => l.route === '/v1/me' && l.status === 401)!;
    assert.equal(refused.host, 'realtime');
    // the event stream when it ended: closed by its client (a stream's and a socket's credential is
    // read by their handler, after the hooks: no environment on their lines)
    assert.ok(lines.some((l) => l.route === '/v1/events' && l.status === 200 && l.aborted === true));
    // the upgrade once, as 101; the frames after it are not requests
    const upgrades = lines.filter((l) => l.route === '/v1/connect');
    assert.deepEqual(
      upgrades.map((l) => l.status),
      [101],
    );
    // an explicit request id is the line's
    await rawGet(`${gateway.controlUrl}/openapi.json`, { 'x-request-id': 'req-hygiene-1' });
    await eventually('the request id', async () => linesOf(gateway, 'request').some((l) => l.reqId === 'req-hygiene-1'));
    // no URL as sent: no query string, no token, no key
    const text = gateway.output.join('\n');
    assert.ok(!text.includes(token), 'the token stays out of the log');
    assert.ok(!text.includes(env.secretKey), 'the secret key stays out of the log');
    assert.ok(!text.includes('unused=1'));
  });

  await t.test('a failed webhook attempt is a dispatcher log line: ids, attempt, status, next attempt or dropped', async () => {
    const dispatcher = cluster.dispatchers[0]!;
    const receiver = await startReceiver(t, () => ({ status: 503 }));
    const api = client(gateway.controlUrl, env.secretKey);
    const url = `${receiver.url}?sig=url-credential-123`;
    assert.equal((await api.put('/v1/config', { webhooks: { url } })).status, 200);
    const event = publishedEvent(env.environmentId, 'hook-room', { text: 'payload-marker-456' });
    assert.equal(await enqueue(cluster.db.pool, [event]), 1);
    const failed = await eventually(
      'three failed attempts logged',
      async () => {
        const lines = linesOf(dispatcher, 'webhook attempt failed').filter((l) => l.eventType === event.type);
        return lines.length >= 3 ? lines : undefined;
      },
      30_000,
    );
    assert.deepEqual(
      failed.map((l) => l.attempt),
      [1, 2, 3],
    );
    for (const line of failed) {
      assert.equal(line.statusCode, 503);
      assert.equal(typeof line.deliveryId, 'string');
      assert.ok('endpointId' in line);
      assert.equal(line.url, `${receiver.url}?sig=***`);
    }
    assert.ok(Number.isFinite(Date.parse(failed[0]!.nextAttemptAt)) && failed[0]!.level === 40);
    assert.equal(failed[2]!.dropped, true);
    assert.equal(failed[2]!.level, 50);
    assert.equal(failed[2]!.nextAttemptAt, undefined);
    const text = dispatcher.output.join('\n');
    assert.ok(!text.includes('payload-marker-456'), 'the body stays out of the log');
    assert.ok(!text.includes('url-credential-123'), 'the URL is redacted');
  });
});

/** The first IPv4 address of this machine that is not loopback, if it has one. */
function outsideAddress(): string | undefined {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) if (address.family === 'IPv4' && !address.internal) return address.address;
  }
  return undefined;
}

const reachable = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ host, port, timeout: 5_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });

test('http - HOST chooses the address every listener binds (loopback by default)', async (t) => {
  const cluster = await startCluster(t, { gateways: 0 });
  const loopback = await cluster.start('gateway');
  const listening = JSON.parse(loopback.output.find((line) => line.startsWith('{"msg":"listening"'))!);
  assert.equal(listening.host, '127.0.0.1', 'the default');
  const everywhere = await cluster.start('gateway', { HOST: '0.0.0.0' });
  assert.equal(JSON.parse(everywhere.output.find((line) => line.startsWith('{"msg":"listening"'))!).host, '0.0.0.0');
  const outside = outsideAddress();
  if (outside === undefined) {
    t.diagnostic('no non-loopback IPv4 address here: only the bound addresses are checked');
    return;
  }
  for (const url of [loopback.controlUrl, loopback.realtimeUrl, loopback.internalUrl]) {
    const port = Number(new URL(url).port);
    assert.equal(await reachable('127.0.0.1', port), true, url);
    assert.equal(await reachable(outside, port), false, `${url} must not be reachable at ${outside}`);
  }
  for (const url of [everywhere.controlUrl, everywhere.realtimeUrl, everywhere.internalUrl]) {
    assert.equal(await reachable(outside, Number(new URL(url).port)), true, `${url} at ${outside}`);
  }
});
