/**
 * The SDK packages as a user outside this repository gets them: `npm pack` of @rtm/server and
 * @rtm/client (their prepack builds dist/), installed from the tarballs into a directory under the
 * system's temporary directory with its own package.json (no workspace), type-checked by tsc
 * against the packages' own declarations (skipLibCheck off, types only from that directory), and
 * run under plain Node against a real cluster: test/out-of-repo/backend.mts and client.mts; and
 * require()d from CommonJS (test/out-of-repo/require.cjs), which works from Node 20.19 / 22.12.
 * An undeclared dependency fails the pack (the build refuses it); a missing or broken .d.ts fails
 * the type check; JavaScript that needs an uninstalled package fails under Node.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startCluster } from './helpers/cluster.ts';
import { packAndInstall, REPO_ROOT, runIn, TSC } from './helpers/packages.ts';

const SCRIPTS = join(REPO_ROOT, 'test/out-of-repo');

test('packages - @rtm/server and @rtm/client packed, installed outside the repository, type-checked and run under plain Node', async (t) => {
  // the pack, the type check and the cluster one after the other: all at once starve a small machine
  const { dir } = await packAndInstall(t, ['libs/server-sdk', 'libs/client'], ['ws@^8.18.0', '@types/ws@^8.5.12', '@types/node@^20.17.0']);

  // what was installed: the tarballs' own files, and their declared dependency, nothing linked
  const modules = await readdir(join(dir, 'node_modules/@rtm'));
  assert.deepEqual(modules.sort(), ['client', 'server']);
  const serverFiles = await readdir(join(dir, 'node_modules/@rtm/server'), { recursive: true });
  for (const file of ['LICENSE', 'README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/schema.d.ts']) {
    assert.ok(serverFiles.includes(file), `@rtm/server has ${file}`);
  }
  assert.ok(!serverFiles.some((file) => file.startsWith('src')), 'no TypeScript source is published');
  assert.ok((await readdir(join(dir, 'node_modules'))).includes('openapi-fetch'), 'openapi-fetch installed as a dependency');

  // require() from CommonJS: Node loads an ES module synchronously from 20.19 (22.12 on 22), as
  // docs/packages.md says; older Node refuses it with ERR_REQUIRE_ESM
  await copyFile(join(SCRIPTS, 'require.cjs'), join(dir, 'require.cjs'));
  const required = await runIn(dir, process.execPath, ['require.cjs']);
  assert.equal(required.code, 0, `node require.cjs:\n${required.stdout}${required.stderr}`);
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  if (major > 22 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19)) {
    const loaded = JSON.parse(required.stdout.trim());
    assert.equal(loaded.ok, true, `require() on Node ${process.versions.node}: ${required.stdout}`);
    assert.ok(loaded.server.includes('createServerClient') && loaded.server.includes('verifyWebhook'), loaded.server.join());
    assert.ok(loaded.client.includes('createClient') && loaded.client.includes('RtmError'), loaded.client.join());
  } else {
    assert.deepEqual(JSON.parse(required.stdout.trim()), { ok: false, code: 'ERR_REQUIRE_ESM' });
  }

  // tsc over both scripts with the packages' own types
  for (const file of ['backend.mts', 'client.mts', 'tsconfig.json']) await copyFile(join(SCRIPTS, file), join(dir, file));
  const typecheck = await runIn(dir, process.execPath, [TSC, '-p', 'tsconfig.json']);
  assert.equal(typecheck.code, 0, `tsc in ${dir}:\n${typecheck.stdout}${typecheck.stderr}`);

  // the backend: token, publish, a real webhook delivery verified, history
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1, dispatchers: 1 });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  const channel = 'outside.room';
  const backendRun = await runIn(dir, process.execPath, ['out/backend.mjs'], {
    RTM_CONTROL_URL: gw.controlUrl,
    RTM_SECRET_KEY: env.secretKey,
    RTM_CHANNEL: channel,
  });
  assert.equal(backendRun.code, 0, `node out/backend.mjs:\n${backendRun.stdout}${backendRun.stderr}`);
  const backend = JSON.parse(backendRun.stdout.trim());
  assert.equal(backend.userId, 'outside-user');
  assert.match(backend.token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
  assert.equal(backend.published.seq, 1);
  assert.deepEqual(backend.event, {
    id: backend.published.id,
    type: 'message.published',
    channelId: channel,
    content: { text: 'from a backend outside the repository' },
  });
  assert.equal(backend.tamperedVerifies, false);
  assert.deepEqual(backend.history, [{ id: backend.published.id, seq: 1, sender: 'backend' }]);
  assert.equal(backend.refusal, 'invalid_request');

  // the client, with the token the backend minted
  const clientRun = await runIn(dir, process.execPath, ['out/client.mjs'], {
    RTM_REALTIME_URL: gw.realtimeUrl,
    RTM_TOKEN: backend.token,
    RTM_CHANNEL: channel,
  });
  assert.equal(clientRun.code, 0, `node out/client.mjs:\n${clientRun.stdout}${clientRun.stderr}`);
  const client = JSON.parse(clientRun.stdout.trim());
  assert.deepEqual(client.states, ['connected', 'closed']);
  assert.equal(client.ack.seq, 2);
  assert.deepEqual(client.received, [
    { seq: 1, sender: 'backend', content: { text: 'from a backend outside the repository' } },
    { seq: 2, sender: 'outside-user', content: { text: 'from a client outside the repository' } },
  ]);
  assert.deepEqual(client.history, [2, 1]);
  assert.equal(client.refusal, 'invalid_request');
});
