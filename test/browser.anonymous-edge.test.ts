import { test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, serveHtml } from './helpers/browser.ts';
import { startCluster } from './helpers/cluster.ts';

/**
 * The README's browser flow against the realtime edge alone: a page of its own origin mints an
 * anonymous token with the publishable key on the edge (a cross-origin fetch, so CORS must let it
 * through), then loads the SDK from the same host and publishes and receives with that token.
 */
const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>Anonymous token from the realtime edge</title>
<script type="module">
window.run = async (url, publishableKey) => {
  const getToken = async () => {
    const res = await fetch(url + '/v1/tokens/anonymous', {
      method: 'POST',
      headers: { 'x-service-key': publishableKey, 'content-type': 'application/json' },
      body: '{}',
    });
    if (res.status !== 201) throw new Error('mint answered ' + res.status + ' ' + (await res.text()));
    return (await res.json()).token;
  };
  // the first mint here: a refusal ends the run at once, rather than as the SDK's endless retries
  let first = await getToken();
  const { createClient } = await import(url + '/sdk/client.js');
  const client = createClient({ url, getToken: async () => { const token = first ?? (await getToken()); first = undefined; return token; } });
  const received = [];
  const subscription = client.channel('lobby').subscribe((m) => received.push({ content: m.content, sender: m.sender }));
  await subscription.ready;
  const ack = await client.channel('lobby').publish({ text: 'hello from a browser' });
  for (let i = 0; i < 200 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
  client.close();
  return { ack, received };
};
</script>`;

test('browser - a page mints an anonymous token on the realtime edge and uses it there', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const { realtimeUrl } = cluster.gateways[0]!;
  const env = await cluster.createEnvironment('browser-anon');
  const browser = await launchBrowser(t);
  const page = await browser.newPage();
  await page.goto(await serveHtml(t, PAGE));
  const result = await page.evaluate(([url, key]) => (globalThis as any).run(url, key), [realtimeUrl, env.publishableKey] as const);
  assert.equal(result.ack.seq, 1, JSON.stringify(result));
  assert.equal(result.received.length, 1, JSON.stringify(result));
  assert.deepEqual(result.received[0].content, { text: 'hello from a browser' });
  assert.equal(result.received[0].sender.anon, true);
  assert.match(result.received[0].sender.id, /^anon_/);
  browser.assertNoErrors();
});
