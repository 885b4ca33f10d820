/**
 * Chromium's own EventSource on `GET /v1/events` (docs/protocol.md, "Server-sent events"): a page of
 * its own origin streams a channel through a TCP proxy; the backend's messages arrive; when the
 * test cuts the connection, the browser reconnects by itself (after the stream's `retry:`) with
 * `Last-Event-ID`, and the channel resumes with no gap and no duplicate.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, serveHtml } from './helpers/browser.ts';
import { startCluster } from './helpers/cluster.ts';
import { eventually } from './helpers/eventually.ts';
import { client, mintToken } from './helpers/http.ts';
import { startTcpProxy } from './helpers/tcp-proxy.ts';

/** The page keeps every frame, the lastEventId of each message event and the stream's opens and errors. */
const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>EventSource</title>
<script>
window.log = { frames: [], ids: [], opens: 0, errors: 0 };
window.start = (url) => {
  const source = new EventSource(url);
  source.onopen = () => { window.log.opens += 1; };
  source.onerror = () => { window.log.errors += 1; };
  source.onmessage = (event) => {
    window.log.frames.push(JSON.parse(event.data));
    window.log.ids.push(event.lastEventId);
  };
  window.source = source;
};
</script>`;

interface PageLog {
  frames: any[];
  ids: string[];
  opens: number;
  errors: number;
}

test('browser - EventSource streams a channel and resumes it with Last-Event-ID after a cut', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const gw = cluster.gateways[0]!;
  const control = client(gw.controlUrl, env.secretKey);
  const token = await mintToken(gw.controlUrl, env.secretKey, 'alice');
  const proxy = await startTcpProxy([gw.realtimeUrl]);
  t.after(() => proxy.close());
  const publish = async (n: number) => assert.equal((await control.post('/v1/channels/room/messages', { content: { n } })).status, 201);

  const browser = await launchBrowser(t);
  const page = await browser.newPage();
  await page.goto(await serveHtml(t, PAGE));
  await page.evaluate((url) => (globalThis as any).start(url), `${proxy.url}/v1/events?channels=room&token=${token}`);
  const log = () => page.evaluate(() => (globalThis as any).log as PageLog);
  const seqs = async () => (await log()).frames.filter((f) => f.op === undefined && f.channelId === 'room').map((f) => f.seq as number);

  await eventually('subscribed', async () => (await log()).frames.some((f) => f.op === 'subscribed'));
  const first = await log();
  assert.equal(first.frames[0].op, 'connected');
  assert.deepEqual(first.frames[1], { op: 'subscribed', channelId: 'room', lastSeq: 0 });
  for (let n = 1; n <= 3; n++) await publish(n);
  await eventually('messages 1-3', async () => (await seqs()).length === 3);
  assert.deepEqual(await seqs(), [1, 2, 3]);
  assert.equal((await log()).opens, 1);

  // the network drops the stream; messages published meanwhile must come back on the reconnect
  proxy.cut();
  await eventually('the browser saw the cut', async () => (await log()).errors >= 1);
  for (let n = 4; n <= 6; n++) await publish(n);
  await eventually('reopened by the browser', async () => (await log()).opens >= 2, 30_000);
  await eventually('messages 4-6 replayed', async () => (await seqs()).length >= 6, 30_000);
  await publish(7);
  await eventually('message 7 live', async () => (await seqs()).includes(7));
  assert.deepEqual(await seqs(), [1, 2, 3, 4, 5, 6, 7]);
  const after = await log();
  // the reconnect is a new connection of its own, resumed (a subscribed with the channel's last seq at the time)
  assert.equal(after.frames.filter((f) => f.op === 'connected').length, 2);
  assert.deepEqual(after.frames.filter((f) => f.op === 'subscribed').at(-1), { op: 'subscribed', channelId: 'room', lastSeq: 6 });
  // the page's lastEventId carries the channel's position
  assert.match(after.ids.at(-1)!, /^[A-Za-z0-9_-]{8}~7$/);
  await page.evaluate(() => (globalThis as any).source.close());
  // the cut is the one error the page may log (Chromium reports the reset connection); nothing else
  assert.deepEqual(
    browser.errors.filter((line) => !line.includes('net::ERR_CONNECTION_RESET')),
    [],
  );
});
