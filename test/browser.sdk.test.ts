import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, serveHtml } from './helpers/browser.ts';
import { startCluster, type RunningProcess } from './helpers/cluster.ts';
import { eventually } from './helpers/eventually.ts';
import { client } from './helpers/http.ts';
import { startLoadBalancer } from './helpers/load-balancer.ts';
import { tokenSigner } from './helpers/tokens.ts';

const CHANNELS = Array.from({ length: 50 }, (_, i) => `room-${i}`);
/** Short-lived tokens: the SDK must renew them on the open connection, several times per test. */
const TOKEN_TTL_SECONDS = 10;

/**
 * The page: an application of its own origin that loads the SDK from the realtime edge (through
 * the load balancer) and keeps what it sees in `window.log` for the test to read. Plain
 * JavaScript in the page itself, so nothing of the test's own compilation reaches the browser.
 */
const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>SDK in a browser</title>
<script type="module">
const log = { states: [], received: {}, tokens: 0 };
window.log = log;
let client;

window.start = async (url, channels) => {
  const { createClient } = await import(url + '/sdk/client.js');
  client = createClient({
    url,
    getToken: () => { log.tokens += 1; return window.mintToken(); },
    reconnect: { initialDelayMs: 200, maxDelayMs: 1000 },
  });
  client.on('state', (state, info) => log.states.push({ state, code: info && info.code, connectionId: client.connectionId ?? null }));
  client.on('error', (error) => console.error('client error', error.code, error.reason ?? error.message));
  const subscriptions = channels.map((id) => {
    log.received[id] = [];
    return client.channel(id).subscribe((m) => log.received[id].push({ seq: m.seq, id: m.id, content: m.content }), { since: 0 });
  });
  await Promise.all(subscriptions.map((s) => s.ready));
  return client.connectionId;
};

window.connectionId = () => client.connectionId;
window.state = () => client.state;

window.publishAll = (list) => Promise.all(list.map(([channelId, content]) => client.channel(channelId).publish(content)));

// publishes {p: 1, 2, …} to each channel every everyMs, without waiting for acks, until stopStream();
// resolves with every ack once all of them are in (a rejected publish rejects it)
let streaming = null;
window.startStream = (channels, everyMs) => {
  const acks = [];
  let p = 0;
  const timer = setInterval(() => {
    const n = ++p;
    for (const channelId of channels) acks.push(client.channel(channelId).publish({ p: n }).then((ack) => ({ ...ack, channelId, p: n })));
  }, everyMs);
  streaming = { timer, acks };
};
window.stopStream = () => {
  clearInterval(streaming.timer);
  return Promise.all(streaming.acks);
};
</script>`;

async function metric(internalUrl: string, line: RegExp): Promise<number> {
  const text = await (await fetch(`${internalUrl}/internal/metrics`)).text();
  const match = text.match(line);
  return match ? Number(match[1]) : 0;
}
const connectSockets = (internalUrl: string) => metric(internalUrl, /^gateway_open_sockets\{(?:[^}]*,)?kind="connect"[,}].* (\d+)$/m);
const channelSockets = (internalUrl: string) => metric(internalUrl, /^gateway_open_sockets\{(?:[^}]*,)?kind="channel"[,}].* (\d+)$/m);
const subscriptions = (internalUrl: string) => metric(internalUrl, /^gateway_subscriptions\{.*\} (\d+)$/m);

interface Received {
  seq: number;
  id: string;
  content: { n?: number; p?: number; from?: string };
}

test('browser sdk - 50 channels over one connection, acks, gateway restart and crash with nothing lost or repeated, token renewal in place', async (t) => {
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 1 });
  const gwA = cluster.gateways[0]!;
  const gwB = cluster.gateways[1]!;
  const env = await cluster.createEnvironment();
  // the page publishes 50 messages at once below: a person's rate limit is not what is tested here
  const deploy = await client(gwB.controlUrl, env.secretKey).put('/v1/config', { limits: { userPublishesPerSecond: 10_000 } });
  assert.equal(deploy.status, 200, JSON.stringify(deploy.body));
  const sign = await tokenSigner(cluster.db.pool, env.environmentId);
  let tokensMinted = 0;

  const lb = await startLoadBalancer(t, [gwA.realtimeUrl, gwB.realtimeUrl]);
  const browser = await launchBrowser(t);
  const page = await browser.newPage();
  const sockets: string[] = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  await page.exposeFunction('mintToken', async () => {
    tokensMinted += 1;
    return sign('alice', TOKEN_TTL_SECONDS);
  });
  await page.goto(await serveHtml(t, PAGE));
  const log = () =>
    page.evaluate(
      () =>
        (globalThis as any).log as {
          states: { state: string; code?: number; connectionId: string | null }[];
          received: Record<string, Received[]>;
          tokens: number;
        },
    );

  // ---- one connection, 50 subscriptions
  const firstConnection = await page.evaluate(([url, channels]) => (globalThis as any).start(url, channels), [lb.url, CHANNELS] as const);
  assert.match(firstConnection, /^sock_/);
  assert.equal(sockets.length, 1, `the page opened ${sockets.length} WebSockets: ${sockets.join(', ')}`);
  assert.equal(new URL(sockets[0]!).pathname, '/v1/connect');
  assert.equal(lb.accepted.get(gwA.realtimeUrl) !== undefined, true, 'the page went through the load balancer to the first gateway');
  assert.equal((await connectSockets(gwA.internalUrl)) + (await connectSockets(gwB.internalUrl)), 1, 'one /v1/connect socket in the cluster');
  assert.equal(await subscriptions(gwA.internalUrl), CHANNELS.length, 'every channel subscribed on that one socket');
  assert.equal((await channelSockets(gwA.internalUrl)) + (await channelSockets(gwB.internalUrl)), 0);

  // ---- a server publishes to every channel; the page receives each message
  let publisherUrl = gwB.controlUrl;
  const serverPublish = async (channelId: string, n: number) => {
    const res = await client(publisherUrl, env.secretKey).post(`/v1/channels/${channelId}/messages`, { content: { n } });
    assert.equal(res.status, 201, `publish ${channelId} n=${n}: ${res.status} ${JSON.stringify(res.body)}`);
  };
  await Promise.all(CHANNELS.map((id) => serverPublish(id, 1)));
  await eventually('the page has every server message', async () => Object.values((await log()).received).every((list) => list.length === 1));
  for (const [id, list] of Object.entries((await log()).received))
    assert.deepEqual(
      list.map((m) => [m.seq, m.content.n]),
      [[1, 1]],
      id,
    );

  // ---- the page publishes to every channel and gets an ack for each; the messages come back live
  const acks = await page.evaluate((channels) => (globalThis as any).publishAll(channels.map((id) => [id, { from: 'page' }])), CHANNELS);
  assert.equal(acks.length, CHANNELS.length);
  for (const ack of acks) {
    assert.match(ack.id, /^msg_/);
    assert.equal(ack.seq, 2);
  }
  await eventually('the page receives its own messages', async () => Object.values((await log()).received).every((list) => list.length === 2));
  const afterPublish = await log();
  CHANNELS.forEach((id, i) => assert.deepEqual(afterPublish.received[id]![1], { seq: 2, id: acks[i].id, content: { from: 'page' } }, id));

  // ---- token renewal: tokens live 10 s; the connection must outlive several of them, in place
  const statesBefore = (await log()).states.length;
  const renewalStarted = Date.now();
  const mintedBefore = tokensMinted;
  await eventually(
    'two renewals and the first token long expired',
    async () => tokensMinted >= mintedBefore + 2 && Date.now() - renewalStarted > (TOKEN_TTL_SECONDS + 3) * 1000,
    60_000,
  );
  const afterRenewal = await log();
  assert.deepEqual(afterRenewal.states.slice(statesBefore), [], 'the connection never changed state while its token was renewed');
  assert.equal(await page.evaluate(() => (globalThis as any).connectionId()), firstConnection, 'the same connection');
  assert.equal(sockets.length, 1, 'no new WebSocket');
  const [stillAcked] = await page.evaluate(() => (globalThis as any).publishAll([['room-0', { from: 'page' }]]));
  assert.equal(stillAcked.seq, 3, 'publishing works on the renewed connection');

  // ---- restart (graceful) and crash under a stream: server publishes to all 50 channels in
  // rounds, the page publishes to 5 of them every 100 ms, acks awaited only at the end
  let round = 1;
  let stop = false;
  let roundsDone = 0;
  let publishFailure: unknown;
  const publisher = (async () => {
    while (!stop) {
      round += 1;
      await Promise.all(CHANNELS.map((id) => serverPublish(id, round)));
      roundsDone += 1;
    }
  })().catch((error: unknown) => {
    publishFailure = error;
  });
  const rounds = async (count: number) => {
    const target = roundsDone + count;
    await eventually(
      `${count} more publish rounds`,
      async () => {
        if (publishFailure) throw publishFailure;
        return roundsDone >= target;
      },
      60_000,
    );
  };
  const pageStream = CHANNELS.slice(0, 5);
  await page.evaluate((channels) => (globalThis as any).startStream(channels, 200), pageStream);
  const reconnectedTo = async (gateway: RunningProcess, what: string) => {
    await eventually(
      `${what}: the page is connected again, to ${gateway.name}`,
      async () => {
        const state = await page.evaluate(() => (globalThis as any).state());
        return state === 'connected' && (await connectSockets(gateway.internalUrl)) === 1 && (await subscriptions(gateway.internalUrl)) === CHANNELS.length;
      },
      30_000,
    );
  };
  await rounds(2);

  // the load balancer stops sending new connections to A, then A drains (4503 to the page) and exits
  lb.backends = [gwB.realtimeUrl];
  assert.equal(await gwA.stop(), 0, 'gateway A drained and exited 0');
  await reconnectedTo(gwB, 'after A was stopped');
  await rounds(2);
  const gwA2 = await cluster.start('gateway');
  lb.backends = [gwA2.realtimeUrl, gwB.realtimeUrl];

  // B crashes (SIGKILL: no drain, the TCP connection just ends); the publisher moves to A2 first
  publisherUrl = gwA2.controlUrl;
  await rounds(2);
  await gwB.kill();
  await reconnectedTo(gwA2, 'after B crashed');
  await rounds(2);
  stop = true;
  await publisher;
  if (publishFailure) throw publishFailure;
  const streamAcks = (await page.evaluate(() => (globalThis as any).stopStream())) as { channelId: string; p: number; id: string; seq: number }[];
  assert.ok(streamAcks.length >= pageStream.length * 5, `the page stream published ${streamAcks.length} messages`);

  // ---- every message of every channel, exactly once and in order: the seqs the page received
  // are 1..last with nothing missing or repeated, and last is the channel's newest message
  const control = client(gwA2.controlUrl, env.secretKey);
  const lastSeq = new Map<string, number>();
  for (const id of CHANNELS) {
    const newest = await control.get(`/v1/channels/${id}/history?limit=1`);
    assert.equal(newest.status, 200);
    lastSeq.set(id, newest.body.messages[0].seq);
  }
  await eventually("the page has every message up to each channel's last", async () => {
    const { received } = await log();
    return CHANNELS.every((id) => received[id]!.at(-1)?.seq === lastSeq.get(id));
  });
  const { received, states } = await log();
  for (const id of CHANNELS) {
    const list = received[id]!;
    assert.deepEqual(
      list.map((m) => m.seq),
      Array.from({ length: lastSeq.get(id)! }, (_, i) => i + 1),
      `${id}: seqs received in order, none missing, none twice`,
    );
    assert.equal(new Set(list.map((m) => m.id)).size, list.length, `${id}: no message twice`);
    const ns = list.filter((m) => m.content.n !== undefined).map((m) => m.content.n);
    assert.deepEqual(
      ns,
      Array.from({ length: round }, (_, i) => i + 1),
      `${id}: every server message, in publish order`,
    );
    // the page's publishes are acknowledged concurrently, so their seq order is the server's
    // (and re-sent ones after a reconnect may land later): each once is what counts
    const ps = list.filter((m) => m.content.p !== undefined).map((m) => m.content.p!);
    const acked = streamAcks.filter((a) => a.channelId === id);
    const byNumber = (a: number, b: number) => a - b;
    assert.deepEqual([...ps].sort(byNumber), acked.map((a) => a.p).sort(byNumber), `${id}: every page message once`);
    for (const ack of acked) assert.equal(list.find((m) => m.id === ack.id)?.seq, ack.seq, `${id}: the ack of p=${ack.p} names the delivered message`);
  }

  // the page really went through both: at least three connections (a loaded machine may add a
  // reconnect, e.g. a first attempt that reached the crashed gateway), each announced as connected,
  // and every WebSocket it opened was a /v1/connect, none per channel
  const connections = new Set(states.filter((s) => s.state === 'connected').map((s) => s.connectionId));
  assert.ok(connections.size >= 3, `connections: ${[...connections].join(', ')}`);
  assert.ok(sockets.length >= connections.size, `${sockets.length} WebSockets for ${connections.size} connections`);
  for (const url of sockets) assert.equal(new URL(url).pathname, '/v1/connect', url);
  assert.ok((await log()).tokens >= 3);

  browser.assertNoErrors();
});
