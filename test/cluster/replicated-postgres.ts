/**
 * Postgres with streaming replication, for failover tests, from Debian's binaries on free loopback
 * ports in a temporary directory: a primary (initdb), a SYNCHRONOUS standby (`pg_basebackup -R`,
 * named in the primary's `synchronous_standby_names`, synchronous_commit=on: a commit is
 * acknowledged once the standby has flushed it) and optionally an asynchronous replica. Both
 * servers of the pair carry the same `synchronous_standby_names`, naming each other. Nothing
 * promotes by itself here: `promote()` does what an orchestrator does (pg_ctl promote of the
 * standby, then synchronous replication off on it: its own standby is the lost primary, and a
 * synchronous primary without its standby blocks every commit). auto-failover.ts is the same
 * with pg_auto_failover deciding.
 */
import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './infra.ts';
import { PostgresNode, PostgresSet, until, type AfterHook } from './postgres-node.ts';

/**
 * The pair's synchronous replication, the same on both servers (as a configuration deployed to
 * both would be): whichever is primary waits for the other, by its cluster_name (its
 * application_name as a standby). The replica is not in it: asynchronous.
 */
const SYNCHRONOUS_STANDBYS = `FIRST 1 ("standby", "primary")`;

/** What every server here runs with. fsync off: the machine's disk is shared, and kill -9 of a
 * process loses nothing the kernel already holds (these tests never crash the kernel). `extra`
 * lines come last, so they override (a benchmark turns fsync back on). */
function settings(name: string, port: number, socketDir: string, extra: readonly string[] = []): string {
  return [
    '',
    `listen_addresses = '127.0.0.1'`,
    `port = ${port}`,
    `unix_socket_directories = '${socketDir}'`,
    `cluster_name = '${name}'`,
    'max_connections = 400',
    'shared_buffers = 32MB',
    'fsync = off',
    'wal_level = replica',
    'max_wal_senders = 10',
    'max_replication_slots = 10',
    'wal_keep_size = 256MB',
    'hot_standby = on',
    'wal_log_hints = on',
    'synchronous_commit = on',
    "log_line_prefix = '%m [%p] '",
    ...extra,
    '',
  ].join('\n');
}

/** A server of a `ReplicatedPostgres`, started and stopped with pg_ctl. */
export class ReplicatedNode extends PostgresNode {
  private readonly set: ReplicatedPostgres;

  constructor(name: string, port: number, dir: string, set: ReplicatedPostgres) {
    super(name, port, dir);
    this.set = set;
  }

  private pgCtl(args: string[]): Promise<string> {
    return this.set.exec(join(this.set.bin, 'pg_ctl'), args, { cwd: this.dir });
  }

  /** pg_ctl start on its data, as it was left (a standby resumes following its primary). */
  async start(options: string[] = []): Promise<void> {
    const extra = options.length ? ['-o', options.join(' ')] : [];
    const log = join(this.dir, 'server.log');
    await this.pgCtl(['start', '-w', '-t', '60', '-D', this.dataDir, '-l', log, ...extra]).catch((error: Error) => {
      const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-15).join('\n') : '';
      throw new Error(`${error.message}\n${this.name}'s server.log:\n${tail}`);
    });
  }

  /** pg_ctl stop -m fast: sessions ended, a clean shutdown. */
  async stop(): Promise<void> {
    if (this.running()) await this.pgCtl(['stop', '-w', '-m', 'fast', '-D', this.dataDir]);
  }

  /**
   * Starts it as a standalone read-write server on its own data, whatever it was: no standby
   * signal, synchronous replication off (its old standby will never confirm anything again). On a
   * former primary this is split brain, the case an orchestrator exists to prevent.
   */
  async startAlone(): Promise<void> {
    rmSync(join(this.dataDir, 'standby.signal'), { force: true });
    await this.start([`-c synchronous_standby_names=''`]);
  }
}

export interface ReplicatedOptions {
  /** Adds an asynchronous replica (hot standby, not in synchronous_standby_names). */
  replica?: boolean;
  /** postgresql.conf lines for every server, after the defaults above (e.g. `fsync = on`). */
  settings?: string[];
}

export class ReplicatedPostgres extends PostgresSet {
  primary!: ReplicatedNode;
  /** The synchronous standby: what `promote()` promotes when the primary is lost. */
  standby!: ReplicatedNode;
  replica: ReplicatedNode | undefined;
  private readonly extraSettings: readonly string[];

  constructor(options: ReplicatedOptions = {}) {
    super('replication');
    this.extraSettings = options.settings ?? [];
  }

  /**
   * Primary, synchronous standby (and replica), each streaming from the primary. The clean-up is
   * registered with the test (and the process) before anything starts.
   */
  static async start(t: AfterHook, options: ReplicatedOptions = {}): Promise<ReplicatedPostgres> {
    const set = new ReplicatedPostgres(options);
    set.cleanUpAfter(t);
    set.primary = await set.initPrimary('primary');
    set.standby = await set.addStandby('standby');
    if (options.replica) set.replica = await set.addStandby('replica');
    await set.synchronous(true);
    return set;
  }

  /**
   * Synchronous replication on or off on the primary, as an operator switches it
   * (`ALTER SYSTEM SET synchronous_standby_names`, `pg_reload_conf()`), and waits until the
   * standby streams in that state. Off, the standby still receives and replays everything, and a
   * commit no longer waits for it.
   */
  async synchronous(on: boolean): Promise<void> {
    await this.primary.query(`alter system set synchronous_standby_names = '${on ? SYNCHRONOUS_STANDBYS : ''}'`);
    await this.primary.query('select pg_reload_conf()');
    const state = on ? 'sync' : 'async';
    await until(
      `the standby streaming ${on ? 'synchronously' : 'asynchronously'}`,
      async () =>
        (await this.primary.query<{ s: string }>(`select sync_state as s from pg_stat_replication where application_name = 'standby'`))[0]?.s === state,
      20_000,
    );
  }

  /** The servers made here, primary first. */
  nodes(): ReplicatedNode[] {
    return [this.primary, this.standby, ...(this.replica ? [this.replica] : [])];
  }

  /**
   * `postgres://postgres@127.0.0.1:<primary>,127.0.0.1:<standby>/<database>?target_session_attrs=read-write`:
   * both servers that can be the writer, in libpq's multi-host form.
   */
  multiHostUrl(database: string): string {
    const hosts = [this.primary, this.standby].map((n) => `127.0.0.1:${n.port}`).join(',');
    return `postgres://postgres@${hosts}/${database}?target_session_attrs=read-write`;
  }

  private async initPrimary(name: string): Promise<ReplicatedNode> {
    const dir = this.nodeDir(name);
    const node = new ReplicatedNode(name, await freePort(), dir, this);
    this.dataDirs.push(node.dataDir);
    await this.exec(join(this.bin, 'initdb'), ['-D', node.dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions'], { cwd: dir });
    appendFileSync(join(node.dataDir, 'postgresql.conf'), settings(name, node.port, dir, this.extraSettings));
    // initdb's trust rules already admit replication from loopback; said here so it does not depend on them
    appendFileSync(join(node.dataDir, 'pg_hba.conf'), '\nhost replication all 127.0.0.1/32 trust\n');
    await node.start();
    return node;
  }

  /**
   * A hot standby of the primary: `pg_basebackup -R` (primary_conninfo and standby.signal written)
   * with a replication slot of its name, so the primary keeps the WAL it has not received.
   */
  private async addStandby(name: string): Promise<ReplicatedNode> {
    const dir = this.nodeDir(name);
    const node = new ReplicatedNode(name, await freePort(), dir, this);
    this.dataDirs.push(node.dataDir);
    await this.exec(
      join(this.bin, 'pg_basebackup'),
      ['-h', '127.0.0.1', '-p', String(this.primary.port), '-U', 'postgres', '-D', node.dataDir, '-R', '-C', '-S', name, '-X', 'stream', '-c', 'fast'],
      { cwd: dir },
    );
    const synchronous = name === 'standby' ? `synchronous_standby_names = '${SYNCHRONOUS_STANDBYS}'\n` : '';
    appendFileSync(join(node.dataDir, 'postgresql.conf'), `${settings(name, node.port, dir, this.extraSettings)}${synchronous}`);
    await node.start();
    await until(
      `${name} streaming`,
      async () => (await this.primary.query(`select 1 from pg_stat_replication where application_name = $1 and state = 'streaming'`, [name])).length === 1,
      20_000,
    );
    return node;
  }

  /** Waits until a standby has replayed everything the primary had written when this was called. */
  async caughtUp(node: ReplicatedNode, limitMs = 30_000): Promise<void> {
    const lsn = (await this.primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn'))[0]!.lsn;
    await until(
      `${node.name} replayed ${lsn}`,
      async () => (await node.query<{ done: boolean }>('select pg_last_wal_replay_lsn() >= $1::pg_lsn as done', [lsn]))[0]!.done,
      limitMs,
    );
  }

  /**
   * What an orchestrator does once the primary is lost: promote the synchronous standby, turn
   * synchronous replication off on it (nothing would confirm its commits), wait until it accepts
   * writes. It becomes `this.primary`; the old primary is `this.standby` from then on, as a
   * server to rebuild or to start alone. Returns the milliseconds from the call to writable.
   */
  async promote(): Promise<number> {
    const started = Date.now();
    const [promoted, old] = [this.standby, this.primary];
    await this.exec(join(this.bin, 'pg_ctl'), ['promote', '-w', '-t', '60', '-D', promoted.dataDir], { cwd: promoted.dir });
    await promoted.query(`alter system set synchronous_standby_names = ''`);
    await promoted.query('select pg_reload_conf()');
    await until(`${promoted.name} writable`, () => promoted.writable(), 20_000);
    this.primary = promoted;
    this.standby = old;
    return Date.now() - started;
  }

  /**
   * Points a replica at another primary (after a promotion): a slot there, primary_conninfo
   * changed and reloaded; `recovery_target_timeline = 'latest'` (the default) makes it follow
   * the new timeline.
   */
  async follow(replica: ReplicatedNode, primary: ReplicatedNode): Promise<void> {
    await primary.query(`select pg_create_physical_replication_slot($1) where not exists (select 1 from pg_replication_slots where slot_name = $1)`, [
      replica.name,
    ]);
    await replica.query(`alter system set primary_conninfo = 'host=127.0.0.1 port=${primary.port} user=postgres application_name=${replica.name}'`);
    await replica.query(`alter system set primary_slot_name = '${replica.name}'`);
    await replica.query('select pg_reload_conf()');
    await until(
      `${replica.name} streaming from ${primary.name}`,
      async () => (await primary.query(`select 1 from pg_stat_replication where application_name = $1 and state = 'streaming'`, [replica.name])).length === 1,
      30_000,
    );
  }
}
