/**
 * The replication benchmark's cases (test/bench/replication.bench.ts): the replication mode each
 * case runs in, what is read around each timed window beside the load's own figures (CPU of each
 * process, WAL written, the channel-node's commits, the gateway's owner round trips), and a mode's
 * windows added together into one row of the table.
 *
 * Modes, switched on the same running servers:
 *   sync   the standby synchronous (synchronous_standby_names names it, synchronous_commit=on):
 *          a commit returns once the standby has flushed its WAL;
 *   async  `ALTER SYSTEM SET synchronous_standby_names = ''` + `pg_reload_conf()`: the standby
 *          still receives and replays everything, a commit no longer waits for it;
 *   alone  the standby stopped (pg_ctl stop -m fast): no WAL sender at all.
 */
import type { ReplicatedPostgres } from '../../cluster/replicated-postgres.ts';
import { postmasterPid, until } from '../../cluster/postgres-node.ts';
import type { RunningProcess } from '../../helpers/cluster.ts';
import type { Pool } from '@rtm/db';
import { byName, cpuWindow, self, treeOf, type Groups } from '../cpu-meter.ts';
import { pausesWindow, type Pauses } from '../process-pauses.ts';
import { fmt } from './figures.ts';
import type { Result } from './publish-load.ts';

export type Mode = 'sync' | 'async' | 'alone';

export const MODE_NAMES: Record<Mode, string> = {
  sync: 'synchronous standby',
  async: 'asynchronous standby',
  alone: 'no standby',
};

/** Puts the servers in `mode` and waits until the standby (when running) streams in it, caught up. */
export async function enter(set: ReplicatedPostgres, mode: Mode): Promise<void> {
  if (mode === 'alone') {
    if (!set.standby.running()) return;
    // asynchronous first: a synchronous primary without its standby would hold every commit
    await set.synchronous(false);
    await set.standby.stop();
    return;
  }
  if (!set.standby.running()) {
    await set.standby.start();
    await until(
      'the standby streaming again',
      async () => (await set.primary.query(`select 1 from pg_stat_replication where application_name = 'standby' and state = 'streaming'`)).length === 1,
      60_000,
    );
  }
  await set.synchronous(mode === 'sync');
  // what the last case left to replay is replayed before this one's window, not in it
  const [{ lsn }] = (await set.primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn')) as [{ lsn: string }];
  await until(
    'the standby caught up',
    async () =>
      (await set.primary.query(`select 1 from pg_stat_replication where application_name = 'standby' and replay_lsn >= $1::pg_lsn`, [lsn])).length === 1,
    60_000,
  );
}

/** The process groups whose CPU each window measures; each Postgres server is its postmaster's tree. */
export function cpuGroups(set: ReplicatedPostgres, gateway: RunningProcess, node: RunningProcess): Groups {
  return {
    gateway: () => (gateway.child.pid === undefined ? [] : [gateway.child.pid]),
    'channel-node': () => (node.child.pid === undefined ? [] : [node.child.pid]),
    'pg primary': treeOf(() => postmasterPid(set.primary.dataDir)),
    'pg standby': treeOf(() => (set.standby.running() ? postmasterPid(set.standby.dataDir) : undefined)),
    nats: byName('nats-server'),
    generator: self,
  };
}

/** What one timed window measured beside the load's result. */
export interface Window {
  seconds: number;
  cpu: Record<string, number>;
  walBytes: number;
  node: Pauses;
  gateway: Pauses;
}

/**
 * Readings around a window, for `loadContext.aroundWindow`: the window is pushed to `into` as it
 * closes.
 */
export function windowReader(pool: Pool, groups: Groups, gateway: RunningProcess, node: RunningProcess, into: Window[]): () => Promise<() => Promise<void>> {
  return async () => {
    const [nodeWindow, gatewayWindow] = await Promise.all([pausesWindow(node.internalUrl), pausesWindow(gateway.internalUrl)]);
    const { rows } = await pool.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn');
    const lsn = rows[0]!.lsn;
    const cpu = cpuWindow(groups);
    const started = Date.now();
    return async () => {
      const spent = cpu.end();
      const seconds = (Date.now() - started) / 1000;
      const { rows: wal } = await pool.query<{ bytes: number }>('select pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn)::float8 as bytes', [lsn]);
      const [nodePauses, gatewayPauses] = await Promise.all([nodeWindow.end(), gatewayWindow.end()]);
      into.push({ seconds, cpu: spent, walBytes: wal[0]!.bytes, node: nodePauses, gateway: gatewayPauses });
    };
  };
}

/** One case: the load's result and the readings of its window. */
export interface Case {
  mode: Mode;
  clients: number;
  result: Result;
  window: Window;
}

/** A mode's windows at one number of clients, added together. */
export interface Row {
  mode: Mode;
  clients: number;
  windows: number;
  messages: number;
  errors: number;
  perSecond: number;
  /** The mean of its windows' p50 and p99, ms. */
  p50: number;
  p99: number;
  /** CPU µs per message, by process group. */
  cpuPerMessage: Record<string, number>;
  walPerMessage: number;
  commitsPerSecond: number;
  messagesPerCommit: number;
  commitMs: number;
  transactionsPerSecond: number;
  commandsPerTransaction: number;
  transactionMs: number;
  laneWaitMs: number;
  ownerRoundTripMs: number;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
/** The mean of `value` over items weighted by `weight` (counts of commits, transactions). */
const weighted = <T>(items: T[], value: (item: T) => number, weight: (item: T) => number) => {
  const total = sum(items.map(weight));
  return total > 0 ? sum(items.map((item) => value(item) * weight(item))) / total : NaN;
};

export function combine(cases: Case[], mode: Mode, clients: number): Row | undefined {
  const mine = cases.filter((c) => c.mode === mode && c.clients === clients);
  if (mine.length === 0) return undefined;
  const messages = sum(mine.map((c) => c.result.ok));
  const seconds = sum(mine.map((c) => c.window.seconds));
  const groups = [...new Set(mine.flatMap((c) => Object.keys(c.window.cpu)))];
  const commits = mine.map((c) => c.window.node.commits).filter((x) => x !== undefined);
  const transactions = mine.map((c) => c.window.node.transactions).filter((x) => x !== undefined);
  const roundTrips = mine.map((c) => c.window.gateway.ownerRoundTrips).filter((x) => x !== undefined);
  return {
    mode,
    clients,
    windows: mine.length,
    messages,
    errors: sum(mine.map((c) => c.result.errors)),
    perSecond: messages / seconds,
    p50: sum(mine.map((c) => c.result.p50)) / mine.length,
    p99: sum(mine.map((c) => c.result.p99)) / mine.length,
    cpuPerMessage: Object.fromEntries(groups.map((g) => [g, (sum(mine.map((c) => c.window.cpu[g] ?? 0)) * 1e6) / messages])),
    walPerMessage: sum(mine.map((c) => c.window.walBytes)) / messages,
    commitsPerSecond: sum(commits.map((c) => c.count)) / seconds,
    messagesPerCommit: weighted(
      commits,
      (c) => c.meanMessages,
      (c) => c.count,
    ),
    commitMs: weighted(
      commits,
      (c) => c.meanMs,
      (c) => c.count,
    ),
    transactionsPerSecond: sum(transactions.map((t) => t.count)) / seconds,
    commandsPerTransaction: weighted(
      transactions,
      (t) => t.meanCommands,
      (t) => t.count,
    ),
    transactionMs: weighted(
      transactions,
      (t) => t.meanMs,
      (t) => t.count,
    ),
    laneWaitMs: weighted(
      transactions,
      (t) => t.laneWaitMeanMs,
      (t) => t.count,
    ),
    ownerRoundTripMs: weighted(
      roundTrips,
      (r) => r.meanMs,
      (r) => r.count,
    ),
  };
}

const CPU_COLUMNS = ['gateway', 'channel-node', 'pg primary', 'pg standby', 'nats', 'generator'];

/** The rows as a markdown table (as docs/benchmarks.md records them). */
export function table(rows: Row[]): string {
  const one = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
  const lines = [
    `| mode | clients | msg/s | p50 ms | p99 ms | CPU µs/msg: ${CPU_COLUMNS.join(' | ')} | total | WAL B/msg | partition batches/s | msg/batch | batch ms | transactions/s | commands/transaction | transaction ms | lane wait ms | owner round trip ms |`,
    `|---|---|---|---|---|${CPU_COLUMNS.map(() => '---|').join('')}---|---|---|---|---|---|---|---|---|---|`,
  ];
  for (const r of rows) {
    const cpu = CPU_COLUMNS.map((g) => one(r.cpuPerMessage[g] ?? 0));
    const total = sum(Object.values(r.cpuPerMessage));
    lines.push(
      `| ${MODE_NAMES[r.mode]} | ${r.clients} | ${fmt(r.perSecond)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${cpu.join(' | ')} | ${one(total)} | ` +
        `${fmt(r.walPerMessage)} | ${fmt(r.commitsPerSecond)} | ${one(r.messagesPerCommit)} | ${one(r.commitMs)} | ${fmt(r.transactionsPerSecond)} | ` +
        `${one(r.commandsPerTransaction)} | ${one(r.transactionMs)} | ${one(r.laneWaitMs)} | ${one(r.ownerRoundTripMs)} |`,
    );
  }
  return lines.join('\n');
}
