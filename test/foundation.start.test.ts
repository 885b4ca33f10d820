import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { formatLogLine } from '../scripts/format-log-line.ts';
import { startChatExample } from './helpers/chat-example.ts';
import { createTestDatabase } from './helpers/database.ts';
import { eventually } from './helpers/eventually.ts';
import { request } from './helpers/http.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** `scripts/start.ts` as `npm start` runs it after set-up, with every line it prints. */
function startSupervisor(env: Record<string, string>, args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts', ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiters: { pattern: RegExp; from: number; resolve: (m: RegExpMatchArray) => void }[] = [];
  const onLine = (line: string) => {
    lines.push(line);
    for (const waiter of [...waiters]) {
      const match = line.match(waiter.pattern);
      if (match && lines.length > waiter.from) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  };
  createInterface({ input: child.stdout! }).on('line', onLine);
  createInterface({ input: child.stderr! }).on('line', onLine);
  // 'close', not 'exit': every line it printed has been read by then
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  return {
    child,
    lines,
    exited,
    /** The next line (after the `from`-th) matching `pattern`; fails after a generous bound. */
    waitFor(pattern: RegExp, from = 0, limitMs = 40_000): Promise<RegExpMatchArray> {
      const seen = lines
        .slice(from)
        .map((l) => l.match(pattern))
        .find(Boolean);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no line matching ${pattern}:\n${lines.slice(-30).join('\n')}`)), limitMs);
        waiters.push({ pattern, from, resolve: (m) => (clearTimeout(timer), resolve(m)) });
        void exited.then((code) => reject(new Error(`supervisor exited (${code}) while waiting for ${pattern}:\n${lines.slice(-30).join('\n')}`)));
      });
    },
  };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The supervised service processes of a supervisor (tsx may have an esbuild child too), from /proc. */
const childrenOf = (pid: number) =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
        return ppid === pid && /apps\/[a-z-]+\/src\/main\.ts/.test(args);
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);

test('start - formatLogLine turns pino JSON into prefixed readable lines', () => {
  const line = JSON.stringify({
    level: 40,
    time: '2026-01-01T12:00:01.000Z',
    node: 'gateway',
    msg: 'slow query',
    ms: 250,
    table: 'messages',
    note: 'two words',
  });
  const formatted = formatLogLine('gateway', line, { colour: false });
  assert.match(formatted, /^\[gateway\] \d\d:\d\d:\d\d WARN  slow query ms=250 table=messages note="two words"$/);
  assert.equal(formatLogLine('gateway', 'plain text', { colour: false }), '[gateway] plain text');
  assert.equal(formatLogLine('dispatcher', '{not json', { colour: false, width: 12 }), '[dispatcher]   {not json');
  const error = JSON.stringify({ level: 50, time: 0, msg: 'boom', err: { message: 'bad', stack: 'Error: bad\n    at x' } });
  assert.match(formatLogLine('x', error, { colour: false }), /ERROR boom err=bad\n\[x\]   Error: bad\n\[x\]       at x/);
});

test('start - npm start supervises, shows the dev environment, restarts a crashed child and stops cleanly', async (t) => {
  const db = await createTestDatabase(t);
  const stateFile = join(tmpdir(), `rtm-dev-${randomBytes(4).toString('hex')}.json`);
  t.after(() => rm(stateFile, { force: true }));
  const env = {
    DATABASE_URL: db.url,
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    NATS_PREFIX: `t${randomBytes(5).toString('hex')}`,
    CONTROL_PORT: '0',
    REALTIME_PORT: '0',
    INTERNAL_PORT: '0',
  };
  const running: ChildProcess[] = [];
  t.after(() => {
    for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
  });

  const first = startSupervisor(env, ['gateway', '--state-file', stateFile]);
  running.push(first.child);
  await first.waitFor(/dev environment created/);
  const secretKey = (await first.waitFor(/secret key\s+(sk_\S+)/))[1]!;
  const controlUrl = (await first.waitFor(/control plane\s+(http\S+)/))[1]!;
  const realtimeUrl = (await first.waitFor(/realtime edge\s+(http\S+)/))[1]!;
  const dashboardUrl = (await first.waitFor(/dashboard\s+(http\S+)/))[1]!;
  const [, devEmail, devPassword] = await first.waitFor(/dev login\s+(\S+@\S+) \/ (\S+)$/);
  await first.waitFor(/curl -s -X POST .*\/v1\/tokens/);
  // the children's pino lines are readable and prefixed
  await first.waitFor(/^\[gateway\] \d\d:\d\d:\d\d INFO  listening kind=gateway/);

  await t.test('the printed secret key mints a token the realtime edge accepts', async () => {
    const minted = await request(controlUrl, 'POST', '/v1/tokens', { token: secretKey, body: { userId: 'alice' } });
    assert.equal(minted.status, 201);
    const me = await request(realtimeUrl, 'GET', '/v1/me', { token: minted.body.token });
    assert.equal(me.status, 200);
    assert.equal(me.body.userId, 'alice');
  });

  await t.test("the printed dev login signs in to the dashboard as owner of the dev environment's organization", async () => {
    assert.equal(dashboardUrl, `${controlUrl}/dashboard`);
    const signedIn = await request(controlUrl, 'POST', '/v1/dashboard/session', { body: { email: devEmail, password: devPassword } });
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    assert.deepEqual(
      signedIn.body.organizations.map((o: { name: string; role: string }) => [o.name, o.role]),
      [['dev', 'owner']],
    );
    assert.match(readFileSync(stateFile, 'utf8'), new RegExp(devPassword!), 'the password is kept in the state file');
  });

  await t.test('npm run example:chat follows the ports npm start recorded (here any free ports), with no variable set', async (tt) => {
    const recorded = JSON.parse(readFileSync(stateFile, 'utf8')).running;
    assert.equal(recorded.pid, first.child.pid);
    assert.equal(new URL(recorded.controlUrl).port, new URL(controlUrl).port);
    assert.equal(new URL(recorded.realtimeUrl).port, new URL(realtimeUrl).port);
    const chat = await startChatExample(tt, { RTM_STATE_FILE: stateFile });
    assert.match(chat.line, new RegExp(`realtime edge ${recorded.realtimeUrl}, control plane ${recorded.controlUrl}: as the running npm start recorded`));
    // the page is told the realtime edge, and its token endpoint reaches the control plane
    const config = await request(chat.url, 'GET', '/config.json');
    assert.equal(config.body.realtimeUrl, recorded.realtimeUrl);
    const minted = await request(chat.url, 'POST', '/token', { body: { userId: 'alice' } });
    assert.equal(minted.status, 201, JSON.stringify(minted.body));
    assert.equal((await request(recorded.realtimeUrl, 'GET', '/v1/me', { token: minted.body.token })).body.userId, 'alice');
    // a variable still wins
    const pinned = await startChatExample(tt, { RTM_STATE_FILE: stateFile, REALTIME_PORT: '1' });
    assert.equal((await request(pinned.url, 'GET', '/config.json')).body.realtimeUrl, 'http://127.0.0.1:1');
  });

  await t.test('a crashed child is restarted', async () => {
    const [gatewayPid] = childrenOf(first.child.pid!);
    assert.ok(gatewayPid, 'the gateway runs as a child of the supervisor');
    const mark = first.lines.length;
    process.kill(gatewayPid, 'SIGKILL');
    await first.waitFor(/\[gateway\].*exited \(SIGKILL\); restarting in \d+ ms/, mark);
    const relisten = await first.waitFor(/\[gateway\].*listening kind=gateway controlPort=(\d+)/, mark);
    const restarted = await request(`http://127.0.0.1:${relisten[1]}`, 'POST', '/v1/tokens', { token: secretKey, body: { userId: 'bob' } });
    assert.equal(restarted.status, 201);
    assert.ok(!alive(gatewayPid));
    // the new ports are recorded for the example
    await eventually(
      "the restarted gateway's ports are recorded",
      async () => JSON.parse(readFileSync(stateFile, 'utf8')).running.controlUrl === `http://127.0.0.1:${relisten[1]}`,
    );
  });

  await t.test('SIGTERM stops every child (each drains) and exits 0', async () => {
    const children = childrenOf(first.child.pid!);
    assert.equal(children.length, 1);
    first.child.kill('SIGTERM');
    assert.equal(await first.exited, 0);
    await first.waitFor(/\[gateway\].*INFO  stopped/);
    for (const pid of children) assert.ok(!alive(pid), `child ${pid} still running`);
  });

  await t.test('once npm start has ended, the example no longer follows its record', async (tt) => {
    assert.ok(JSON.parse(readFileSync(stateFile, 'utf8')).running, 'the record is still in the file');
    const chat = await startChatExample(tt, { RTM_STATE_FILE: stateFile });
    assert.match(chat.line, /realtime edge http:\/\/127\.0\.0\.1:8081, control plane http:\/\/127\.0\.0\.1:8080: the default ports/);
  });

  await t.test('a second start shows the same environment and keys; a doubled Ctrl-C still stops cleanly', async () => {
    const second = startSupervisor(env, ['gateway', '--state-file', stateFile]);
    running.push(second.child);
    // the secrets were shown when made: now only where they are kept, and how to make new ones
    await second.waitFor(/secret key\s+shown when created; kept in .*create-key --env env_\S+ --kind secret/);
    const login = await second.waitFor(/dev login\s+(\S+@\S+) \(password shown when created; kept in /);
    assert.equal(login[1], devEmail, 'the same dev login on every start');
    await second.waitFor(/SECRET_KEY=\$\(node -pe/);
    assert.ok(!second.lines.some((l) => l.includes(secretKey)), 'the secret key is not printed again');
    assert.ok(!second.lines.some((l) => l.includes(devPassword!)), 'the password is not printed again');
    const kept = JSON.parse(readFileSync(stateFile, 'utf8'));
    assert.deepEqual([kept.secretKey, kept.login.password], [secretKey, devPassword], 'still kept in the state file');
    assert.ok(!second.lines.some((l) => l.includes('dev environment created')));
    // Ctrl-C under npm arrives twice at once (terminal + npm's forwarding): still one clean stop
    second.child.kill('SIGINT');
    second.child.kill('SIGINT');
    assert.equal(await second.exited, 0);
    assert.ok(
      second.lines.some((l) => /\[gateway\].*INFO  stopped/.test(l)),
      'the gateway drained',
    );
  });

  await t.test('a bad configuration variable stops npm start with a message naming it', async () => {
    const bad = startSupervisor({ ...env, INTERNAL_PORT: 'ninety' }, ['gateway', '--state-file', stateFile]);
    running.push(bad.child);
    assert.equal(await bad.exited, 78);
    assert.ok(bad.lines.some((l) => l.includes('INTERNAL_PORT')));
  });
});
