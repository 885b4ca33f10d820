/**
 * `npm run bench -- replication`: what synchronous replication ("acknowledged on two machines")
 * costs the persisted publish path.
 *
 * A private Postgres pair from Debian's binaries on free loopback ports (test/cluster/
 * replicated-postgres.ts): a primary and a streaming standby named in its
 * synchronous_standby_names, synchronous_commit=on, fsync on (as a deployment runs; BENCH_PG_FSYNC=off
 * turns it off on both). A database migrated on it, one gateway and one channel-node whose
 * DATABASE_URL lists both servers (`…@127.0.0.1:p1,127.0.0.1:p2/db?target_session_attrs=read-write`).
 * The load is the publish benchmark's (lib/publish-load.ts): keep-alive clients publishing
 * `POST /v1/channels/{id}/messages` over 1,000 channels as fast as answers come back, every channel
 * primed first, a 2 s warm-up, a timed window (BENCH_DURATION_MS, 5 s), at 50 clients and at
 * BENCH_MANY_CLIENTS (256).
 *
 * Each number of clients runs the modes of lib/replication-cases.ts on the same servers in the
 * order sync, async, alone, alone, async, sync: each mode twice, symmetric around the middle, so
 * neither the warm-up of the processes nor the tables' growth favours one. A checkpoint before
 * each case, so each pays the same full-page images. Each mode's row adds its two windows together:
 * msg/s, p50 and p99 (the mean of the two windows'), CPU µs per message of the gateway, the
 * channel-node, the Postgres primary and the standby (each its postmaster and every process under
 * it: backends, WAL sender or receiver, writers), NATS and the generator, WAL bytes per message
 * (pg_current_wal_lsn's advance over the window), and the channel-node's partition batches and
 * merged transactions (their sizes and durations, from its metrics).
 *
 * Goal: synchronous ≥ 0.9× asynchronous throughput, at each number of clients. The baseline is the
 * same servers with the standby still streaming and replaying, so the ratio is the price of the
 * wait alone: a commit returns once the standby has flushed it (a network round trip and the
 * standby's WAL flush) instead of once the primary has. A publish is acknowledged after its
 * commit, so that wait is on every publish's path; but the channel-node's commits are grouped (one
 * transaction for whatever arrived while the last ran), so a longer commit should make fuller
 * transactions, not fewer messages. An operator asking for acknowledged-on-two-machines should
 * lose at most a tenth of the throughput for it on one machine; more would say the grouping does
 * not absorb a longer commit. On this machine the standby is on the same 2 cores as everything
 * else, so its CPU (receiving, flushing, replaying) competes with the primary and the service:
 * on two machines that share would be the standby's own, and the ratio errs low.
 */
import { createEnvironment } from '@rtm/auth';
import { createPool, migrate } from '@rtm/db';
import { deployLimits } from '@rtm/limits';
import { ReplicatedPostgres } from '../cluster/replicated-postgres.ts';
import { dropNatsPrefix, type RunningProcess } from '../helpers/cluster.ts';
import { perSecond, reportGoal } from './report.ts';
import { fmt } from './lib/figures.ts';
import { CHANNELS, CLIENTS, MANY_CLIENTS, SHORT_DURATION_MS, WARMUP_MS, load, loadContext } from './lib/publish-load.ts';
import { MODE_NAMES, combine, cpuGroups, enter, table, windowReader, type Case, type Mode, type Row, type Window } from './lib/replication-cases.ts';
import { profilingEnv, startGatewayAndNode, stopAll } from './lib/services.ts';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const FSYNC = process.env.BENCH_PG_FSYNC !== 'off';
/** Each mode twice, symmetric around the middle. */
const ORDER: Mode[] = ['sync', 'async', 'alone', 'alone', 'async', 'sync'];
const GOAL = 0.9;

async function main(): Promise<void> {
  const cleanups: (() => Promise<void>)[] = [];
  const processes: RunningProcess[] = [];
  const prefix = `bench${process.pid}`;
  try {
    process.stdout.write(
      `replication: a primary and a streaming standby on this machine's loopback (fsync ${FSYNC ? 'on' : 'off'}), one gateway, one channel-node; ` +
        `${CLIENTS} and ${MANY_CLIENTS} clients over ${fmt(CHANNELS)} channels, ${WARMUP_MS / 1000}s warm-up + ${SHORT_DURATION_MS / 1000}s per case, ` +
        `modes in the order ${ORDER.join(', ')} at each number of clients.\n` +
        'The machine has 2 cores shared by everything: the standby (receiving, flushing, replaying) competes with the primary, the service and the generator for them.\n',
    );
    const set = await ReplicatedPostgres.start(
      { after: (fn) => void cleanups.push(fn) },
      { settings: ['shared_buffers = 128MB', `fsync = ${FSYNC ? 'on' : 'off'}`] },
    );
    await set.primary.query('create database rtm_bench');
    const pool = createPool(set.primary.url('rtm_bench'), { max: 4, name: 'bench' });
    cleanups.push(() => pool.end());
    await migrate(pool);
    const env = await createEnvironment(pool, { organization: 'bench', project: 'bench', environment: 'replication' });
    // the benchmark measures the path, not its rate limits
    await deployLimits(pool, env.environmentId, { environmentMessagesPerSecond: 1_000_000_000, secretKeyRequestsPerSecond: 1_000_000_000 });
    const common = { DATABASE_URL: set.multiHostUrl('rtm_bench'), NATS_URL, NATS_PREFIX: prefix };
    const profiling = profilingEnv();
    const [gateway, node] = await startGatewayAndNode(processes, { ...common, ...profiling }, { ...common, ...profiling });

    const windows: Window[] = [];
    loadContext.analyze = () => pool.query('analyze channels, messages');
    loadContext.aroundWindow = windowReader(pool, cpuGroups(set, gateway, node), gateway, node, windows);
    const auth = { authorization: `Bearer ${env.secretKey}` };
    const random = () => `bench-${Math.floor(Math.random() * CHANNELS)}`;
    const cases: Case[] = [];
    for (const clients of [CLIENTS, MANY_CLIENTS]) {
      for (const mode of ORDER) {
        await enter(set, mode);
        await pool.query('checkpoint');
        const result = await load(`${MODE_NAMES[mode]}, ${clients} clients`, gateway.controlUrl, auth, random, { clients, durationMs: SHORT_DURATION_MS });
        const window = windows.pop();
        if (!window) throw new Error(`no window was read for ${mode} at ${clients} clients`);
        cases.push({ mode, clients, result, window });
      }
    }
    await enter(set, 'sync');

    const rows: Row[] = [];
    for (const clients of [CLIENTS, MANY_CLIENTS]) for (const mode of ['sync', 'async', 'alone'] as Mode[]) rows.push(combine(cases, mode, clients)!);
    process.stdout.write(`\neach mode's two windows together (p50, p99: the mean of the two):\n${table(rows)}\n`);
    for (const clients of [CLIENTS, MANY_CLIENTS]) report(rows, clients);
  } finally {
    await stopAll(processes);
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: Error) => process.stderr.write(`clean-up: ${error.message}\n`));
    await dropNatsPrefix(NATS_URL, prefix).catch(() => {});
  }
}

/** The ratio lines and the goal row for one number of clients. */
function report(rows: Row[], clients: number): void {
  const row = (mode: Mode) => rows.find((r) => r.mode === mode && r.clients === clients)!;
  const [sync, async, alone] = [row('sync'), row('async'), row('alone')];
  const latency = (r: Row) => `p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms`;
  const more = (ms: number) => `${ms >= 0 ? '+' : '−'}${Math.abs(ms).toFixed(1)} ms`;
  process.stdout.write(
    `${clients} clients: synchronous / asynchronous ${(sync.perSecond / async.perSecond).toFixed(2)}, synchronous / no standby ${(sync.perSecond / alone.perSecond).toFixed(2)}, ` +
      `asynchronous / no standby ${(async.perSecond / alone.perSecond).toFixed(2)}; p50 ${more(sync.p50 - async.p50)}, p99 ${more(sync.p99 - async.p99)} against asynchronous; ` +
      `errors ${sync.errors + async.errors + alone.errors}\n`,
  );
  const ratio = sync.perSecond / async.perSecond;
  reportGoal({
    path: `persisted publish, ${fmt(CHANNELS)} channels, ${clients} clients, synchronous standby`,
    goal: `≥ ${GOAL}× asynchronous streaming`,
    measured: `${perSecond(sync.perSecond)} (${latency(sync)})`,
    baseline: `asynchronous ${perSecond(async.perSecond)} (${latency(async)}); no standby ${perSecond(alone.perSecond)}`,
    ratio,
    met: ratio >= GOAL,
  });
}

await main();
process.exit(0);
