/**
 * A pg_auto_failover formation (Debian's `postgresql-15-auto-failover`, installed by
 * scripts/setup.sh's `setup_auto_failover`) on free loopback ports in a temporary directory: a
 * monitor and two data nodes, each run by its keeper (`pg_autoctl run`), and optionally a third
 * node that replicates asynchronously and is never promoted (a read replica). The keepers set up
 * streaming replication themselves: the secondary is synchronous (`synchronous_standby_names =
 * 'ANY 1 (…)'`), and the monitor promotes it when the primary stops answering, turns synchronous
 * replication off while no secondary is left, and makes a returning old primary a secondary
 * (pg_rewind) before its Postgres is writable again.
 *
 * The monitor's health checks are tuned so that a primary lost to kill -9 is replaced within
 * seconds. Measured by replication.cluster.ts (4 writers, 2 busy cores): the secondary writable
 * 1.6 to 5.9 s after the kill (49 s with the monitor's default settings); the old primary a
 * rewound secondary 2.9 to 6.4 s after its keeper was started again.
 */
import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { freePort } from './infra.ts';
import { PostgresNode, PostgresSet, killPostmaster, postmasterPid, until, type Daemon } from './postgres-node.ts';

/** The monitor's failure detection (pgautofailover.* settings, milliseconds). */
export const MONITOR_SETTINGS: Record<string, number> = {
  health_check_period: 500,
  health_check_timeout: 500,
  health_check_max_retries: 1,
  health_check_retry_delay: 200,
  node_considered_unhealthy_timeout: 1_000,
  // how long the primary's keeper is given to demote itself before the standby goes ahead
  primary_demote_timeout: 2_000,
  startup_grace_period: 1_000,
};

/** Postgres settings of every server here, after pg_auto_failover's (later lines win). */
const SERVER_SETTINGS = ['', 'fsync = off', 'shared_buffers = 32MB', 'max_connections = 400', ''].join('\n');

export type NodeState = { name: string; goal: string; reported: string; healthy: boolean };

/** A data node: its keeper starts, stops and re-roles its Postgres. */
export class FormationNode extends PostgresNode {
  keeper: Daemon | undefined;
  private readonly formation: AutoFailover;

  constructor(name: string, port: number, dir: string, formation: AutoFailover) {
    super(name, port, dir);
    this.formation = formation;
  }

  /** Starts its keeper (`pg_autoctl run`): it asks the monitor what this node is before starting Postgres. */
  async start(): Promise<void> {
    this.keeper = this.formation.runKeeper(this);
  }

  /** SIGTERM to the keeper (it stops Postgres); a server started alone: pg_ctl stop -m fast. */
  async stop(): Promise<void> {
    if (this.keeper && this.keeper.child.exitCode === null && this.keeper.child.signalCode === null) {
      this.keeper.child.kill('SIGTERM');
      await this.keeper.exited;
    }
    if (this.running()) await this.formation.exec(join(this.formation.bin, 'pg_ctl'), ['stop', '-w', '-m', 'fast', '-D', this.dataDir], { cwd: this.dir });
  }

  /** kill -9 of the keeper and its Postgres (postmaster and backends): the machine is gone. */
  override async kill(): Promise<void> {
    if (this.keeper) await this.formation.killKeeper(this.keeper);
    const pid = postmasterPid(this.dataDir);
    if (pid !== undefined && this.running()) await killPostmaster(pid);
  }

  /**
   * Its Postgres without its keeper, as a standalone read-write server on its own data (no
   * standby signal, synchronous replication off): on a former primary this is split brain, what
   * the keeper exists to prevent. `stop()` stops it; `start()` afterwards hands it back to the
   * keeper, which rewinds it.
   */
  async startAlone(): Promise<void> {
    rmSync(join(this.dataDir, 'standby.signal'), { force: true });
    await this.formation.exec(
      join(this.formation.bin, 'pg_ctl'),
      [
        'start',
        '-w',
        '-t',
        '60',
        '-D',
        this.dataDir,
        '-l',
        join(this.dir, 'alone.log'),
        '-o',
        `-p ${this.port} -k ${this.dir} -c synchronous_standby_names='' -c default_transaction_read_only=off`,
      ],
      { cwd: this.dir },
    );
  }
}

export interface FormationOptions {
  /** Adds a third node: asynchronous, candidate priority 0 (never promoted). */
  replica?: boolean;
}

export class AutoFailover extends PostgresSet {
  monitorPort = 0;
  readonly nodes: FormationNode[] = [];

  constructor() {
    super('auto-failover');
  }

  /** `postgres://postgres@127.0.0.1:<port>/pg_auto_failover`: the monitor's database. */
  get monitorUrl(): string {
    return `postgres://postgres@127.0.0.1:${this.monitorPort}/pg_auto_failover`;
  }

  /**
   * Monitor, then node `a` (the first primary), then `b` (its synchronous secondary), then `c` if
   * asked. The clean-up is registered with the test (and the process) before anything starts.
   */
  static async start(t: TestContext, options: FormationOptions = {}): Promise<AutoFailover> {
    const formation = new AutoFailover();
    formation.cleanUpAfter(t);
    try {
      await formation.startMonitor();
      await formation.addNode('a', ['single', 'wait_primary', 'primary']);
      await formation.addNode('b', ['secondary']);
      if (options.replica) await formation.addNode('c', ['secondary'], ['--candidate-priority', '0', '--replication-quorum', 'false']);
      await formation.waitForState('a', 'primary', 30_000);
      // the keeper names the secondary in synchronous_standby_names once the monitor has it primary
      const a = formation.node('a');
      await until(
        'the secondary streaming synchronously',
        async () => (await a.query(`select 1 from pg_stat_replication where sync_state in ('sync', 'quorum')`)).length === 1,
        30_000,
      );
    } catch (error) {
      const logs = ['monitor', 'a', 'b', 'c'].map((name) => `== ${name}\n${formation.logs(name)}`).join('\n');
      throw new Error(`${(error as Error).message}\n${logs}`);
    }
    return formation;
  }

  node(name: string): FormationNode {
    const node = this.nodes.find((n) => n.name === name);
    if (!node) throw new Error(`no node ${name}`);
    return node;
  }

  /** Both nodes that can be the writer, in libpq's multi-host form, target_session_attrs=read-write. */
  multiHostUrl(database: string): string {
    const hosts = this.nodes
      .filter((n) => n.name !== 'c')
      .map((n) => `127.0.0.1:${n.port}`)
      .join(',');
    return `postgres://postgres@${hosts}/${database}?target_session_attrs=read-write`;
  }

  /** What the monitor holds of every node: the state it assigned and the one the keeper reported. */
  async states(): Promise<NodeState[]> {
    const monitor = new PostgresNode('monitor', this.monitorPort, join(this.dir, 'monitor'));
    const rows = await monitor.query<{ name: string; goal: string; reported: string; health: number }>(
      'select nodename as name, goalstate as goal, reportedstate as reported, health from pgautofailover.node order by nodeid',
      [],
      'pg_auto_failover',
    );
    return rows.map((r) => ({ name: r.name, goal: r.goal, reported: r.reported, healthy: r.health === 1 }));
  }

  /** Waits until the monitor has `name` in `state` (assigned and reported); milliseconds waited. */
  waitForState(name: string, state: string, limitMs = 30_000): Promise<number> {
    return until(`${name} ${state}`, async () => (await this.states()).some((s) => s.name === name && s.goal === state && s.reported === state), limitMs, 100);
  }

  /**
   * After the writer was lost: waits until another of the two accepts writes (pg_auto_failover
   * promotes it read-only first and lifts that once the monitor confirms). Returns it and the
   * milliseconds waited.
   */
  async waitForNewPrimary(lost: FormationNode, limitMs = 30_000): Promise<{ node: FormationNode; ms: number }> {
    const candidates = this.nodes.filter((n) => n !== lost && n.name !== 'c');
    let found: FormationNode | undefined;
    const ms = await until(
      `a new writable primary instead of ${lost.name}`,
      async () => {
        for (const node of candidates) if (await node.writable().catch(() => false)) found = node;
        return !!found;
      },
      limitMs,
    );
    return { node: found!, ms };
  }

  /**
   * pg_autoctl keeps its configuration and state under XDG directories: the node's own. Its
   * Postgres puts its socket where PG_REGRESS_SOCK_DIR says (`-k`), and pg_autoctl connects
   * through PGHOST: both the node's directory, not the system's /var/run/postgresql.
   */
  private home(dir: string): Record<string, string> {
    return {
      HOME: dir,
      XDG_CONFIG_HOME: join(dir, 'config'),
      XDG_DATA_HOME: join(dir, 'share'),
      XDG_RUNTIME_DIR: join(dir, 'run'),
      PGHOST: dir,
      PG_REGRESS_SOCK_DIR: dir,
    };
  }

  /** Starts a node's keeper (`pg_autoctl run`). */
  runKeeper(node: { name: string; dir: string; dataDir: string }): Daemon {
    return this.spawnDaemon(node.name, 'pg_autoctl', ['run', '--pgdata', node.dataDir], { cwd: node.dir, env: this.home(node.dir) });
  }

  async killKeeper(keeper: Daemon): Promise<void> {
    await this.killDaemon(keeper);
  }

  private async startMonitor(): Promise<void> {
    const dir = this.nodeDir('monitor');
    const dataDir = join(dir, 'data');
    this.dataDirs.push(dataDir);
    this.monitorPort = await freePort();
    const env = this.home(dir);
    await this.exec(
      'pg_autoctl',
      [
        'create',
        'monitor',
        '--pgdata',
        dataDir,
        '--pgctl',
        join(this.bin, 'pg_ctl'),
        '--pgport',
        String(this.monitorPort),
        '--hostname',
        '127.0.0.1',
        '--auth',
        'trust',
        '--no-ssl',
      ],
      { cwd: dir, env },
    );
    // pg_autoctl starts the monitor's Postgres with `-h <listen_addresses>`, '*' unless told otherwise
    await this.exec('pg_autoctl', ['config', 'set', '--pgdata', dataDir, 'postgresql.listen_addresses', '127.0.0.1'], { cwd: dir, env });
    const monitorSettings = Object.entries(MONITOR_SETTINGS).map(([name, value]) => `pgautofailover.${name} = ${value}`);
    appendFileSync(join(dataDir, 'postgresql.conf'), `${SERVER_SETTINGS}${monitorSettings.join('\n')}\n`);
    this.runKeeper({ name: 'monitor', dir, dataDir });
    await until('the monitor answering', async () => (await this.states(), true), 30_000, 100);
  }

  /** `pg_autoctl create postgres` (the first node initdb's; the others pg_basebackup from the primary), then its keeper. */
  private async addNode(name: string, ready: string[], extra: string[] = []): Promise<FormationNode> {
    const dir = this.nodeDir(name);
    const node = new FormationNode(name, await freePort(), dir, this);
    this.dataDirs.push(node.dataDir);
    await this.exec(
      'pg_autoctl',
      [
        'create',
        'postgres',
        '--pgdata',
        node.dataDir,
        '--pgctl',
        join(this.bin, 'pg_ctl'),
        '--pgport',
        String(node.port),
        '--listen',
        '127.0.0.1',
        '--hostname',
        '127.0.0.1',
        '--name',
        name,
        '--monitor',
        `${this.monitorUrl.replace('postgres@', 'autoctl_node@')}?sslmode=disable`,
        '--auth',
        'trust',
        '--no-ssl',
        ...extra,
      ],
      { cwd: dir, env: this.home(dir) },
    );
    appendFileSync(join(node.dataDir, 'postgresql.conf'), SERVER_SETTINGS);
    this.nodes.push(node);
    await node.start();
    await until(`${name} ${ready.join(' or ')}`, async () => (await this.states()).some((s) => s.name === name && ready.includes(s.reported)), 60_000, 100);
    return node;
  }
}
