/**
 * The Go SDK (sdks/go): its types cannot drift from the OpenAPI document (the generator's check
 * fails on a changed schema), `go vet` is clean, its unit tests pass, its integration test passes
 * against a real cluster (gateway, channel node, dispatcher), and a Go program outside the
 * repository builds against the module by a `replace` path and does the same. Without `go` on
 * PATH (`setup_go` installs Debian's golang-go) the Go parts are skipped, saying so.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startCluster } from './helpers/cluster.ts';
import { runSetup } from './helpers/setup-script.ts';
import { client } from './helpers/http.ts';
import { openSocket, type TestSocket } from './helpers/ws.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const MODULE = join(ROOT, 'sdks/go');
const GENERATOR = join(ROOT, 'scripts/generate-go-sdk.ts');

/** Why Go cannot run here, or null when it can. */
function goMissing(): string | null {
  const probe = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (probe.error) return `go not found (${probe.error.message}): run scripts/setup.sh's setup_go or install golang-go`;
  return probe.status === 0 ? null : `go version failed: ${probe.stderr}`;
}

/** Nothing is fetched: the module needs only the standard library, the outside program only the module. */
const GO_ENV = {
  GOFLAGS: '-mod=mod',
  GOPROXY: 'off',
  GOSUMDB: 'off',
  GOTOOLCHAIN: 'local',
  GOCACHE: join(tmpdir(), 'rtm-go-build-cache'),
  GOPATH: join(tmpdir(), 'rtm-go-path'),
};

/** Runs a command to its end without blocking the event loop (the peer below must keep answering). */
function run(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...GO_ENV, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, out }));
  });
}

function generate(args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, ['--import', 'tsx', GENERATOR, ...args], { cwd: ROOT, encoding: 'utf8' });
}

test('Go SDK - npm test installs Debian golang-go only when go is missing, and goes on when it cannot', () => {
  const present = runSetup(`RTM_GO=${process.execPath}; setup_go && echo DONE`);
  assert.deepEqual([present.code, present.output.trim()], [0, 'DONE']);
  const missing = runSetup('RTM_GO=/nonexistent/go; setup_go && echo DONE');
  assert.equal(missing.code, 0, missing.output);
  assert.match(missing.output, /no \/nonexistent\/go: installing golang-go for the Go SDK's tests/);
  assert.match(missing.output, /dry run: .*apt-get install -y -qq golang-go\n/);
  const failing = runSetup('RTM_GO=/nonexistent/go; setup_apt_install() { return 1; }; setup_go && echo DONE', { real: true });
  assert.equal(failing.code, 0, failing.output);
  assert.match(failing.output, /golang-go was not installed: the Go SDK's tests will be skipped\n/);
  assert.match(failing.output, /^DONE$/m);
  // `npm test` asks for it, with the generator's check; `npm start` does not
  const testScript = readFileSync(join(ROOT, 'scripts/test.sh'), 'utf8');
  assert.match(testScript, /^setup_go$/m);
  assert.match(testScript, /^npx tsx scripts\/generate-go-sdk\.ts --check$/m);
  assert.doesNotMatch(readFileSync(join(ROOT, 'scripts/start.sh'), 'utf8'), /setup_go/);
});

test('Go SDK - changing a schema changes the generated types; the check fails until regenerated', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'rtm-go-drift-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  assert.equal(generate(['--check']).status, 0, 'the committed types_gen.go matches docs/openapi.json');

  const document = JSON.parse(readFileSync(join(ROOT, 'docs/openapi.json'), 'utf8'));
  const published = document.components.schemas.PublishedMessage;
  published.properties.channelId = { type: 'string', description: 'The channel.' };
  published.required.push('channelId');
  const input = join(dir, 'openapi.json');
  writeFileSync(input, JSON.stringify(document));
  const output = join(dir, 'types_gen.go');
  copyFileSync(join(MODULE, 'types_gen.go'), output);

  const stale = generate(['--input', input, '--output', output, '--check']);
  assert.equal(stale.status, 1, stale.stdout + stale.stderr);
  assert.match(stale.stderr, /types_gen\.go is stale/);
  assert.equal(generate(['--input', input, '--output', output]).status, 0);
  const regenerated = readFileSync(output, 'utf8');
  const struct = /type PublishedMessage struct \{[^}]*\}/.exec(regenerated)?.[0] ?? '';
  assert.match(struct, /ChannelID string +`json:"channelId"`/);
  assert.equal(generate(['--input', input, '--output', output, '--check']).status, 0, 'fresh after regenerating');
});

test('Go SDK - vet, unit and integration tests against a real cluster; a program outside the repository', async (t) => {
  const missing = goMissing();
  if (missing) return t.skip(missing);

  const cluster = await startCluster(t, {
    gateways: 1,
    channelNodes: 1,
    dispatchers: 1,
    env: { WEBHOOK_RETRY_SCHEDULE: '200ms', WEBHOOK_TIMEOUT_MS: '5000' },
  });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();

  await t.test('go vet is clean', async () => {
    const vet = await run('go', ['vet', './...'], { cwd: MODULE });
    assert.equal(vet.code, 0, vet.out);
  });

  await t.test('go test: the unit tests and the integration test against the cluster', async (t) => {
    const peerUrl = await startPeer(t, gw.realtimeUrl);
    const result = await run('go', ['test', '-count=1', '-v', './...'], {
      cwd: MODULE,
      env: { RTM_TEST_CONTROL_URL: gw.controlUrl, RTM_TEST_SECRET_KEY: env.secretKey, RTM_TEST_PEER_URL: peerUrl },
    });
    assert.equal(result.code, 0, result.out);
    // the integration test ran (it skips itself without RTM_TEST_CONTROL_URL)
    assert.match(result.out, /--- PASS: TestIntegration /);
    assert.doesNotMatch(result.out, /--- SKIP/);
    for (const name of ['minted_token', 'history', 'bans', 'refuses_an_altered_body'])
      assert.match(result.out, new RegExp(`--- PASS: TestIntegration/\\S*${name}`));
  });

  await t.test('a Go program outside the repository, with the module by a replace path', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'rtm-go-outside-'));
    t.after(() => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'go.mod'), `module example.com/outside\n\ngo 1.19\n\nrequire rtm.local/rtm v0.0.0\n\nreplace rtm.local/rtm => ${MODULE}\n`);
    copyFileSync(join(ROOT, 'test/out-of-repo/go/main.go'), join(dir, 'main.go'));
    const build = await run('go', ['build', '-o', 'outside', '.'], { cwd: dir });
    assert.equal(build.code, 0, build.out);

    const outside = await run(join(dir, 'outside'), [], { cwd: dir, env: { RTM_URL: gw.controlUrl, RTM_SECRET_KEY: env.secretKey } });
    assert.equal(outside.code, 0, outside.out);
    const token = /^token (\S+)$/m.exec(outside.out)?.[1];
    const id = /^published (msg_\S+)$/m.exec(outside.out)?.[1];
    assert.ok(token && id, outside.out);
    assert.match(outside.out, new RegExp(`^verified ${id} message.published$`, 'm'));
    assert.match(outside.out, /^refused altered body$/m);
    // the minted token works on the realtime edge, and the message is in the history
    const me = await client(gw.realtimeUrl, token).get('/v1/me');
    assert.deepEqual([me.status, me.body.userId], [200, 'outside']);
    const history = await client(gw.controlUrl, env.secretKey).get('/v1/channels/outside.room/history');
    assert.deepEqual(
      history.body.messages.map((m: { id: string }) => m.id),
      [id],
    );
  });
});

/**
 * The Node side of the integration test, over HTTP: POST /subscribe {token, channelId} opens a
 * channel socket with the Go-minted token (answers once it is ready); POST /seen {id} answers
 * 200 once that socket received a frame carrying the message id, 500 after 20 s.
 */
async function startPeer(t: TestContext, realtimeUrl: string): Promise<string> {
  const sockets: TestSocket[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', async () => {
      try {
        const input = JSON.parse(body) as { token?: string; channelId?: string; id?: string };
        if (req.url === '/subscribe') {
          const socket = openSocket(realtimeUrl, `/v1/channels/${encodeURIComponent(input.channelId!)}?token=${input.token}`);
          sockets.push(socket);
          await socket.waitFor('ready', (f) => f.op === 'ready', 20_000);
        } else if (req.url === '/seen') {
          await Promise.any(sockets.map((s) => s.waitFor(`message ${input.id}`, (f) => JSON.stringify(f).includes(`"${input.id}"`), 20_000)));
        } else {
          throw new Error(`no route ${req.url}`);
        }
        res.writeHead(200).end('ok');
      } catch (error) {
        res.writeHead(500).end(String(error instanceof AggregateError ? error.errors.join('; ') : error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(async () => {
    await Promise.all(sockets.map((s) => s.close()));
    server.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}
