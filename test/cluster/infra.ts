/**
 * The infrastructure of the production-shaped cluster test, as real processes on free loopback
 * ports in one temporary directory: a private Postgres instance (initdb + pg_ctl), a 3-node NATS
 * cluster with JetStream, and HAProxy in front of the gateways. Nothing here touches the machine's
 * shared Postgres or NATS. Every process and the directory are removed by `Infra.close()`, which
 * the test registers before it starts anything, so a failure part-way still cleans up.
 */
import { spawn, execFile, execFileSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A loopback port nothing listens on right now (the kernel picks it; we release it at once). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, probe: () => Promise<boolean>, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not true after ${limitMs} ms`);
    await sleep(100);
  }
}

function which(name: string, fallbacks: string[]): string {
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, name))) return join(dir, name);
  for (const candidate of fallbacks) if (existsSync(candidate)) return candidate;
  throw new Error(`${name} not found (PATH and ${fallbacks.join(', ')})`);
}

/** initdb and pg_ctl: PATH first, then Debian's versioned layout, newest first (as scripts/setup.sh). */
function postgresBinaries(): { initdb: string; pgCtl: string } {
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .sort((a, b) => Number(b) - Number(a))
        .map((v) => `/usr/lib/postgresql/${v}/bin`)
    : [];
  return {
    initdb: which(
      'initdb',
      versions.map((dir) => `${dir}/initdb`),
    ),
    pgCtl: which(
      'pg_ctl',
      versions.map((dir) => `${dir}/pg_ctl`),
    ),
  };
}

interface Child {
  name: string;
  child: ChildProcess;
  exited: Promise<void>;
  log: string[];
}

/** A child's output lines, the last ~2,000 kept (for a failing test's report), and its exit. */
export function keepOutput(child: ChildProcess): { log: string[]; exited: Promise<void> } {
  const log: string[] = [];
  const keep = (chunk: Buffer) => {
    log.push(...chunk.toString().split('\n').filter(Boolean));
    if (log.length > 2000) log.splice(0, 500);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { log, exited };
}

function spawnLogged(name: string, command: string, args: string[]): Child {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return { name, child, ...keepOutput(child) };
}

async function killChild(proc: Child, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (proc.child.exitCode === null && proc.child.signalCode === null) proc.child.kill(signal);
  await proc.exited;
}

export interface NatsNode {
  name: string;
  url: string;
  port: number;
  monitorPort: number;
  /** kill -9: no goodbye to clients or to the cluster. */
  kill(): Promise<void>;
  /** SIGTERM: a clean shutdown, then wait for the exit. */
  stop(): Promise<void>;
  /** Starts it again with the same ports and store. */
  start(): Promise<void>;
  running(): boolean;
}

export interface Postgres {
  port: number;
  /** `postgres://postgres@127.0.0.1:<port>` (append `/<database>`). */
  serverUrl: string;
  /** pg_ctl stop -m fast: sessions are ended, the server shuts down cleanly. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

export interface Balancer {
  controlUrl: string;
  realtimeUrl: string;
  statsUrl: string;
}

export interface GatewaySlot {
  controlPort: number;
  realtimePort: number;
  internalPort: number;
}

export class Infra {
  readonly dir: string;
  private readonly children = new Set<Child>();
  private postgresDir: string | undefined;
  private readonly pg = postgresBinaries();
  private readonly asPostgres: string[];

  constructor() {
    this.dir = mkdtempSync(join(tmpdir(), 'rtm-cluster-'));
    // postgres refuses to run as root: then it runs as the `postgres` user, which must own its files
    this.asPostgres = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  }

  private exec(command: string, args: string[]) {
    const [head, ...rest] = [...this.asPostgres, command, ...args];
    return run(head!, rest, { timeout: 60_000 });
  }

  async startPostgres(): Promise<Postgres> {
    const dir = join(this.dir, 'postgres');
    mkdirSync(dir, { mode: 0o700 });
    if (this.asPostgres.length) {
      // the postgres user must be able to enter the temp dir and own its data dir
      const { uid, gid } = await run('id', ['-u', 'postgres']).then(async ({ stdout }) => ({
        uid: Number(stdout.trim()),
        gid: Number((await run('id', ['-g', 'postgres'])).stdout.trim()),
      }));
      await run('chmod', ['755', this.dir]);
      chownSync(dir, uid, gid);
    }
    this.postgresDir = dir;
    await this.exec(this.pg.initdb, ['-D', dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions']);
    const port = await freePort();
    // fsync off: this machine's disk is shared with other work; the restart scenario stops the
    // server cleanly (-m fast writes a checkpoint), so nothing committed depends on fsync here
    const options = `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir} -c max_connections=400 -c fsync=off -c full_page_writes=off`;
    const start = async () => {
      await this.exec(this.pg.pgCtl, ['start', '-w', '-D', dir, '-l', join(dir, 'server.log'), '-o', options]);
    };
    const stop = async () => {
      await this.exec(this.pg.pgCtl, ['stop', '-w', '-m', 'fast', '-D', dir]);
    };
    await start();
    return { port, serverUrl: `postgres://postgres@127.0.0.1:${port}`, start, stop };
  }

  /** Three nats-server processes in one cluster, JetStream on each, their own store directories. */
  async startNats(count = 3): Promise<NatsNode[]> {
    const bin = which('nats-server', ['/usr/sbin/nats-server', '/usr/bin/nats-server']);
    const ports = await Promise.all(
      Array.from({ length: count }, async () => ({ client: await freePort(), cluster: await freePort(), monitor: await freePort() })),
    );
    const routes = ports.map((p) => `nats-route://127.0.0.1:${p.cluster}`);
    const nodes = ports.map((p, i): NatsNode => {
      const name = `nats-${i + 1}`;
      const store = join(this.dir, name);
      mkdirSync(store);
      const config = join(this.dir, `${name}.conf`);
      // no_advertise: clients know the servers from their own list (NATS_URL) only, as behind a
      // service address; the cluster does not hand them its members' loopback addresses
      writeFileSync(
        config,
        [
          `server_name: ${name}`,
          `listen: 127.0.0.1:${p.client}`,
          `http: 127.0.0.1:${p.monitor}`,
          `jetstream { store_dir: "${store}", max_memory_store: 256MB, max_file_store: 1GB }`,
          // one server: standalone (a cluster of one never elects a JetStream leader)
          ...(count > 1 ? [`cluster { name: rtm-test, listen: 127.0.0.1:${p.cluster}, no_advertise: true, routes: [${routes.join(', ')}] }`] : []),
          '',
        ].join('\n'),
      );
      let proc: Child | undefined;
      const node: NatsNode = {
        name,
        url: `nats://127.0.0.1:${p.client}`,
        port: p.client,
        monitorPort: p.monitor,
        kill: async () => {
          if (proc) await killChild(proc);
        },
        stop: async () => {
          if (proc) await killChild(proc, 'SIGTERM');
        },
        start: async () => {
          proc = spawnLogged(name, bin, ['-c', config]);
          this.children.add(proc);
        },
        running: () => !!proc && proc.child.exitCode === null && proc.child.signalCode === null,
      };
      return node;
    });
    for (const node of nodes) await node.start();
    await this.natsHealthy(nodes);
    return nodes;
  }

  /** Every running node answers /healthz (JetStream current, a meta leader elected). */
  async natsHealthy(nodes: NatsNode[], limitMs = 30_000): Promise<void> {
    for (const node of nodes.filter((n) => n.running())) {
      await until(`${node.name} healthy`, async () => (await fetch(`http://127.0.0.1:${node.monitorPort}/healthz`)).ok, limitMs);
    }
  }

  /**
   * HAProxy in HTTP mode before every gateway slot: one frontend for the control plane, one for
   * the realtime edge (WebSocket upgrades pass through; `timeout tunnel` keeps them open). Each
   * server is checked on its gateway's `/internal/ready`, so a draining or stopped gateway stops
   * getting new connections; a connection refused is retried on another server (`redispatch`).
   */
  async startHaproxy(slots: GatewaySlot[]): Promise<Balancer> {
    const bin = which('haproxy', ['/usr/sbin/haproxy']);
    const [control, realtime, stats] = [await freePort(), await freePort(), await freePort()];
    const servers = (kind: 'controlPort' | 'realtimePort') =>
      slots.map((slot, i) => `  server gw${i + 1} 127.0.0.1:${slot[kind]} check port ${slot.internalPort}`);
    // the balancer's own answers (no gateway ready, one lost mid-request) in the service's error
    // envelope, so clients handle them as they handle a gateway's 503 `unavailable`: retry
    const errorfiles = [502, 503, 504].map((status) => {
      const file = join(this.dir, `haproxy-${status}.http`);
      const body = JSON.stringify({ code: 'unavailable', reason: 'no gateway answered; retry' });
      const text = { 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' }[status];
      writeFileSync(
        file,
        `HTTP/1.1 ${status} ${text}\r\ncontent-type: application/json\r\nx-service-error: unavailable\r\nretry-after: 1\r\n` +
          `cache-control: no-store\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
      return `  errorfile ${status} ${file}`;
    });
    const config = [
      'global',
      '  maxconn 8000',
      'defaults',
      '  mode http',
      '  option httplog',
      '  option forwardfor',
      '  option redispatch 1',
      '  retries 3',
      '  timeout connect 2s',
      '  timeout client 60s',
      '  timeout server 60s',
      '  timeout tunnel 1h',
      '  timeout client-fin 5s',
      '  timeout http-keep-alive 2s',
      '  default-server inter 250ms fall 2 rise 2 maxconn 2000',
      ...errorfiles,
      `frontend control`,
      `  bind 127.0.0.1:${control}`,
      '  default_backend control',
      `frontend realtime`,
      `  bind 127.0.0.1:${realtime}`,
      '  default_backend realtime',
      'backend control',
      '  balance roundrobin',
      '  option httpchk GET /internal/ready',
      ...servers('controlPort'),
      'backend realtime',
      '  balance leastconn',
      '  option httpchk GET /internal/ready',
      ...servers('realtimePort'),
      `frontend stats`,
      `  bind 127.0.0.1:${stats}`,
      '  stats enable',
      '  stats uri /stats',
      '',
    ].join('\n');
    const file = join(this.dir, 'haproxy.cfg');
    writeFileSync(file, config);
    await run(bin, ['-c', '-q', '-f', file]);
    const proc = spawnLogged('haproxy', bin, ['-db', '-f', file]);
    this.children.add(proc);
    const url = (port: number) => `http://127.0.0.1:${port}`;
    await until('haproxy listening', async () => (await fetch(`${url(stats)}/stats;csv`)).ok, 10_000);
    return { controlUrl: url(control), realtimeUrl: url(realtime), statsUrl: `${url(stats)}/stats;csv` };
  }

  /** Kills every process started here, stops Postgres and removes the directory. */
  async close(): Promise<void> {
    await Promise.all([...this.children].map((proc) => killChild(proc)));
    if (this.postgresDir) {
      await this.exec(this.pg.pgCtl, ['stop', '-w', '-m', 'immediate', '-D', this.postgresDir]).catch(() => {});
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** For a process `exit` hook (nothing async runs there): kill, stop Postgres, remove the directory. */
  killSync(): void {
    for (const proc of this.children) proc.child.kill('SIGKILL');
    if (this.postgresDir) {
      const [head, ...rest] = [...this.asPostgres, this.pg.pgCtl, 'stop', '-w', '-m', 'immediate', '-D', this.postgresDir];
      try {
        execFileSync(head!, rest, { stdio: 'ignore', timeout: 20_000 });
      } catch {
        // not running
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The last lines a child printed, for failure reports. */
  logs(name: string): string {
    return [...this.children]
      .filter((c) => c.name === name)
      .flatMap((c) => c.log.slice(-30))
      .join('\n');
  }
}
