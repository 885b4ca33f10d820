import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createTestDatabase } from './helpers/database.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Every process of the machine with its parent and command line, from /proc. */
function processTable(): { pid: number; ppid: number; args: string }[] {
  const rows: { pid: number; ppid: number; args: string }[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      rows.push({ pid: Number(entry), ppid, args });
    } catch {
      // gone meanwhile
    }
  }
  return rows;
}

/** `pid` and all its descendants. */
function treeOf(pid: number): { pid: number; args: string }[] {
  const table = processTable();
  const found = table.filter((p) => p.pid === pid);
  for (let i = 0; i < found.length; i++) found.push(...table.filter((p) => p.ppid === found[i]!.pid));
  return found;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Resolves when nothing is left of `pids`, checking every 100 ms; rejects naming the survivors after `limitMs`. */
async function gone(pids: number[], limitMs: number): Promise<void> {
  const until = Date.now() + limitMs;
  for (;;) {
    const left = pids.filter(alive);
    if (left.length === 0) return;
    if (Date.now() > until) throw new Error(`still running: ${left.join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A port nobody listens on can be bound again. */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

/** A free TCP port (bound and released). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `count` consecutive free ports (npm start gives its children INTERNAL_PORT, +1, +2). */
async function freePorts(count: number): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const base = await freePort();
    if (base + count > 65535) continue;
    const free = await Promise.all(Array.from({ length: count }, (_, i) => portFree(base + i)));
    if (free.every(Boolean)) return base;
  }
  throw new Error(`no ${count} consecutive free ports in 100 attempts`);
}

test('start - SIGTERM to the npm start process stops the whole local cluster and frees its ports', async (t) => {
  const db = await createTestDatabase(t);
  const stateFile = join(tmpdir(), `rtm-dev-${randomBytes(4).toString('hex')}.json`);
  t.after(() => rm(stateFile, { force: true }));
  // fixed free ports (not 0), so the test can check afterwards that each one is free again
  const [control, realtime, internal] = [await freePort(), await freePort(), await freePorts(3)];
  const npm = spawn('npm', ['start', '--', '--state-file', stateFile], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: db.url,
      NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
      NATS_PREFIX: `t${randomBytes(5).toString('hex')}`,
      CONTROL_PORT: String(control),
      REALTIME_PORT: String(realtime),
      INTERNAL_PORT: String(internal),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  createInterface({ input: npm.stdout! }).on('line', (line) => lines.push(line));
  createInterface({ input: npm.stderr! }).on('line', (line) => lines.push(line));
  const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
  let tree: { pid: number; args: string }[] = [];
  t.after(() => {
    for (const p of treeOf(npm.pid!).concat(tree)) if (alive(p.pid)) process.kill(p.pid, 'SIGKILL');
  });

  // all three children announced themselves (the supervisor prefixes their lines)
  const until = Date.now() + 90_000;
  const listening = (kind: string) => lines.some((l) => l.startsWith(`[${kind}`) && l.includes(`listening kind=${kind}`));
  while (!['gateway', 'channel-node', 'dispatcher'].every(listening)) {
    if (npm.exitCode !== null || Date.now() > until) assert.fail(`npm start did not bring up every process:\n${lines.slice(-30).join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  tree = treeOf(npm.pid!);
  const services = tree.filter((p) => /apps\/(gateway|channel-node|dispatcher)\/src\/main\.ts/.test(p.args));
  assert.equal(services.length, 3, `three service processes under npm start:\n${tree.map((p) => `${p.pid} ${p.args}`).join('\n')}`);
  assert.ok(
    tree.some((p) => p.args.includes('scripts/start.ts')),
    'the supervisor runs under npm start',
  );
  for (const port of [control, realtime, internal, internal + 1, internal + 2]) assert.equal(await portFree(port), false, `port ${port} in use while running`);

  // what a process manager does: SIGTERM to the process it started, which is npm
  npm.kill('SIGTERM');
  await exited;
  // every process npm started (the shell, the supervisor, each service and its tsx helpers) ends
  await gone(
    tree.map((p) => p.pid),
    30_000,
  ).catch((error: Error) => {
    assert.fail(
      `${error.message}\n${tree
        .filter((p) => alive(p.pid))
        .map((p) => `${p.pid} ${p.args}`)
        .join('\n')}\n${lines.slice(-20).join('\n')}`,
    );
  });
  for (const port of [control, realtime, internal, internal + 1, internal + 2]) assert.equal(await portFree(port), true, `port ${port} still held`);
  // and they drained rather than being killed
  for (const kind of ['gateway', 'channel-node', 'dispatcher']) {
    assert.ok(
      lines.some((l) => l.startsWith(`[${kind}`) && /INFO  stopped/.test(l)),
      `the ${kind} drained:\n${lines.slice(-30).join('\n')}`,
    );
  }
});
