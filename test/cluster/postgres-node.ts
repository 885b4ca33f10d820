/**
 * The parts shared by the replicated Postgres sets of the cluster tests (replicated-postgres.ts:
 * streaming replication promoted by the test; auto-failover.ts: a pg_auto_failover formation):
 * one temporary directory, Debian's binaries run as the `postgres` user when the test runs as root
 * (Postgres refuses root), and one Postgres server with the probes a failover test asks of it.
 * `PostgresSet.close()` (or `killSync()` from an `exit` hook) ends every process and removes the
 * directory, whatever state the servers were left in.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { keepOutput } from './infra.ts';

/** What a set's clean-up is registered with: a test's context, or a benchmark's list of clean-ups. */
export interface AfterHook {
  after(fn: () => Promise<void>): void;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `probe` holds (a throw counts as not yet); how long that took, in ms. */
export async function until(what: string, probe: () => boolean | Promise<boolean>, limitMs = 30_000, stepMs = 50): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (
      await Promise.resolve()
        .then(probe)
        .catch(() => false)
    )
      return Date.now() - started;
    if (Date.now() - started > limitMs) throw new Error(`${what}: not true after ${limitMs} ms`);
    await sleep(stepMs);
  }
}

/** The directory of initdb, pg_ctl, pg_basebackup: PATH first, then Debian's versioned layout, newest first. */
export function postgresBinDir(): string {
  // a link on PATH (/usr/local/bin/initdb) stands for the whole directory it points into
  for (const dir of (process.env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, 'initdb'))) return dirname(realpathSync(join(dir, 'initdb')));
  const versions = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .sort((a, b) => Number(b) - Number(a))
        .map((v) => `/usr/lib/postgresql/${v}/bin`)
    : [];
  const dir = versions.find((d) => existsSync(join(d, 'initdb')));
  if (!dir) throw new Error('initdb not found (PATH, /usr/lib/postgresql/*/bin)');
  return dir;
}

/** Every process's parent and process group (from /proc). */
function processTable(): Map<number, { ppid: number; pgid: number }> {
  const table = new Map<number, { ppid: number; pgid: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses
      const [, ppid, pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      table.set(Number(entry), { ppid: Number(ppid), pgid: Number(pgid) });
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

/**
 * Whether a process exists, a zombie included: a new postmaster refuses a data directory whose
 * postmaster.pid names a process that kill(pid, 0) still finds.
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // gone
  }
}

/**
 * kill -9 of processes, their process groups' members and all their descendants at once.
 * A postmaster's children each lead a process group of their own (Postgres makes them), so
 * killing a keeper's or a postmaster's group would leave backends to notice their postmaster's
 * death in their own time: the roots are stopped first (no more forks), then every process of
 * the tree is killed. Returns the processes killed.
 */
function killTreesNow(roots: { pids?: number[]; groups?: number[] }): number[] {
  const pids = (roots.pids ?? []).filter((pid) => pid > 0);
  const groups = (roots.groups ?? []).filter((pgid) => pgid > 0);
  for (const pgid of groups) signal(-pgid, 'SIGSTOP');
  for (const pid of pids) signal(pid, 'SIGSTOP');
  const table = processTable();
  const doomed = new Set(pids.filter((pid) => table.has(pid)));
  for (const [pid, p] of table) if (groups.includes(p.pgid)) doomed.add(pid);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, p] of table) {
      if (!doomed.has(pid) && doomed.has(p.ppid)) {
        doomed.add(pid);
        grew = true;
      }
    }
  }
  for (const pgid of groups) signal(-pgid, 'SIGKILL');
  for (const pid of doomed) signal(pid, 'SIGKILL');
  return [...doomed];
}

/** `killTreesNow`, then waits until every process it killed is gone. */
async function killTrees(roots: { pids?: number[]; groups?: number[] }): Promise<void> {
  const doomed = killTreesNow(roots);
  await until('killed processes gone', () => doomed.every((pid) => !alive(pid)), 10_000);
}

/** A long-lived process started by a set (a pg_auto_failover keeper), in its own process group. */
export interface Daemon {
  name: string;
  child: ChildProcess;
  exited: Promise<void>;
  log: string[];
}

export class PostgresSet {
  readonly dir: string;
  readonly bin = postgresBinDir();
  /** Every data directory made here, stopped at close whatever started it. */
  protected readonly dataDirs: string[] = [];
  protected readonly daemons = new Set<Daemon>();
  /** The process groups of commands `exec` waits for. */
  private readonly commands = new Set<number>();
  private readonly user: { uid: number; gid: number } | undefined;

  constructor(prefix: string) {
    this.dir = mkdtempSync(join(tmpdir(), `rtm-${prefix}-`));
    if (process.getuid?.() === 0) {
      const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
      this.user = { uid: id('-u'), gid: id('-g') };
      execFileSync('chmod', ['755', this.dir]);
    }
  }

  /** The environment of every command run here: nothing of the caller's, Postgres binaries on PATH. */
  protected env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
    return { PATH: `${this.bin}:/usr/bin:/bin`, LANG: 'C.UTF-8', ...extra };
  }

  /** A directory the postgres user owns (a node's home, its data directory's parent). */
  protected nodeDir(name: string): string {
    const dir = join(this.dir, name);
    mkdirSync(dir, { mode: 0o700 });
    if (this.user) chownSync(dir, this.user.uid, this.user.gid);
    return dir;
  }

  /**
   * Runs a command as the postgres user, in `cwd`, and waits for it; a failure carries its output.
   * It runs in a process group of its own, killed with the rest if the set is closed meanwhile
   * (`pg_autoctl create` starts a Postgres of its own while it runs).
   */
  async exec(command: string, args: string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<string> {
    const child = spawn(command, args, {
      ...this.user,
      cwd: options.cwd ?? this.dir,
      env: this.env(options.env),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const pgid = child.pid;
    if (pgid) this.commands.add(pgid);
    const timer = setTimeout(() => pgid && killTreesNow({ groups: [pgid] }), options.timeoutMs ?? 120_000);
    try {
      const code = await new Promise<number | string | null>((resolve, reject) => {
        child.once('error', reject);
        child.once('close', (exitCode, signalName) => resolve(exitCode ?? signalName));
      });
      if (code !== 0) throw new Error(`${command} ${args.join(' ')}: exit ${code}\n${output.join('')}`);
      return output.join('');
    } finally {
      clearTimeout(timer);
      if (pgid) this.commands.delete(pgid);
    }
  }

  /** Starts a long-lived command as the postgres user in a process group of its own (kill -9 takes all of it). */
  protected spawnDaemon(name: string, command: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Daemon {
    const child = spawn(command, args, { ...this.user, cwd: options.cwd, env: this.env(options.env), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const daemon = { name, child, ...keepOutput(child) };
    this.daemons.add(daemon);
    return daemon;
  }

  /** kill -9 of a daemon's process group and every descendant (its Postgres and backends). */
  protected async killDaemon(daemon: Daemon): Promise<void> {
    await killTrees({ groups: [daemon.child.pid!] });
    await daemon.exited;
  }

  /**
   * Registers the clean-up with the test (or anything with `after`, as a benchmark's clean-up
   * list) and with the process (exit, SIGINT, SIGTERM): nothing outlives the test.
   */
  cleanUpAfter(t: AfterHook): void {
    const onExit = () => this.killSync();
    const onSignal = (signal: NodeJS.Signals) => {
      this.killSync();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    };
    process.once('exit', onExit);
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    t.after(async () => {
      await this.close();
      process.removeListener('exit', onExit);
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
    });
  }

  /** The postmasters of the data directories made here that still run (from their postmaster.pid). */
  runningPostmasters(): number[] {
    return this.dataDirs.map((dir) => postmasterPid(dir)).filter((pid): pid is number => pid !== undefined && alive(pid));
  }

  /** Kills every command, daemon and postmaster started here, with their descendants; removes the directory. */
  async close(): Promise<void> {
    await killTrees(this.everything());
    await Promise.all([...this.daemons].map((daemon) => daemon.exited));
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** For a process `exit` hook (nothing async runs there): the same as `close`, without waiting. */
  killSync(): void {
    killTreesNow(this.everything());
    rmSync(this.dir, { recursive: true, force: true });
  }

  private everything(): { pids: number[]; groups: number[] } {
    const groups = [...this.commands, ...[...this.daemons].map((d) => d.child.pid!)];
    return { pids: this.runningPostmasters(), groups };
  }

  /** The last lines a daemon printed, for failure reports. */
  logs(name: string): string {
    return [...this.daemons]
      .filter((d) => d.name === name)
      .flatMap((d) => d.log.slice(-40))
      .join('\n');
  }
}

export function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** kill -9 of a postmaster and all its children at once, then wait until they are gone. */
export async function killPostmaster(pid: number): Promise<void> {
  await killTrees({ pids: [pid] });
}

export interface ReplayLag {
  /** WAL received but not replayed yet. */
  bytes: number;
  /** now() minus the commit time of the last transaction replayed (null before any). */
  seconds: number | null;
}

/** One Postgres server on a loopback port: SQL probes and the state of its replication. */
export class PostgresNode {
  readonly name: string;
  readonly port: number;
  /** The node's own directory; the data directory is `data` in it. */
  readonly dir: string;

  constructor(name: string, port: number, dir: string) {
    this.name = name;
    this.port = port;
    this.dir = dir;
  }

  get dataDir(): string {
    return join(this.dir, 'data');
  }

  /** `postgres://postgres@127.0.0.1:<port>` (append `/<database>`). */
  get serverUrl(): string {
    return `postgres://postgres@127.0.0.1:${this.port}`;
  }

  url(database = 'postgres'): string {
    return `${this.serverUrl}/${database}`;
  }

  /** One query on a connection of its own (superuser `postgres`). */
  async query<R extends object = Record<string, unknown>>(sql: string, params: unknown[] = [], database = 'postgres'): Promise<R[]> {
    const client = new pg.Client({ connectionString: this.url(database), connectionTimeoutMillis: 3_000 });
    client.on('error', () => {});
    await client.connect();
    try {
      return (await client.query<R>(sql, params)).rows;
    } finally {
      await client.end().catch(() => {});
    }
  }

  /** Whether its postmaster runs (by postmaster.pid). */
  running(): boolean {
    const pid = postmasterPid(this.dataDir);
    return pid !== undefined && alive(pid);
  }

  async inRecovery(): Promise<boolean> {
    const [row] = await this.query<{ r: boolean }>('select pg_is_in_recovery() as r');
    return row!.r;
  }

  /** 'primary' or 'standby', as pg_is_in_recovery() says. */
  async role(): Promise<'primary' | 'standby'> {
    return (await this.inRecovery()) ? 'standby' : 'primary';
  }

  /** What libpq's target_session_attrs=read-write accepts: not in recovery, and not read-only by default. */
  async writable(): Promise<boolean> {
    const [row] = await this.query<{ w: boolean }>(`select not pg_is_in_recovery() and current_setting('transaction_read_only') = 'off' as w`);
    return row!.w;
  }

  /**
   * Its timeline: a primary's is that of its WAL insert position (exact at once after a promotion);
   * a standby's the one it receives, else that of its last restartpoint.
   */
  async timeline(): Promise<number> {
    const [row] = await this.query<{ tli: number }>(
      `select case when pg_is_in_recovery()
         then coalesce((select received_tli from pg_stat_wal_receiver), (select timeline_id from pg_control_checkpoint()))
         else ('x' || substr(pg_walfile_name(pg_current_wal_insert_lsn()), 1, 8))::bit(32)::int end as tli`,
    );
    return Number(row!.tli);
  }

  /** A standby's replay lag: WAL received and not yet replayed, and the age of its last replayed commit. */
  async replayLag(): Promise<ReplayLag> {
    const [row] = await this.query<{ bytes: string; seconds: number | null }>(
      `select coalesce(pg_wal_lsn_diff(pg_last_wal_receive_lsn(), pg_last_wal_replay_lsn()), 0)::bigint as bytes,
              extract(epoch from now() - pg_last_xact_replay_timestamp())::float8 as seconds`,
    );
    return { bytes: Number(row!.bytes), seconds: row!.seconds === null ? null : Number(row!.seconds) };
  }

  /** Pauses WAL replay on a standby (it keeps receiving): it falls behind its primary until resumed. */
  async pauseReplay(): Promise<void> {
    await this.query('select pg_wal_replay_pause()');
    await until(
      `${this.name} replay paused`,
      async () => (await this.query<{ s: string }>('select pg_get_wal_replay_pause_state() as s'))[0]!.s === 'paused',
      10_000,
    );
  }

  async resumeReplay(): Promise<void> {
    await this.query('select pg_wal_replay_resume()');
  }

  /** kill -9 of its postmaster and backends: as if the machine had gone. */
  async kill(): Promise<void> {
    const pid = postmasterPid(this.dataDir);
    if (pid !== undefined && alive(pid)) await killPostmaster(pid);
  }
}
