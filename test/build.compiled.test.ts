/**
 * The production build: `npm run build` into a fresh directory, then the compiled gateway,
 * channel-node and dispatcher run with plain node (no --import tsx, no NODE_OPTIONS) against
 * this file's own database and NATS prefix, and serve what production serves: publish, history,
 * the dashboard and the browser SDK. The build also migrates with its own script.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCluster, type RunningProcess } from './helpers/cluster.ts';
import { client, mintToken } from './helpers/http.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Runs a command to its end; its output for the assertion message. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** Every module specifier a compiled file imports (static, dynamic and re-exports). */
function specifiers(js: string): string[] {
  const found: string[] = [];
  for (const m of js.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(['"])([^'"\n]+)\1/g)) found.push(m[2]!);
  return found;
}

/** The command line and child processes of a running service (Linux /proc). */
async function processFacts(proc: RunningProcess): Promise<{ argv: string[]; environ: string[]; children: string[] }> {
  const pid = proc.child.pid!;
  const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);
  const environ = (await readFile(`/proc/${pid}/environ`, 'utf8')).split('\0').filter(Boolean);
  const children: string[] = [];
  for (const task of await readdir(`/proc/${pid}/task`)) {
    for (const child of (await readFile(`/proc/${pid}/task/${task}/children`, 'utf8')).split(' ').filter(Boolean)) {
      children.push((await readFile(`/proc/${child}/cmdline`, 'utf8').catch(() => '')).replaceAll('\0', ' '));
    }
  }
  return { argv, environ, children };
}

test('build - npm run build emits JavaScript that plain node runs: publish, history, /dashboard, /sdk/client.js', async (t) => {
  // inside the checkout (git-ignored .data/): third-party packages resolve from its node_modules
  await mkdir(join(ROOT, '.data'), { recursive: true });
  const out = await mkdtemp(join(ROOT, '.data', 'build-test-'));
  t.after(() => rm(out, { recursive: true, force: true }));
  // --no-check: npm test type-checks the same sources before this file runs; the image's build checks
  const built = await run('npm', ['run', '--silent', 'build', '--', '--out', out, '--no-check']);
  assert.equal(built.code, 0, built.output);

  // JavaScript only, and nothing in it reaches for tsx, esbuild or a build script
  const files = (await filesUnder(out)).filter((f) => !f.includes(`${out}/node_modules/`));
  assert.deepEqual(
    files.filter((f) => /\.tsx?$/.test(f)).map((f) => relative(out, f)),
    [],
    'no TypeScript in the build',
  );
  for (const entry of ['apps/gateway/src/main.js', 'apps/channel-node/src/main.js', 'apps/dispatcher/src/main.js', 'scripts/migrate.js', 'scripts/admin.js']) {
    assert.ok(existsSync(join(out, entry)), `${entry} is built`);
  }
  const offending: string[] = [];
  for (const file of files.filter((f) => f.endsWith('.js') && !f.includes('/dist/'))) {
    for (const spec of specifiers(await readFile(file, 'utf8'))) {
      if (/^(tsx|esbuild)(\/|$)/.test(spec) || /\.ts$/.test(spec) || /\/scripts\/(build|bundle)/.test(spec) || /(^|\/)test\//.test(spec)) {
        offending.push(`${relative(out, file)}: ${spec}`);
      }
    }
  }
  assert.deepEqual(offending, [], 'no run-time import of tsx, esbuild, TypeScript, build scripts or test helpers');
  // the workspaces resolve to their compiled files
  const db = JSON.parse(await readFile(join(out, 'node_modules/@rtm/db/package.json'), 'utf8'));
  assert.deepEqual(db.exports, { '.': './src/index.js' });

  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1, dispatchers: 1, build: out });
  const migrated = await run(process.execPath, [join(out, 'scripts/migrate.js')], { PATH: process.env.PATH, DATABASE_URL: cluster.db.url });
  assert.equal(migrated.code, 0, migrated.output);
  assert.match(migrated.output, /database is up to date/);

  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  const control = client(gw.controlUrl, env.secretKey);
  const published = await control.post('/v1/channels/built.room/messages', { content: { text: 'compiled' }, senderId: 'bot' });
  assert.equal(published.status, 201, JSON.stringify(published.body));
  const alice = client(gw.realtimeUrl, await mintToken(gw.controlUrl, env.secretKey, 'alice'));
  const history = await alice.get('/v1/channels/built.room/history');
  assert.equal(history.status, 200, JSON.stringify(history.body));
  assert.deepEqual(
    history.body.messages.map((m: any) => [m.seq, m.content.text]),
    [[1, 'compiled']],
  );

  const page = await fetch(`${gw.controlUrl}/dashboard`);
  assert.equal(page.status, 200);
  assert.match(await page.text(), /<script type="module" src="[^"]*app\.js"/);
  const app = await fetch(`${gw.controlUrl}/dashboard/assets/app.js`);
  assert.equal(app.status, 200);
  assert.equal(await app.text(), await readFile(join(out, 'apps/dashboard/dist/app.js'), 'utf8'), 'the dashboard of the build');
  const sdk = await fetch(`${gw.realtimeUrl}/sdk/client.js`);
  assert.equal(sdk.status, 200);
  assert.match(sdk.headers.get('content-type') ?? '', /^text\/javascript/);
  assert.equal(await sdk.text(), await readFile(join(out, 'libs/client/dist/client.js'), 'utf8'), 'the SDK bundle of the build');
  const docs = await fetch(`${gw.controlUrl}/docs`);
  assert.equal(docs.status, 200, 'the API reference page (files copied beside the compiled code)');

  // the gateway only serves what the build wrote: a file missing is a 503 naming it, never a bundler
  await rm(join(out, 'apps/dashboard/dist/app.js'));
  const bare = await cluster.start('gateway');
  const missing = await fetch(`${bare.controlUrl}/dashboard`);
  assert.equal(missing.status, 503);
  const envelope = (await missing.json()) as { code: string; reason: string };
  assert.equal(envelope.code, 'unavailable', JSON.stringify(envelope));
  assert.match(envelope.reason, /build\/apps\/dashboard\/dist\/app\.js is missing.*npm run build/);
  assert.equal((await fetch(`${bare.realtimeUrl}/sdk/client.js`)).status, 200, 'the SDK bundle is still there');

  // each process is node on a compiled entry point, with nothing preloaded and no esbuild service
  for (const proc of [gw, bare, cluster.channelNodes[0]!, cluster.dispatchers[0]!]) {
    const facts = await processFacts(proc);
    assert.equal(facts.argv[0], process.execPath);
    assert.match(facts.argv.at(-1)!, /\/apps\/(gateway|channel-node|dispatcher)\/src\/main\.js$/);
    assert.ok(!facts.argv.some((a) => a === '--import' || a === '--loader' || a === '--require' || a === '-r'), facts.argv.join(' '));
    assert.ok(!facts.environ.some((v) => v.startsWith('NODE_OPTIONS=')), `${proc.name}: no NODE_OPTIONS`);
    assert.deepEqual(
      facts.children.filter((c) => /esbuild|tsx/.test(c)),
      [],
      `${proc.name}: no esbuild service`,
    );
  }
});
