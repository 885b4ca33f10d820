/**
 * @rtm/react in Chromium, as an app outside this repository gets it: @rtm/client and @rtm/react
 * packed (their prepack builds), installed from the tarballs with React and react-dom from npm
 * into a directory under the system's temporary directory, test/out-of-repo/react-app.tsx
 * type-checked against their own declarations (skipLibCheck off) and bundled by esbuild from that
 * directory alone, then served to two users against a real cluster. The test reads the DOM:
 * the history (the last three messages) then live ones, both users online, the connection state
 * through a cut of the network and the resume after it (a message published meanwhile shown
 * once), and a user leaving.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { launchBrowser } from './helpers/browser.ts';
import { startCluster } from './helpers/cluster.ts';
import { eventually } from './helpers/eventually.ts';
import { client, mintToken } from './helpers/http.ts';
import { packAndInstall, REPO_ROOT, runIn, TSC } from './helpers/packages.ts';
import { startTcpProxy } from './helpers/tcp-proxy.ts';

const SCRIPTS = join(REPO_ROOT, 'test/out-of-repo');
const CHANNEL = 'react.room';

/** What a page shows: connection state, channel status, the messages' texts, who is online. */
async function view(page: Page) {
  return page.evaluate(() => {
    interface Element {
      textContent: string | null;
      getAttribute(name: string): string | null;
    }
    const document = (globalThis as unknown as { document: { querySelector(s: string): Element | null; querySelectorAll(s: string): Iterable<Element> } })
      .document;
    return {
      state: document.querySelector('#state')?.textContent ?? null,
      channel: document.querySelector('#channel')?.textContent ?? null,
      messages: [...document.querySelectorAll('#messages li')].map((li) => `${li.getAttribute('data-seq')}:${li.textContent}`),
      online: [...document.querySelectorAll('#online li')].map((li) => li.textContent),
    };
  });
}

test('react - @rtm/react from its tarball in Chromium: history then live, presence of two users, connection state and resume', async (t) => {
  // the pack, the type check and the cluster one after the other: all at once starve a small machine
  const { dir } = await packAndInstall(
    t,
    ['libs/client', 'libs/react'],
    ['react@^19.2.0', 'react-dom@^19.2.0', '@types/react@^19.2.0', '@types/react-dom@^19.2.0'],
  );

  // type-checked against the packages' own declarations, then bundled from that directory only
  for (const file of ['react-app.tsx', 'tsconfig.react.json']) await copyFile(join(SCRIPTS, file), join(dir, file));
  const typecheck = await runIn(dir, process.execPath, [TSC, '-p', 'tsconfig.react.json']);
  assert.equal(typecheck.code, 0, `tsc in ${dir}:\n${typecheck.stdout}${typecheck.stderr}`);
  await build({
    absWorkingDir: dir,
    entryPoints: [join(dir, 'react-app.tsx')],
    outfile: join(dir, 'app.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"development"' },
    nodePaths: [],
    logLevel: 'warning',
  });
  const app = await readFile(join(dir, 'app.js'));
  assert.ok(!app.includes('libs/client/src') && !app.includes('libs/react/src'), 'nothing bundled from the repository');
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    if (path === '/')
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><meta charset="utf-8"><title>react</title><div id="root"></div><script type="module" src="/app.js"></script>');
    else if (path === '/app.js') response.writeHead(200, { 'content-type': 'text/javascript' }).end(app);
    else response.writeHead(path === '/favicon.ico' ? 204 : 404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  const control = client(gw.controlUrl, env.secretKey);
  assert.equal((await control.put('/v1/config', { channels: { access: 'open', joinLeave: true } })).status, 200);
  const publish = async (text: string) => {
    const published = await control.post(`/v1/channels/${CHANNEL}/messages`, { content: { text }, senderId: 'server' });
    assert.equal(published.status, 201, JSON.stringify(published.body));
    return published.body.seq as number;
  };
  for (const n of [1, 2, 3, 4]) await publish(`history ${n}`);

  // alice goes through a proxy the test can cut; bob straight to the edge
  const proxy = await startTcpProxy([gw.realtimeUrl]);
  t.after(() => proxy.close());
  const browser = await launchBrowser(t);
  const open = async (userId: string, realtime: string) => {
    const page = await browser.newPage();
    const token = await mintToken(gw.controlUrl, env.secretKey, userId);
    await page.goto(`${origin}/?${new URLSearchParams({ realtime, token, channel: CHANNEL })}`);
    return page;
  };

  const alice = await open('alice', proxy.url);
  await eventually('alice sees the last three messages of the history, connected', async () => {
    const seen = await view(alice);
    return seen.state === 'connected' && seen.channel === 'ready' && seen.messages.length === 3 ? seen : undefined;
  });
  assert.deepEqual((await view(alice)).messages, ['2:history 2', '3:history 3', '4:history 4']);
  await publish('live 5');
  await eventually('alice sees a live message after the history', async () => (await view(alice)).messages.includes('5:live 5'));
  assert.deepEqual((await view(alice)).messages, ['2:history 2', '3:history 3', '4:history 4', '5:live 5']);
  await eventually('alice sees herself online', async () => JSON.stringify((await view(alice)).online) === '["alice"]');

  const bob = await open('bob', gw.realtimeUrl);
  await eventually('alice sees bob come online', async () => JSON.stringify((await view(alice)).online) === '["alice","bob"]');
  await eventually('bob sees both online and the last three messages', async () => {
    const seen = await view(bob);
    return JSON.stringify(seen.online) === '["alice","bob"]' && seen.messages.join() === '3:history 3,4:history 4,5:live 5';
  });

  // the network to alice goes: her page says so; a message published meanwhile arrives once after the resume
  proxy.refuse(true);
  proxy.cut();
  await eventually('alice shows the connection lost', async () => ['disconnected', 'connecting'].includes((await view(alice)).state ?? ''));
  await publish('while away 6');
  await eventually('bob sees the message at once', async () => (await view(bob)).messages.includes('6:while away 6'));
  proxy.refuse(false);
  await eventually('alice is connected again and has the message', async () => {
    const seen = await view(alice);
    return seen.state === 'connected' && seen.messages.includes('6:while away 6');
  });
  await publish('live 7');
  await eventually('alice sees live messages after the resume', async () => (await view(alice)).messages.includes('7:live 7'));
  assert.deepEqual((await view(alice)).messages, ['2:history 2', '3:history 3', '4:history 4', '5:live 5', '6:while away 6', '7:live 7']);

  await bob.context().close();
  await eventually('alice sees bob leave', async () => JSON.stringify((await view(alice)).online) === '["alice"]');
  // Chromium logs each refused reconnect of alice's while the proxy refused (as a reset, or as a
  // socket that was never connected, depending on when the proxy's refusal lands), and, once two
  // sockets failed and the SDK fell back to server-sent events, each refused request of that
  // transport (an event stream or /v1/me); nothing else
  const failures = 'net::(ERR_CONNECTION_RESET|ERR_SOCKET_NOT_CONNECTED|ERR_CONNECTION_CLOSED|ERR_EMPTY_RESPONSE)';
  const refused = [
    new RegExp(`^\\[page 1\\] error: WebSocket connection to 'ws://127\\.0\\.0\\.1:\\d+/v1/connect\\?token=[^']+' failed: .*${failures}$`),
    new RegExp(`^\\[page 1\\] error: Failed to load resource: ${failures}$`),
  ];
  const unexpected = browser.errors.filter((line) => !refused.some((pattern) => pattern.test(line)));
  assert.deepEqual(unexpected, []);
});
