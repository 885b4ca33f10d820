/**
 * The SDK's browser bundle on a network that blocks WebSockets (libs/client/README.md,
 * "Transports"): Chromium with `window.WebSocket` replaced by a constructor that throws. The page
 * loads the bundle from the realtime edge, and the client falls back by itself to Server-Sent
 * Events (fetch with a streaming body and the `Authorization` header) and HTTP publishes: it
 * subscribes, receives, publishes, and resumes after a cut with nothing lost or repeated.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, serveHtml } from './helpers/browser.ts';
import { startCluster } from './helpers/cluster.ts';
import { eventually } from './helpers/eventually.ts';
import { client, mintToken } from './helpers/http.ts';
import { startTcpProxy } from './helpers/tcp-proxy.ts';

const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>SDK without WebSockets</title>
<script>
// a network that lets no WebSocket through: constructing one throws
window.WebSocket = function WebSocket() { throw new DOMException('WebSockets are blocked here', 'SecurityError'); };
</script>
<script type="module">
const log = { states: [], transports: [], received: [], errors: [] };
window.log = log;
let client;
window.start = async (url, channelId) => {
  const { createClient } = await import(url + '/sdk/client.js');
  client = createClient({ url, getToken: () => window.mintToken(), reconnect: { initialDelayMs: 200, maxDelayMs: 1000 } });
  client.on('state', (state, info) => log.states.push({ state, code: info && info.code }));
  client.on('transport', (transport) => log.transports.push(transport));
  client.on('error', (error) => log.errors.push(error.code + ': ' + (error.reason ?? error.message)));
  const sub = client.channel(channelId).subscribe((m) => log.received.push({ seq: m.seq, content: m.content, sender: m.sender.id }), { since: 0 });
  return { ready: await sub.ready, transport: client.transport };
};
window.publish = (channelId, content) => client.channel(channelId).publish(content);
window.transport = () => client.transport;
</script>`;

interface PageLog {
  states: { state: string; code?: number }[];
  transports: string[];
  received: { seq: number; content: { n: number | string }; sender: string }[];
  errors: string[];
}

test('browser sdk fallback - window.WebSocket throws: the bundle subscribes, receives and publishes over SSE and HTTP, and resumes after a cut', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const gw = cluster.gateways[0]!;
  const control = client(gw.controlUrl, env.secretKey);
  const proxy = await startTcpProxy([gw.realtimeUrl]);
  t.after(() => proxy.close());
  const publish = async (n: number) => assert.equal((await control.post('/v1/channels/lobby/messages', { content: { n } })).status, 201);
  for (let n = 1; n <= 2; n++) await publish(n);

  const browser = await launchBrowser(t);
  const page = await browser.newPage();
  const sockets: string[] = [];
  page.on('websocket', (ws) => sockets.push(ws.url()));
  const requests: string[] = [];
  page.on('request', (request) => requests.push(`${request.method()} ${new URL(request.url()).pathname}`));
  await page.exposeFunction('mintToken', () => mintToken(gw.controlUrl, env.secretKey, 'alice'));
  await page.goto(await serveHtml(t, PAGE));
  const log = () => page.evaluate(() => (globalThis as any).log as PageLog);
  const seqs = async () => (await log()).received.map((m) => m.seq);

  const started = await page.evaluate(([url, channelId]) => (globalThis as any).start(url, channelId), [proxy.url, 'lobby'] as const);
  assert.deepEqual(started, { ready: { lastSeq: 2 }, transport: 'sse' });
  assert.deepEqual(sockets, [], 'no WebSocket was opened');
  assert.ok(requests.includes('GET /v1/events'), `the page streamed events: ${requests.join(', ')}`);
  assert.deepEqual(await seqs(), [1, 2]);

  // live from the backend, and the page's own publishes over HTTP
  await publish(3);
  const ack = await page.evaluate(() => (globalThis as any).publish('lobby', { n: 'from the page' }));
  assert.equal(ack.seq, 4);
  assert.ok(requests.includes('POST /v1/channels/lobby/messages'));
  await eventually('3 and 4 arrive', async () => (await seqs()).length === 4);
  assert.equal((await log()).received[3]!.sender, 'alice');

  // the network drops the stream; what is published meanwhile comes back once the client resumes
  proxy.cut();
  for (let n = 5; n <= 7; n++) await publish(n);
  await eventually('resumed: 5-7 arrive', async () => (await seqs()).length >= 7, 30_000);
  await publish(8);
  await eventually('8 live', async () => (await seqs()).includes(8));
  assert.deepEqual(await seqs(), [1, 2, 3, 4, 5, 6, 7, 8], 'each message once, in order');
  const final = await log();
  assert.ok(
    final.states.some((s) => s.state === 'disconnected'),
    `the cut was noticed: ${JSON.stringify(final.states)}`,
  );
  assert.equal(final.states.at(-1)!.state, 'connected');
  assert.deepEqual(final.transports, ['sse']);
  assert.equal(await page.evaluate(() => (globalThis as any).transport()), 'sse');
  assert.deepEqual(final.errors, []);
  // the cut is the one error the page may log (Chromium reports the reset connection); nothing else
  assert.deepEqual(
    browser.errors.filter((line) => !line.includes('net::ERR_CONNECTION_RESET') && !line.includes('ERR_EMPTY_RESPONSE')),
    [],
  );
});
