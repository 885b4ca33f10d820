/**
 * `npm run bench -- publish`: server-publish throughput and latency, against baselines measured
 * in the same run on the same machine with the same load generator (undici, keep-alive clients).
 * Throughput cases are closed loop (each client publishes again as soon as it is answered), at 50
 * clients unless named otherwise; each reports msg/s, p50/p99 per request and CPU µs per message
 * for every process group (cpu-meter.ts: gateway, channel-node, each baseline's processes,
 * Postgres, NATS, the generator).
 * Baselines:
 *   bare       a Fastify 5 JSON POST route that answers at once (the HTTP ceiling), at 50 and 256
 *              clients;
 *   naive      a Fastify route doing one transaction per message with pg: INSERT the message +
 *              `UPDATE channels SET last_seq = last_seq + 1` (+ a delivery row and
 *              `graphile_worker.add_job` when webhooks are on);
 *   bare hops  the publish path's hops with nothing of the service in them, batched as the service
 *              batches them (lib/publish-hops.ts): a Fastify edge bundles the requests started in
 *              one event-loop turn into ONE NATS request to an owner process, which group-commits
 *              what arrives while a commit runs (one statement: the messages into a table of its
 *              own + each channel's seq counter), publishes one frame per message and replies. Its
 *              single route at 50 and 256 clients; "bare batch hops", the batch route's requests
 *              (BATCH_SIZE messages each) as one NATS request and one commit each at most; and the
 *              latency case's floor (the same two processes, with sockets).
 * The service: POST /v1/channels/{id}/messages on a real gateway + one channel-node at 50 and 256
 * clients, POST /v1/messages/batch (BATCH_SIZE random channels per request) at 50, one hot
 * channel, and webhooks on. Cases over 1,000 channels first publish once to each of them (steady
 * state: channel rows exist, owners have them cached, as for long-lived channels), then warm up,
 * then run for a fixed time (the cases added beside the first ones run a shorter window,
 * SHORT_DURATION_MS). Tables are analysed after priming, as autovacuum would.
 * Latency: publish → socket frame at half the service's single-route maximum, open loop, 100
 * channels with a socket each, for the bare hops and then the service: p50 and p99 of both.
 * Goals (the table `npm run bench` prints): the single route ≥ 0.6× the bare hops at 50 and at 256
 * clients, ≥ 0.35× bare Fastify at 256; batch messages/s ≥ 1.0× bare Fastify requests/s and ≥ 0.6×
 * the bare batch hops; publish → frame p99 ≤ 1.3× the bare hops' p99 and p50 ≤ theirs + 2 ms (that
 * row's ratio column is the difference in ms); and the earlier rows against naive and bare Fastify
 * at 50 clients. Retired goals (their figures still print): "batch ≥ 10× the single route" fell
 * whenever the single route got cheaper, so it rewarded a slower single route; "p99 < 15 ms" is
 * below this machine's own floor, the bare hops alone reach 11–31 ms p99.
 * BENCH_CASES=<a,b> runs only the cases whose names contain one of them ("latency" for that case);
 * BENCH_CPU_PROF_DIR=<dir> makes the gateway and the channel-node write CPU profiles there. The
 * process exits when done.
 */
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createEnvironment } from '@rtm/auth';
import { deployLimits } from '@rtm/limits';
import { createTestDatabase } from '../helpers/database.ts';
import type { RunningProcess } from '../helpers/cluster.ts';
import { byName, self } from './cpu-meter.ts';
import { serveBaseline, startBaseline } from './lib/publish-baselines.ts';
import {
  BATCH_SIZE,
  CHANNELS,
  CLIENTS,
  DURATION_MS,
  MANY_CLIENTS,
  ONLY,
  SHORT_DURATION_MS,
  WARMUP_MS,
  load,
  loadBatch,
  loadContext,
  type Result,
} from './lib/publish-load.ts';
import { LATENCY_CHANNELS, latencyAt } from './lib/publish-latency.ts';
import { serveHopsEdge, serveHopsOwner, startHops } from './lib/publish-hops.ts';
import { reportPublishGoals, type LatencyPair } from './lib/publish-goals.ts';
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
    const unlimited = { environmentMessagesPerSecond: 1_000_000_000, secretKeyRequestsPerSecond: 1_000_000_000 };
    await deployLimits(db.pool, env.environmentId, unlimited);
    const common = { DATABASE_URL: db.url, NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', NATS_PREFIX: `bench${process.pid}` };
    // the commit and bundle policies, when set for the run: COMMIT_* for the channel-node, OWNER_* for the gateway
    const passed = (names: string[]) => Object.fromEntries(names.flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])));
    const lanes: Record<string, string> = passed(['COMMIT_LANES', 'COMMIT_LINGER_MS', 'COMMIT_FILL']);
    const bundling: Record<string, string> = passed(['OWNER_LINGER_MS', 'OWNER_FILL']);
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
    const [gateway, node] = await startGatewayAndNode(processes, { ...common, ...bundling, ...profiling }, { ...common, ...lanes, ...profiling });
    const bare = await startBaseline(SELF, 'bare', db.url);
    const naive = await startBaseline(SELF, 'naive', db.url);
    const hops = await startHops(SELF, common.NATS_URL, db.url);
    children.push(bare.child, naive.child, hops.owner, hops.edge);
    loadContext.analyze = () => db.pool.query('analyze channels, messages, bench_hops_channels, bench_hops_messages');
    const pid = (child: ChildProcess) => () => (child.pid === undefined ? [] : [child.pid]);
    loadContext.cpuGroups = {
      gateway: pid(gateway.child),
      'channel-node': pid(node.child),
      bare: pid(bare.child),
      naive: pid(naive.child),
      'hops-edge': pid(hops.edge),
      'hops-owner': pid(hops.owner),
      postgres: byName('postgres'),
      nats: byName('nats-server'),
      generator: self,
    };

    const random = () => `bench-${Math.floor(Math.random() * CHANNELS)}`;
    const hot = () => 'hot';
    const auth = { authorization: `Bearer ${env.secretKey}` };
    const naiveHeaders = { 'x-env': env.environmentId };
    const many = { clients: MANY_CLIENTS, durationMs: SHORT_DURATION_MS };
    const short = { durationMs: SHORT_DURATION_MS };
    process.stdout.write(
      `publish: ${CLIENTS} concurrent clients unless named, ${WARMUP_MS / 1000}s warm-up + ${DURATION_MS / 1000}s per case ` +
        `(${SHORT_DURATION_MS / 1000}s for the bare hops, the ${MANY_CLIENTS}-client cases and the batch hops)\n`,
    );
    const results: Record<string, Result> = {};
    results.bare = await load('bare Fastify route', bare.url, {}, random);
    results.bareMany = await load(`bare Fastify route, ${MANY_CLIENTS} clients`, bare.url, {}, random, many);
    results.naive = await load(`naive pg, ${CHANNELS} channels`, naive.url, naiveHeaders, random);
    results.hops = await load(`bare hops, ${CHANNELS} channels`, hops.url, {}, random, short);
    results.hopsMany = await load(`bare hops, ${CHANNELS} channels, ${MANY_CLIENTS} clients`, hops.url, {}, random, many);
    results.rtm = await load(`rtm server publish, ${CHANNELS} channels`, gateway.controlUrl, auth, random);
    // the same case with a monthly message quota (docs/quotas.md): each commit's count is checked
    // against the limit (without one the count is kept all the same); set far above the run
    await deployLimits(db.pool, env.environmentId, { ...unlimited, monthlyMessages: 1_000_000_000_000 });
    results.rtmQuota = await load(`rtm server publish (monthlyMessages set), ${CHANNELS} channels`, gateway.controlUrl, auth, random);
    await deployLimits(db.pool, env.environmentId, unlimited);
    results.rtmMany = await load(`rtm server publish, ${CHANNELS} channels, ${MANY_CLIENTS} clients`, gateway.controlUrl, auth, random, many);
    results.rtmBatch = await loadBatch(`rtm batch publish, ${BATCH_SIZE} per request, ${CHANNELS} channels`, gateway.controlUrl, auth);
    results.hopsBatch = await loadBatch(`bare batch hops, ${BATCH_SIZE} per request, ${CHANNELS} channels`, hops.url, {}, short);
    results.naiveHot = await load('naive pg, one hot channel', naive.url, naiveHeaders, hot);
    results.rtmHot = await load('rtm server publish, one hot channel', gateway.controlUrl, auth, hot);
    // BENCH_LATENCY_RATE: a fixed rate instead of half the measured maximum (the case can then run alone)
    const fixedRate = Number(process.env.BENCH_LATENCY_RATE ?? 0);
    let latency: LatencyPair | undefined;
    if ((results.rtm.perSecond > 0 || fixedRate > 0) && (!ONLY || ONLY.some((c) => 'latency'.includes(c) || c.includes('latency')))) {
      const rate = fixedRate > 0 ? fixedRate : Math.round(results.rtm.perSecond / 2);
      // the floor: the same hops with nothing of the service in them, the same generator and rate
      const floor = await latencyAt(rate, hops.url, hops.url, '', [], async () => 'none');
      process.stdout.write(
        `bare hops (HTTP → NATS → group-committed insert → NATS → socket) at ${rate} msg/s: p50 ${floor.p50.toFixed(1)} ms, p99 ${floor.p99.toFixed(1)} ms, ` +
          `${floor.frames} of ${floor.sent} frames\n${floor.tail}`,
      );
      const rtm = await latencyAt(rate, gateway.controlUrl, gateway.realtimeUrl, env.secretKey, [gateway, node]);
      process.stdout.write(
        `publish → socket frame at ${rate} msg/s (${fixedRate > 0 ? 'BENCH_LATENCY_RATE' : 'half the maximum'}), ${LATENCY_CHANNELS} channels with a socket each: ` +
          `p50 ${rtm.p50.toFixed(1)} ms, p99 ${rtm.p99.toFixed(1)} ms, ${rtm.frames} of ${rtm.sent} frames\n` +
          rtm.tail,
      );
      process.stdout.write(
        `latency at ${rate} msg/s: rtm p50 ${rtm.p50.toFixed(1)} ms, p99 ${rtm.p99.toFixed(1)} ms; ` +
          `bare hops p50 ${floor.p50.toFixed(1)} ms, p99 ${floor.p99.toFixed(1)} ms\n`,
      );
      latency = { rate, rtm, floor };
    }
    await db.pool.query("update environments set webhook_url = 'https://hooks.example.com/in' where id = $1", [env.environmentId]);
    await db.pool.query('analyze');
    results.naiveHooks = await load(`naive pg + add_job, ${CHANNELS} channels`, naive.url, { ...naiveHeaders, 'x-webhooks': 'on' }, random);
    results.rtmHooks = await load(`rtm + webhooks, ${CHANNELS} channels`, gateway.controlUrl, auth, random);
    reportPublishGoals(results, latency);
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
