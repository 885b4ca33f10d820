/**
 * `npm run bench -- publish`: server-publish throughput and latency at 50 concurrent clients
 * (undici, keep-alive), against baselines measured in the same run on the same machine:
 *   bare      a Fastify 5 JSON POST route that answers at once (the HTTP ceiling);
 *   naive     a Fastify route doing one transaction per message with pg: INSERT the message +
 *             `UPDATE channels SET last_seq = last_seq + 1` (+ a delivery row and
 *             `graphile_worker.add_job` when webhooks are on);
 *   rtm       POST /v1/channels/{id}/messages on a real gateway + one channel-node.
 * Each case first publishes once to each of the 1,000 channels (steady state: channel rows exist,
 * rtm's owners have them cached, as for long-lived channels), then warms up, then runs for a fixed
 * time. Tables are analysed after priming, as autovacuum would. The process exits when done.
 * BENCH_CPU_PROF_DIR=<dir> makes the gateway and the channel-node write CPU profiles there.
 */
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createEnvironment } from '@rtm/auth';
import { deployLimits } from '@rtm/limits';
import { createTestDatabase } from '../helpers/database.ts';
import type { RunningProcess } from '../helpers/cluster.ts';
import { perSecond, reportGoal, type GoalRow } from './report.ts';
import { byName, self } from './cpu-meter.ts';
import { serveBaseline, startBaseline } from './lib/publish-baselines.ts';
import { BATCH_SIZE, CHANNELS, CLIENTS, DURATION_MS, ONLY, WARMUP_MS, load, loadBatch, loadContext, type Result } from './lib/publish-load.ts';
import { LATENCY_CHANNELS, latencyAt } from './lib/publish-latency.ts';
import { serveHopsEdge, serveHopsOwner, startHops } from './lib/publish-hops.ts';
import { profilingEnv, startGatewayAndNode, stopAll } from './lib/services.ts';

const SELF = fileURLToPath(import.meta.url);

async function main(): Promise<void> {
  const cleanups: (() => Promise<void>)[] = [];
  const db = await createTestDatabase({ after: (fn: () => Promise<void>) => void cleanups.push(fn) });
  const processes: RunningProcess[] = [];
  const children: ChildProcess[] = [];
  try {
    const env = await createEnvironment(db.pool, { organization: 'bench', project: 'bench', environment: 'publish' });
    // the benchmark measures the service, not its rate limits: both limits a publish takes, out of the way
    await deployLimits(db.pool, env.environmentId, { environmentMessagesPerSecond: 1_000_000_000, secretKeyRequestsPerSecond: 1_000_000_000 });
    loadContext.analyze = () => db.pool.query('analyze channels, messages');
    const common = { DATABASE_URL: db.url, NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', NATS_PREFIX: `bench${process.pid}` };
    const lanes: Record<string, string> = process.env.COMMIT_LANES ? { COMMIT_LANES: process.env.COMMIT_LANES } : {};
    // BENCH_CPU_PROF_DIR: the gateway and the channel-node write V8 CPU profiles there when they
    // stop (read them with test/bench/profile-top.ts)
    const profiling = profilingEnv();
    if (process.env.BENCH_NODE_OPTIONS) profiling.NODE_OPTIONS = `${profiling.NODE_OPTIONS ?? ''} ${process.env.BENCH_NODE_OPTIONS}`.trim();
    // BENCH_V8_FLAGS: V8 flags node refuses in NODE_OPTIONS, set at start-up by a hook;
    // BENCH_TRACE_GC=1 adds --trace-gc, and the latency case's tail lists each service's collections
    const v8Flags = [process.env.BENCH_V8_FLAGS, process.env.BENCH_TRACE_GC === '1' ? '--trace-gc' : undefined].filter(Boolean).join(' ');
    if (v8Flags) {
      profiling.NODE_OPTIONS = `${profiling.NODE_OPTIONS ?? ''} --import ${fileURLToPath(new URL('./v8-flags-hook.mjs', import.meta.url))}`.trim();
      profiling.RTM_V8_FLAGS = v8Flags;
    }
    const [gateway, node] = await startGatewayAndNode(processes, { ...common, ...profiling }, { ...common, ...lanes, ...profiling });
    const bare = await startBaseline(SELF, 'bare', db.url);
    const naive = await startBaseline(SELF, 'naive', db.url);
    children.push(bare.child, naive.child);
    const pid = (child: ChildProcess) => () => (child.pid === undefined ? [] : [child.pid]);
    loadContext.cpuGroups = {
      gateway: pid(gateway.child),
      'channel-node': pid(node.child),
      bare: pid(bare.child),
      naive: pid(naive.child),
      postgres: byName('postgres'),
      nats: byName('nats-server'),
      generator: self,
    };

    const random = () => `bench-${Math.floor(Math.random() * CHANNELS)}`;
    const hot = () => 'hot';
    const auth = { authorization: `Bearer ${env.secretKey}` };
    const naiveHeaders = { 'x-env': env.environmentId };
    process.stdout.write(`publish: ${CLIENTS} concurrent clients, ${WARMUP_MS / 1000}s warm-up + ${DURATION_MS / 1000}s per case\n`);
    const results: Record<string, Result> = {};
    let latencyRow: GoalRow | undefined;
    results.bare = await load('bare Fastify route', bare.url, {}, random);
    results.naive = await load(`naive pg, ${CHANNELS} channels`, naive.url, naiveHeaders, random);
    results.rtm = await load(`rtm server publish, ${CHANNELS} channels`, gateway.controlUrl, auth, random);
    results.rtmBatch = await loadBatch(`rtm batch publish, ${BATCH_SIZE} per request, ${CHANNELS} channels`, gateway.controlUrl, auth);
    results.naiveHot = await load('naive pg, one hot channel', naive.url, naiveHeaders, hot);
    results.rtmHot = await load('rtm server publish, one hot channel', gateway.controlUrl, auth, hot);
    // BENCH_LATENCY_RATE: a fixed rate instead of half the measured maximum (the case can then run alone)
    const fixedRate = Number(process.env.BENCH_LATENCY_RATE ?? 0);
    if ((results.rtm.perSecond > 0 || fixedRate > 0) && (!ONLY || ONLY.some((c) => 'latency'.includes(c) || c.includes('latency')))) {
      const rate = fixedRate > 0 ? fixedRate : Math.round(results.rtm.perSecond / 2);
      // the baseline: the same hops with nothing of the service in them, the same generator and rate
      const hops = await startHops(SELF, common.NATS_URL, db.url);
      children.push(hops.owner, hops.edge);
      const floor = await latencyAt(rate, hops.url, hops.url, '', [], async () => 'none');
      for (const child of [hops.owner, hops.edge]) child.kill('SIGKILL');
      process.stdout.write(
        `bare hops (HTTP → NATS → group-committed insert → NATS → socket) at ${rate} msg/s: p50 ${floor.p50.toFixed(1)} ms, p99 ${floor.p99.toFixed(1)} ms, ` +
          `${floor.frames} of ${floor.sent} frames\n${floor.tail}`,
      );
      const latency = await latencyAt(rate, gateway.controlUrl, gateway.realtimeUrl, env.secretKey, [gateway, node]);
      process.stdout.write(
        `publish → socket frame at ${rate} msg/s (${fixedRate > 0 ? 'BENCH_LATENCY_RATE' : 'half the maximum'}), ${LATENCY_CHANNELS} channels with a socket each: ` +
          `p50 ${latency.p50.toFixed(1)} ms, p99 ${latency.p99.toFixed(1)} ms, ${latency.frames} of ${latency.sent} frames\n` +
          latency.tail,
      );
      latencyRow = {
        path: 'publish → socket frame p99 at half the maximum rate',
        goal: '< 15 ms',
        measured: `${latency.p99.toFixed(1)} ms at ${perSecond(rate)}`,
        baseline: `bare hops p99 ${floor.p99.toFixed(1)} ms (p50 ${floor.p50.toFixed(1)})`,
        ratio: latency.p99,
        met: latency.p99 < 15 && latency.frames === latency.sent,
      };
    }
    await db.pool.query("update environments set webhook_url = 'https://hooks.example.com/in' where id = $1", [env.environmentId]);
    await db.pool.query('analyze');
    results.naiveHooks = await load(`naive pg + add_job, ${CHANNELS} channels`, naive.url, { ...naiveHeaders, 'x-webhooks': 'on' }, random);
    results.rtmHooks = await load(`rtm + webhooks, ${CHANNELS} channels`, gateway.controlUrl, auth, random);
    const ratio = (a: Result, b: Result) => (a.perSecond / Math.max(1, b.perSecond)).toFixed(2);
    process.stdout.write(
      `\nratios: rtm / naive = ${ratio(results.rtm, results.naive)} (${CHANNELS} channels), ` +
        `${ratio(results.rtmHot, results.naiveHot)} (hot channel), ${ratio(results.rtmHooks, results.naiveHooks)} (webhooks on); ` +
        `rtm / bare Fastify = ${ratio(results.rtm, results.bare)}\n`,
    );
    const goal = (path: string, ours: Result, base: Result, baseName: string, times: number) => {
      if (ours.perSecond === 0 || base.perSecond === 0) return; // a case left out by BENCH_CASES
      const value = ours.perSecond / Math.max(1, base.perSecond);
      reportGoal({
        path,
        goal: `≥ ${times}× ${baseName}`,
        measured: perSecond(ours.perSecond),
        baseline: `${baseName} ${perSecond(base.perSecond)}`,
        ratio: value,
        met: value >= times,
      });
    };
    goal(`server publish, ${CHANNELS} channels`, results.rtm, results.naive, 'naive pg', 5);
    goal(`server publish, ${CHANNELS} channels (vs bare)`, results.rtm, results.bare, 'bare Fastify', 0.4);
    goal(`server publish, ${CHANNELS} channels, webhooks on`, results.rtmHooks, results.naiveHooks, 'naive pg + add_job', 5);
    goal(`server publish, ${CHANNELS} channels, webhooks on (vs bare)`, results.rtmHooks, results.bare, 'bare Fastify', 0.4);
    goal('server publish, one hot channel', results.rtmHot, results.naiveHot, 'naive pg', 5);
    goal('batch publish', results.rtmBatch, results.rtm, 'single-message route', 10);
    if (latencyRow) reportGoal(latencyRow);
    const { rows } = await db.pool.query<{ n: number }>('select count(*)::int as n from messages');
    process.stdout.write(`messages stored: ${rows[0]!.n}\n`);
  } finally {
    for (const child of children) child.kill('SIGKILL');
    await stopAll(processes);
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

const serve = process.argv.find((arg) => arg.startsWith('--serve='));
const serveArg = (n: number) => process.argv[process.argv.indexOf(serve!) + n]!;
if (serve === '--serve=hops-edge') {
  await serveHopsEdge(serveArg(1), serveArg(2));
} else if (serve === '--serve=hops-owner') {
  await serveHopsOwner(serveArg(1), serveArg(2), serveArg(3));
} else if (serve) {
  await serveBaseline(serve.slice('--serve='.length) as 'bare' | 'naive', serveArg(1));
} else {
  await main();
  process.exit(0);
}
