import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, utimes, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import WebSocket from 'ws';
import { createLogger } from '@rtm/ops';
import { runSetup } from './helpers/setup-script.ts';
import { createSdkBundle } from '../apps/gateway/src/sdk/sdk-bundle.ts';
import { startCluster } from './helpers/cluster.ts';
import { mintToken, request } from './helpers/http.ts';
import { sleep, until } from './helpers/sdk.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIST = join(ROOT, 'libs/client/dist');
const log = createLogger({ level: 'silent', name: 'test' });

/** Runs a function of scripts/setup.sh (dry run unless `real`). */
const setup = (fn: string, real = false) => runSetup(fn, { real });

test('sdk bundle - setup builds libs/client/dist when it is missing or older than the source', async () => {
  const built = setup('setup_sdk_bundle', true);
  assert.equal(built.code, 0, built.output);
  for (const file of ['client.js', 'client.js.map', 'index.d.ts', 'client.d.ts', 'channel.d.ts']) await stat(join(DIST, file));
  // fresh: nothing to do
  const fresh = setup('setup_sdk_bundle && echo DONE');
  assert.equal(fresh.output.trim(), 'DONE');
  // a bundle older than a source file is rebuilt
  const bundle = join(DIST, 'client.js');
  const { atime, mtime } = await stat(bundle);
  try {
    await utimes(bundle, new Date(0), new Date(0));
    const stale = setup('setup_sdk_bundle');
    assert.match(stale.output, /building the browser SDK bundle/);
    assert.match(stale.output, /dry run: npm run --silent build:sdk/);
  } finally {
    await utimes(bundle, atime, mtime);
  }
  // the declarations describe the public API only
  const declarations = await readFile(join(DIST, 'channel.d.ts'), 'utf8');
  assert.match(declarations, /subscribe\(listener: MessageListener/);
  assert.doesNotMatch(declarations, /onMessage/, '@internal members are stripped');
});

test('sdk bundle - the gateway serves /sdk/client.js with ETag, caching and CORS, and the bundle works', async (t) => {
  assert.equal(setup('setup_sdk_bundle', true).code, 0);
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const gw = cluster.gateways[0]!;
  const onDisk = await readFile(join(DIST, 'client.js'), 'utf8');

  const js = await request(gw.realtimeUrl, 'GET', '/sdk/client.js', { headers: { origin: 'https://app.example.com' } });
  assert.equal(js.status, 200);
  assert.equal(js.headers.get('content-type'), 'text/javascript; charset=utf-8');
  assert.equal(js.headers.get('cache-control'), 'public, max-age=300');
  assert.equal(js.headers.get('access-control-allow-origin'), '*', 'a page of another origin may import it');
  assert.equal(js.body, onDisk);
  assert.match(js.body, /\/\/# sourceMappingURL=client\.js\.map\s*$/);
  assert.ok(!/\brequire\(|from"(node:|ws)/.test(js.body), 'nothing of Node in the browser bundle');
  const etag = js.headers.get('etag')!;
  // fetch asks for gzip: the ETag names the encoding it holds (docs/operations.md, "Listening address, compression and the access log")
  assert.match(etag, /^"[A-Za-z0-9_-]{32}(-gzip|-br)?"$/);
  const again = await request(gw.realtimeUrl, 'GET', '/sdk/client.js', { headers: { 'if-none-match': etag } });
  assert.equal(again.status, 304);
  assert.equal(again.body, '');
  assert.equal(again.headers.get('etag'), etag);
  assert.equal((await request(gw.realtimeUrl, 'GET', '/sdk/client.js', { headers: { 'if-none-match': '"other"' } })).status, 200);
  const head = await fetch(`${gw.realtimeUrl}/sdk/client.js`, { method: 'HEAD' });
  assert.equal(head.status, 200);
  assert.equal(head.headers.get('etag'), etag);

  const map = await request(gw.realtimeUrl, 'GET', '/sdk/client.js.map');
  assert.equal(map.status, 200);
  assert.equal(map.headers.get('content-type'), 'application/json; charset=utf-8');
  const parsed = map.body;
  assert.equal(parsed.version, 3);
  assert.ok(
    parsed.sources.some((source: string) => source.endsWith('src/client.ts')),
    JSON.stringify(parsed.sources),
  );
  // not an API route: absent from the OpenAPI document, and nothing else under /sdk
  const openapi = await request(gw.realtimeUrl, 'GET', '/openapi.json');
  assert.ok(!Object.keys(openapi.body.paths).some((path) => path.startsWith('/sdk')));
  assert.equal((await request(gw.realtimeUrl, 'GET', '/sdk/other.js')).status, 404);

  // the served module itself: imported as a browser would, it connects, subscribes and publishes
  const dir = await mkdtemp(join(tmpdir(), 'rtm-sdk-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'client.mjs'), js.body);
  const sdk = (await import(pathToFileURL(join(dir, 'client.mjs')).href)) as typeof import('@rtm/client');
  // with delta on in the channel's namespace, the bundle's decoder (fossil-delta) rebuilds the second message
  assert.equal(
    (
      await request(gw.controlUrl, 'PUT', '/v1/config', {
        headers: { authorization: `Bearer ${env.secretKey}` },
        body: { namespaces: [{ prefix: 'bundled', delta: true }] },
      })
    ).status,
    200,
  );
  const wire: string[] = [];
  class RecordingWebSocket extends WebSocket {
    constructor(address: string) {
      super(address);
      this.on('message', (data) => wire.push(String(data)));
    }
  }
  const client = sdk.createClient({ url: gw.realtimeUrl, getToken: () => mintToken(gw.controlUrl, env.secretKey, 'browser'), WebSocket: RecordingWebSocket });
  t.after(() => client.close());
  const got: { seq: number; content: unknown }[] = [];
  await client.channel('bundled').subscribe((m) => got.push(m), { delta: 'fossil' }).ready;
  const content = (n: number) => ({ from: 'the bundle', n, text: 'a state document the next message changes in one field '.repeat(10) });
  await client.channel('bundled').publish(content(1));
  const ack = await client.channel('bundled').publish(content(2));
  await until('the bundle receives its own messages', () => got.some((m) => m.seq === ack.seq));
  assert.deepEqual(
    got.map((m) => m.content),
    [content(1), content(2)],
  );
  assert.ok(
    wire.some((text) => text.includes(`"seq":${ack.seq},`) && text.includes('"delta":{"format":"fossil"')),
    'the second came as a delta',
  );
  assert.ok(new sdk.RtmError('x') instanceof Error);
});

test('sdk bundle - the gateway only serves the built bundle: none is a 503 reason; a rebuild is picked up', async (t) => {
  assert.equal(setup('setup_sdk_bundle', true).code, 0);
  const empty = await mkdtemp(join(tmpdir(), 'rtm-sdk-empty-'));
  t.after(() => rm(empty, { recursive: true, force: true }));
  // nothing on disk: nothing is bundled in memory, and the reason for the 503 names the file
  const none = createSdkBundle(log, { dir: `${empty}/` });
  await none.start();
  t.after(() => none.stop());
  assert.equal(none.asset('client.js'), undefined);
  assert.match(none.problem!, /libs\/client\/dist\/client\.js is missing.*npm run build:sdk/);

  // a bundle on disk is served, and replaced when it is rebuilt
  const dir = await mkdtemp(join(tmpdir(), 'rtm-sdk-dist-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await copyFile(join(DIST, 'client.js'), join(dir, 'client.js'));
  await copyFile(join(DIST, 'client.js.map'), join(dir, 'client.js.map'));
  const served = createSdkBundle(log, { dir: `${dir}/` });
  await served.start();
  t.after(() => served.stop());
  const before = served.asset('client.js')!.etag;
  await sleep(50);
  await writeFile(join(dir, 'client.js'), 'export const rebuilt = true;\n');
  await until('the rebuilt bundle is served', () => served.asset('client.js')!.etag !== before, 5_000);
  assert.equal(served.asset('client.js')!.body.toString(), 'export const rebuilt = true;\n');
});
