import { spawn, type ChildProcess } from 'node:child_process';
import { NODE_FLAGS, type ProcessKind } from '@rtm/ops';
import { randomBytes } from 'node:crypto';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'node:test';
import { createEnvironment, type CreatedEnvironment } from '@rtm/auth';
import { connect as natsConnect } from 'nats';
import { createTestDatabase, type TestDatabase } from './database.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type { ProcessKind };

export interface RunningProcess {
  kind: ProcessKind;
  name: string;
  child: ChildProcess;
  internalUrl: string;
  /** Set for gateways. */
  controlUrl: string;
  realtimeUrl: string;
  /** Everything the process printed, for assertions and for failure reports. */
  output: string[];
  /** Resolves with the exit code once the process has exited. */
  exited: Promise<number | null>;
  /** SIGKILL: no drain, no goodbye (as a crash). */
  kill(): Promise<void>;
  /** SIGTERM and wait: a graceful drain. */
  stop(): Promise<number | null>;
}

export interface ClusterOptions {
  gateways?: number;
  channelNodes?: number;
  dispatchers?: number;
  /** Extra environment for every process (e.g. a short WEBHOOK_RETRY_SCHEDULE). */
  env?: Record<string, string>;
  /**
   * A directory `npm run build` wrote: run its compiled processes with plain node (no tsx)
   * instead of the sources.
   */
  build?: string;
}

export interface Cluster {
  db: TestDatabase;
  prefix: string;
  env: Record<string, string>;
  gateways: RunningProcess[];
  channelNodes: RunningProcess[];
  dispatchers: RunningProcess[];
  /** Starts one more process of a kind in this cluster. */
  start(kind: ProcessKind, env?: Record<string, string>): Promise<RunningProcess>;
  createEnvironment(name?: string): Promise<CreatedEnvironment>;
}

const ENTRY: Record<ProcessKind, string> = {
  gateway: 'apps/gateway/src/main.ts',
  'channel-node': 'apps/channel-node/src/main.ts',
  dispatcher: 'apps/dispatcher/src/main.ts',
};

let counter = 0;

/**
 * Every service this test file started and that still runs. The test runner stops a file that
 * overran its time-out with SIGTERM, which skips `t.after`: without this, its services would
 * outlive it and load the rest of the run.
 */
const running = new Set<ChildProcess>();
const killRunning = () => {
  for (const child of running) child.kill('SIGKILL');
};
process.once('exit', killRunning);
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    killRunning();
    process.exit(signal === 'SIGTERM' ? 143 : 130);
  });
}

/**
 * What every test process gets unless a test says otherwise: loopback webhook targets allowed
 * (test receivers listen on 127.0.0.1), a webhook-secret encryption key of this test file, and
 * a short circuit-breaker cool-down, so tests of the retry schedule (which fail one endpoint
 * many times on purpose) wait seconds, not the default 30 s, once its circuit opens.
 */
export const TEST_SECRET_ENCRYPTION_KEY = randomBytes(32).toString('base64');
const TEST_DEFAULTS = {
  WEBHOOK_ALLOW_LOOPBACK: 'true',
  SECRET_ENCRYPTION_KEY: TEST_SECRET_ENCRYPTION_KEY,
  WEBHOOK_BREAKER_COOLDOWN: '1s',
};

export async function startProcess(
  kind: ProcessKind,
  env: Record<string, string>,
  options: { readyTimeoutMs?: number; build?: string } = {},
): Promise<RunningProcess> {
  const name = `${kind}-${++counter}`;
  // process.execPath: the children run on the test's own Node (set-up may have put Node 24 first on PATH)
  const entry = options.build ? [join(options.build, ENTRY[kind].replace(/\.ts$/, '.js'))] : ['--import', 'tsx', ENTRY[kind]];
  // a fresh environment, NODE_OPTIONS included: nothing is preloaded that the command does not say
  const child = spawn(process.execPath, [...NODE_FLAGS[kind], ...entry], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
      CONTROL_PORT: '0',
      REALTIME_PORT: '0',
      INTERNAL_PORT: '0',
      NODE_NAME: name,
      ...TEST_DEFAULTS,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  const announced = new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => {
      // nobody will stop a process that never started: stopped here, or its open pipes keep the
      // test file alive until the runner's own time-out
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start in time:\n${output.slice(-30).join('\n')}`));
    }, options.readyTimeoutMs ?? 60_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      if (output.length > 5000) output.splice(0, 1000);
      if (line.startsWith('{"msg":"listening"')) {
        clearTimeout(timer);
        resolve(JSON.parse(line) as Record<string, unknown>);
      }
    });
    createInterface({ input: child.stderr! }).on('line', (line) => {
      if (!line.includes('nodedir')) output.push(line);
    });
    // 'close' (not 'exit'): by then every line the process printed has been read into `output`
    child.once('close', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}) before it was ready:\n${output.slice(-30).join('\n')}`));
    });
  });
  const info = await announced;
  const proc: RunningProcess = {
    kind,
    name,
    child,
    output,
    exited,
    internalUrl: `http://127.0.0.1:${info.internalPort}`,
    controlUrl: `http://127.0.0.1:${info.controlPort ?? 0}`,
    realtimeUrl: `http://127.0.0.1:${info.realtimePort ?? 0}`,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
  return proc;
}

/** Waits until a process's `/internal/ready` answers 200. */
export async function waitReady(proc: RunningProcess, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(`${proc.internalUrl}/internal/ready`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${proc.name} not ready in time:\n${proc.output.slice(-20).join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A real cluster for one test file: its own database (cloned from the migrated template), its
 * own NATS prefix, and the requested processes, all stopped (SIGKILL) and dropped at the end.
 */
export async function startCluster(t: TestContext, options: ClusterOptions = {}): Promise<Cluster> {
  const db = await createTestDatabase(t);
  const prefix = `t${randomBytes(5).toString('hex')}`;
  const env = {
    DATABASE_URL: db.url,
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    NATS_PREFIX: prefix,
    ...TEST_DEFAULTS,
    ...options.env,
  };
  const all: RunningProcess[] = [];
  t.after(async () => {
    await Promise.all(all.map((proc) => proc.kill()));
    // the processes' KV buckets (presence, limits, socket quotas) would otherwise stay on the
    // server after the test: hundreds after a run, each slowing every KV write on the server
    await dropNatsPrefix(env.NATS_URL, prefix).catch(() => {});
  });
  const start = async (kind: ProcessKind, extra: Record<string, string> = {}) => {
    const proc = await startProcess(kind, { ...env, ...extra }, { build: options.build });
    all.push(proc);
    await waitReady(proc);
    return proc;
  };
  const startMany = (kind: ProcessKind, n: number) => Promise.all(Array.from({ length: n }, () => start(kind)));
  const [channelNodes, dispatchers, gateways] = await Promise.all([
    startMany('channel-node', options.channelNodes ?? 0),
    startMany('dispatcher', options.dispatchers ?? 0),
    startMany('gateway', options.gateways ?? 1),
  ]);
  let envCount = 0;
  return {
    db,
    prefix,
    env,
    gateways,
    channelNodes,
    dispatchers,
    async start(kind, extra) {
      const proc = await start(kind, extra);
      ({ gateway: gateways, 'channel-node': channelNodes, dispatcher: dispatchers })[kind].push(proc);
      return proc;
    },
    createEnvironment: (name) => createEnvironment(db.pool, { organization: 'test-org', project: 'test-project', environment: name ?? `env-${++envCount}` }),
  };
}

/** Deletes the JetStream streams (KV buckets: presence, limits, socket quotas) the processes made under `prefix`. */
export async function dropNatsPrefix(natsUrl: string, prefix: string): Promise<void> {
  const nc = await natsConnect({ servers: natsUrl, name: 'test-cleanup' });
  try {
    const jsm = await nc.jetstreamManager();
    const names: string[] = [];
    for await (const stream of jsm.streams.list()) if (stream.config.name.startsWith(`KV_${prefix}_`)) names.push(stream.config.name);
    for (const name of names) await jsm.streams.delete(name);
  } finally {
    await nc.close();
  }
}
