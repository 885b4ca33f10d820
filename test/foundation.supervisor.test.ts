import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Supervisor } from '../scripts/supervisor.ts';
import { createTestDatabase } from './helpers/database.ts';
import { TEST_SECRET_ENCRYPTION_KEY } from './helpers/cluster.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** A child that announces itself like the services do, then waits; `onTerm` is what it does on SIGTERM. */
function childScript(onTerm: 'drain' | 'none' | 'fail'): string {
  const handler = {
    drain: "process.on('SIGTERM', () => { console.log('drained'); process.exit(0); });",
    none: '',
    fail: "process.on('SIGTERM', () => process.exit(3));",
  }[onTerm];
  return `${handler} setInterval(() => {}, 1000); console.log(JSON.stringify({ msg: 'listening', kind: 'test' }));`;
}

/** A supervisor over `node -e` children; resolves once every child has announced itself. */
async function supervise(children: Record<string, 'drain' | 'none' | 'fail'>) {
  const lines: string[] = [];
  const supervisor = new Supervisor({ cwd: ROOT, colour: false, graceMs: 20_000, write: (line) => lines.push(line) });
  const names = Object.keys(children);
  const listening = new Set<string>();
  const ready = new Promise<void>((resolve) =>
    supervisor.on('listening', (name) => {
      listening.add(name);
      if (listening.size === names.length) resolve();
    }),
  );
  for (const name of names) supervisor.add({ name, args: ['-e', childScript(children[name]!)], env: { PATH: process.env.PATH } });
  await ready;
  return { supervisor, lines };
}

test('supervisor - stop ends 0 when every child drained', async () => {
  const { supervisor, lines } = await supervise({ one: 'drain', two: 'drain' });
  assert.equal(await supervisor.stop(0), 0);
  assert.equal(lines.filter((l) => l.includes('drained')).length, 2);
  assert.ok(!lines.some((l) => l.includes('did not drain')), lines.join('\n'));
});

test("supervisor - a child killed by the stop's SIGTERM (no handler) is named and the stop ends non-zero", async () => {
  const { supervisor, lines } = await supervise({ good: 'drain', bare: 'none' });
  let stoppedWith: number | undefined;
  supervisor.on('stopped', (code) => (stoppedWith = code));
  const code = await supervisor.stop(0);
  assert.notEqual(code, 0);
  assert.equal(stoppedWith, code, 'the stopped event carries the same code');
  const reports = lines.filter((l) => l.includes('did not drain'));
  assert.equal(reports.length, 1, lines.join('\n'));
  assert.match(reports[0]!, /^\[bare\].*ended by SIGTERM during stop/);
});

test('supervisor - a child that exits non-zero on SIGTERM is reported', async () => {
  const { supervisor, lines } = await supervise({ failing: 'fail' });
  assert.notEqual(await supervisor.stop(0), 0);
  assert.ok(
    lines.some((l) => /^\[failing\].*exited with code 3 during stop/.test(l)),
    lines.join('\n'),
  );
});

test('supervisor - every service drains on a SIGTERM sent the moment it announces that it listens', async (t) => {
  const db = await createTestDatabase(t);
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: db.url,
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    NATS_PREFIX: `t${randomBytes(5).toString('hex')}`,
    CONTROL_PORT: '0',
    REALTIME_PORT: '0',
    INTERNAL_PORT: '0',
    LOG_LEVEL: 'info',
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    SECRET_ENCRYPTION_KEY: TEST_SECRET_ENCRYPTION_KEY,
  };
  for (const kind of ['gateway', 'channel-node', 'dispatcher']) {
    await t.test(kind, async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', `apps/${kind}/src/main.ts`], {
        cwd: ROOT,
        env: { ...env, NODE_NAME: `${kind}-signal` },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      t.after(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      });
      const output: string[] = [];
      const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.once('close', (code, signal) => resolve({ code, signal })),
      );
      createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
      createInterface({ input: child.stdout! }).on('line', (line) => {
        output.push(line);
        // no waiting at all: the signal follows the announcement as closely as a supervisor can
        if (line.startsWith('{"msg":"listening"')) child.kill('SIGTERM');
      });
      const { code, signal } = await ended;
      assert.deepEqual({ code, signal }, { code: 0, signal: null }, output.slice(-20).join('\n'));
      assert.ok(
        output.some((l) => l.includes('"msg":"draining"')),
        'it drained',
      );
      assert.ok(
        output.some((l) => l.includes('"msg":"stopped"')),
        output.slice(-20).join('\n'),
      );
    });
  }
});
