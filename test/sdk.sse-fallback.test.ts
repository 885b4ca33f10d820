/**
 * The client SDK on Server-Sent Events (libs/client/README.md, "Transports"): a client whose
 * WebSockets cannot be made uses `GET /v1/events` to receive and HTTP to publish, against real
 * gateways, channel-node, Postgres and NATS, with the same guarantees as on a WebSocket; and it
 * moves back to a WebSocket once one can be made.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { createClient, type Client, type ClientOptions, type Message, type PublishResult, type WebSocketConstructor } from '@rtm/client';
import { startCluster } from './helpers/cluster.ts';
import { client as http, mintToken } from './helpers/http.ts';
import { startTcpProxy } from './helpers/tcp-proxy.ts';
import { tokenSigner } from './helpers/tokens.ts';
import { connected, sleep, until } from './helpers/sdk.ts';

/** A WebSocket constructor that throws while `blocked` says so, as where a proxy lets no WebSocket through. */
function blockableWebSocket(blocked: () => boolean): { Constructor: WebSocketConstructor; made: () => number } {
  let made = 0;
  class Blockable extends WebSocket {
    constructor(address: string) {
      if (blocked()) throw new Error('WebSockets are blocked on this network');
      super(address);
      made += 1;
    }
  }
  return { Constructor: Blockable as unknown as WebSocketConstructor, made: () => made };
}

function sseClient(t: TestContext, url: string, getToken: ClientOptions['getToken'], options: Partial<ClientOptions> = {}): Client {
  const client = createClient({ url, getToken, reconnect: { initialDelayMs: 200, maxDelayMs: 2_000 }, ...options });
  t.after(() => client.close());
  return client;
}

test('sdk sse fallback - WebSockets blocked: subscribe, receive, publish over HTTP, and resume on the other gateway after a crash with no gap or duplicate', async (t) => {
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const [first, second] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const proxy = await startTcpProxy([first.realtimeUrl, second.realtimeUrl]);
  t.after(() => proxy.close());
  const control = http(second.controlUrl, env.secretKey);
  const blocked = blockableWebSocket(() => true);
  const tokenFor = (userId: string) => () => mintToken(second.controlUrl, env.secretKey, userId);
  const reader = sseClient(t, proxy.url, tokenFor('reader'), { WebSocket: blocked.Constructor });
  const writer = sseClient(t, proxy.url, tokenFor('writer'), { WebSocket: blocked.Constructor, maxQueuedPublishes: 1_000 });
  await Promise.all([connected(reader), connected(writer)]);
  assert.equal(reader.transport, 'sse');
  assert.equal(writer.transport, 'sse');
  assert.equal(reader.userId, 'reader');

  // history before the subscription: `since: 0` replays it, then the stream goes live
  for (let n = 0; n < 3; n++) assert.equal((await control.post('/v1/channels/sse-a/messages', { content: { n: `early-${n}` } })).status, 201);
  const channels = ['sse-a', 'sse-b'];
  const received = new Map<string, Message[]>(channels.map((c) => [c, []]));
  const ready = await Promise.all(channels.map((c) => reader.channel(c).subscribe((m) => received.get(c)!.push(m), { since: 0 }).ready));
  assert.deepEqual(ready, [{ lastSeq: 3 }, { lastSeq: 0 }]);
  assert.deepEqual(
    received.get('sse-a')!.map((m) => m.seq),
    [1, 2, 3],
  );
  assert.equal(proxy.open(first.realtimeUrl) >= 1, true, 'the reader streams from the first gateway');

  // the writer publishes over HTTP, ~30/s, racing a kill -9 of the gateway both clients are on
  const perChannel = 40;
  const acks: Array<Promise<PublishResult & { channelId: string; n: number }>> = [];
  for (let i = 0; i < perChannel * channels.length; i++) {
    const channelId = channels[i % channels.length]!;
    const n = Math.floor(i / channels.length);
    acks.push(
      writer
        .channel(channelId)
        .publish({ n })
        .then((ack) => ({ ...ack, channelId, n })),
    );
    if (i === 30) await first.kill();
    await sleep(33);
  }
  const results = await Promise.all(acks);
  await connected(reader);
  assert.equal(reader.transport, 'sse', 'still on SSE: WebSockets are still blocked');
  assert.equal(blocked.made(), 0);

  for (const channelId of channels) {
    const offset = channelId === 'sse-a' ? 3 : 0;
    const acked = results
      .filter((r) => r.channelId === channelId)
      .map((r) => r.seq)
      .sort((a, b) => a - b);
    assert.deepEqual(
      acked,
      Array.from({ length: perChannel }, (_, i) => offset + i + 1),
      `${channelId}: each publish committed once (re-sent with its key when the answer was lost)`,
    );
    await until(`${channelId}: the reader has every message`, () => received.get(channelId)!.length >= offset + perChannel, 30_000);
    await sleep(300);
    const { body } = await control.get(`/v1/channels/${channelId}/history?limit=500`);
    assert.deepEqual(
      received.get(channelId)!.map((m) => m.id),
      body.messages.map((m: Message) => m.id),
      `${channelId}: the reader saw exactly what history holds, once each, in order`,
    );
  }
  assert.ok(proxy.open(second.realtimeUrl) >= 1, 'the reader resumed on the second gateway');

  // retract over HTTP: the reader sees the retraction live
  const retracted: string[] = [];
  reader.channel('sse-b').on('retract', (r) => retracted.push(r.id));
  const target = results.find((r) => r.channelId === 'sse-b')!;
  const retraction = await writer.channel('sse-b').retract(target.id, 'typo');
  // the retraction takes the channel's next place: after every message published to it
  const lastOfB = Math.max(...results.filter((r) => r.channelId === 'sse-b').map((r) => r.seq));
  assert.deepEqual(retraction, { id: target.id, seq: target.seq, eventSeq: lastOfB + 1 });
  await until('the reader saw the retraction', () => retracted.includes(target.id));
});

test('sdk sse fallback - on SSE the client tries WebSockets again and moves to one when it can, with nothing lost or repeated', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const gw = cluster.gateways[0]!;
  const control = http(gw.controlUrl, env.secretKey);
  let blocked = true;
  const sockets = blockableWebSocket(() => blocked);
  const reader = sseClient(t, gw.realtimeUrl, () => mintToken(gw.controlUrl, env.secretKey, 'reader'), {
    WebSocket: sockets.Constructor,
    reconnect: { initialDelayMs: 200, maxDelayMs: 2_000, webSocketRetryMs: 1_500 },
  });
  const transports: string[] = [];
  reader.on('transport', (transport) => transports.push(transport));
  const seen: number[] = [];
  await reader.channel('back').subscribe((m) => seen.push(m.seq), { since: 0 }).ready;
  assert.equal(reader.transport, 'sse');

  let n = 0;
  const publish = async () => assert.equal((await control.post('/v1/channels/back/messages', { content: { n: ++n } })).status, 201);
  for (let i = 0; i < 5; i++) await publish();
  await until('five messages over SSE', () => seen.length === 5);
  await sleep(2_000);
  assert.equal(reader.transport, 'sse', 'WebSockets are still blocked: tried, and the client stays');

  // the network lets WebSockets through again, while messages keep coming
  blocked = false;
  const publishing = (async () => {
    for (let i = 0; i < 20; i++) {
      await publish();
      await sleep(100);
    }
  })();
  await until('back on a WebSocket', () => reader.transport === 'websocket', 20_000);
  await publishing;
  assert.equal(sockets.made(), 1, 'the probe socket is the connection now');
  await until('every message', () => seen.length >= n);
  await sleep(300);
  assert.deepEqual(
    seen,
    Array.from({ length: n }, (_, i) => i + 1),
    'each message once, in order, across the move',
  );
  assert.deepEqual(transports, ['sse', 'websocket']);
  assert.equal(reader.state, 'connected');
  // publishing works on the socket too
  const ack = await reader.channel('back').publish({ n: 'from the socket' });
  assert.equal(ack.seq, n + 1);
});

test('sdk sse fallback - WebSockets reset before they open: after two the client is on SSE; short tokens are renewed by reopening the stream, nothing lost', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const gw = cluster.gateways[0]!;
  const control = http(gw.controlUrl, env.secretKey);
  // WebSockets go to an address that resets every connection, as a proxy that drops upgrades
  const resetting = await startTcpProxy([gw.realtimeUrl]);
  t.after(() => resetting.close());
  resetting.refuse(true);
  let opened = 0;
  class ResetWebSocket extends WebSocket {
    constructor(address: string) {
      const url = new URL(address);
      url.host = new URL(resetting.url).host;
      super(url.toString());
      opened += 1;
    }
  }
  const sign = await tokenSigner(cluster.db.pool, env.environmentId);
  const tokens: string[] = [];
  const reader = sseClient(
    t,
    gw.realtimeUrl,
    async () => {
      const token = await sign('reader', 6);
      tokens.push(token);
      return token;
    },
    { WebSocket: ResetWebSocket as unknown as WebSocketConstructor },
  );
  const transports: string[] = [];
  reader.on('transport', (transport) => transports.push(transport));
  const seen: number[] = [];
  await reader.channel('short').subscribe((m) => seen.push(m.seq), { since: 0 }).ready;
  assert.equal(opened, 2, 'two WebSockets closed before connected');
  assert.deepEqual(transports, ['sse']);

  // 6 s tokens: renewed about a second before expiry, each time on a reopened stream
  const states: string[] = [];
  reader.on('state', (state) => states.push(state));
  let n = 0;
  const before = tokens.length;
  while (tokens.length < before + 3) {
    assert.equal((await control.post('/v1/channels/short/messages', { content: { n: ++n } })).status, 201);
    await sleep(200);
  }
  await until('every message', () => seen.length >= n);
  await sleep(300);
  assert.deepEqual(
    seen,
    Array.from({ length: n }, (_, i) => i + 1),
    'each message once, in order, across the renewals',
  );
  assert.deepEqual(states, [], 'renewed in place: the connection never dropped');
  assert.equal(reader.state, 'connected');
});
