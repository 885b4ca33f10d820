/**
 * `npm run bench -- webhooks`: webhook deliveries per second and publish-to-webhook latency to a
 * local receiver, beside graphile-worker running a no-op task (same tuning: local queue 200,
 * completeJobBatchDelay 0, concurrency 32) and a bare outbox dispatcher on the same database in
 * the same run.
 *
 *   noop drain      20,000 no-op jobs queued, then a runner started: jobs/s until all ran
 *   noop latency    add_job at 50/s (or BENCH_RATE) for LATENCY_MS: add → task start
 *   HTTP ceiling    the receiver driven directly by undici for 3 s (what loopback HTTP
 *                   alone allows on this machine)
 *   deliveries/s    N events recorded as the channel-node's commit records them (logSql: a
 *                   narrow row of the delivery log per delivery, batches of 50 from 8
 *                   concurrent writers) and each batch's post-commit notice (the rows, as the
 *                   channel-node sends it) published to the owning dispatcher, one dispatcher,
 *                   receiver answering 204 at once: first write → last event received; CPU µs
 *                   per delivery of each process over that window, and again per successful
 *                   delivery once the dispatcher has recorded them all (Postgres's goal: ≤ 10 µs)
 *   commit cost     2,000 statements recording one delivery each (8 writers), with the job the
 *                   commit used to add and without it (the notice instead)
 *   publish→webhook real POST /v1/channels/{id}/messages (gateway + channel-node) over 100
 *                   channels at 1,000 msg/s (or BENCH_RATE), open loop, for LATENCY_MS:
 *                   request sent → webhook received
 *   bare outbox     the cheapest design that sends committed events, no service code, after the
 *                   service's figures (its dispatcher stopped): the same N events (new ids)
 *                   committed by the same statement from the same 8 writers, while a loop in this
 *                   process reads them back past a cursor (512 rows a read, ordered by the
 *                   writing transaction's id, only transactions older than any still running),
 *                   signs both headers as the service does (a test secret), POSTs them with
 *                   undici (64 in flight) to the same receiver and updates a one-row cursor
 *                   table every 200 ms or 512 answered deliveries (lib/bare-outbox.ts):
 *                   deliveries/s from first write to last event received, and the bench
 *                   process's and Postgres's CPU µs per successful delivery; what it adds to the
 *                   database (a position column, its index, the cursor table, its rows) is
 *                   removed after
 *   commits alone   the same N events committed the same way with nothing sending them, after
 *                   the rest: Postgres CPU per delivery of the commit's log rows alone, so each
 *                   Postgres figure above splits into the commit's share and the delivery work's
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { run, Logger } from 'graphile-worker';
import { Pool as HttpPool } from 'undici';
import { createPool } from '@rtm/db';
import { createEnvironment } from '@rtm/auth';
import {
  enqueueParameters,
  enqueueSql,
  generateWebhookSecret,
  LOGGED_SQL,
  loggedDeliveries,
  logParameters,
  logSql,
  pushNotices,
  webhookBody,
  type WebhookEventInput,
} from '@rtm/webhooks';
import { connectBus, encodeJson, subjects, webhookPartitionOf } from '@rtm/bus';
import { createTestDatabase } from '../helpers/database.ts';
import { startProcess, waitReady, type RunningProcess } from '../helpers/cluster.ts';
import { perSecond, reportGoal } from './report.ts';
import { cpuMicros, machineCpuMicros, postgresCpuMicros, selfCpuMicros } from './cpu-meter.ts';
import { profilingEnv, stopAll } from './lib/services.ts';
import { fmt } from './lib/figures.ts';
import { dropBareOutbox, prepareBareOutbox, runBareOutbox } from './lib/bare-outbox.ts';

const NOOP_JOBS = Number(process.env.BENCH_NOOP_JOBS ?? 20_000);
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 20_000);
const RATE = Number(process.env.BENCH_RATE ?? 0);
/** add_job rate of the no-op latency reference. */
const NOOP_RATE = RATE > 0 ? RATE : 50;
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 6_000);
/** Commits per variant of the commit-cost figure. */
const COMMITS = Number(process.env.BENCH_COMMITS ?? 2_000);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function percentiles(values: number[]): { p50: number; p99: number; n: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), n: sorted.length };
}

const cleanups: (() => Promise<void>)[] = [];
const processes: RunningProcess[] = [];
async function main() {
  const db = await createTestDatabase({ after: (fn: () => Promise<void>) => void cleanups.push(fn) });
  const pool = createPool(db.url, { max: 20, name: 'bench' });
  cleanups.unshift(() => pool.end());
  const silent = new Logger(() => () => {});

  // ---- baseline: graphile-worker, no-op task ------------------------------------------------
  let ran = 0;
  const noopLatency: number[] = [];
  let allRan: () => void = () => {};
  const options = {
    pgPool: pool,
    concurrency: 32,
    noHandleSignals: true,
    pollInterval: 500,
    logger: silent,
    preset: { worker: { localQueue: { size: 200 }, completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
    taskList: {
      bench_noop: async (payload: unknown) => {
        const t = (payload as { t: number }).t;
        if (t > 0) noopLatency.push(Date.now() - t);
        if (++ran === NOOP_JOBS) allRan();
      },
    },
  };
  for (let added = 0; added < NOOP_JOBS; added += 1000) {
    await pool.query(
      `select graphile_worker.add_jobs(array(
         select json_populate_record(null::graphile_worker.job_spec, json_build_object('identifier', 'bench_noop', 'payload', json_build_object('t', 0)))
         from generate_series(1, $1)))`,
      [Math.min(1000, NOOP_JOBS - added)],
    );
  }
  await pool.query('analyze graphile_worker._private_jobs');
  const drained = new Promise<void>((resolve) => (allRan = resolve));
  const drainStart = performance.now();
  const runner = await run(options);
  await drained;
  const noopPerSecond = NOOP_JOBS / ((performance.now() - drainStart) / 1000);
  for (const end = Date.now() + LATENCY_MS; Date.now() < end; ) {
    void pool.query(`select graphile_worker.add_job('bench_noop', json_build_object('t', $1::bigint))`, [Date.now()]);
    await sleep(1000 / NOOP_RATE);
  }
  await sleep(1000);
  await runner.stop();
  const noop = percentiles(noopLatency);

  // ---- the service: gateway, channel-node, dispatcher, a receiver on loopback -------------------
  const received = new Map<string, number>();
  let receivedAll: () => void = () => {};
  let expecting = 0;
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string }).id;
      if (!received.has(id)) received.set(id, Date.now());
      res.writeHead(204).end();
      if (expecting > 0 && received.size >= expecting) receivedAll();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
  cleanups.unshift(async () => void receiver.close());
  const env = {
    DATABASE_URL: db.url,
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
    NATS_PREFIX: `bw${randomBytes(4).toString('hex')}`,
    LOG_LEVEL: 'warn',
    ...(process.env.BENCH_DISPATCHER_ENV ? Object.fromEntries(process.env.BENCH_DISPATCHER_ENV.split(',').map((kv) => kv.split('=') as [string, string])) : {}),
    // BENCH_CPU_PROF_DIR: every process writes a V8 CPU profile there when it stops (test/bench/profile-top.ts reads it)
    ...profilingEnv(),
  };
  const started = await Promise.all(
    (['gateway', 'channel-node', 'dispatcher'] as const).map(async (kind) => {
      const proc = await startProcess(kind, env);
      processes.push(proc);
      await waitReady(proc);
      return proc;
    }),
  );
  const gateway = started[0]!;
  const tenant = await createEnvironment(pool, { organization: 'bench', project: 'bench', environment: 'webhooks' });
  const http = new HttpPool(gateway.controlUrl, { connections: 64 });
  const call = async (method: 'PUT' | 'POST', path: string, body: unknown) => {
    const res = await http.request({
      method,
      path,
      headers: { authorization: `Bearer ${tenant.secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const port = (receiver.address() as AddressInfo).port;
  await call('PUT', '/v1/config', { webhooks: { url: `http://127.0.0.1:${port}/hooks` } });

  // the HTTP ceiling: the same receiver driven by a plain undici client (64 in flight, keep-alive)
  const direct = new HttpPool(`http://127.0.0.1:${port}`, { connections: 64 });
  const directBody = JSON.stringify({ id: 'ceiling', data: { text: 'x'.repeat(200) } });
  let directCount = 0;
  const directEnd = performance.now() + 3_000;
  const directStart = performance.now();
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (performance.now() < directEnd) {
        const res = await direct.request({ method: 'POST', path: '/hooks', body: directBody, headers: { 'content-type': 'application/json' } });
        await res.body.dump();
        directCount++;
      }
    }),
  );
  const directPerSecond = directCount / ((performance.now() - directStart) / 1000);
  await direct.close();
  received.clear();

  // deliveries/s: the channel-node's commit path, batches of 50: rows without a job, then the notice
  const nc = await connectBus(env.NATS_URL, 'bench-notices');
  cleanups.unshift(() => nc.drain());
  const notices = subjects(env.NATS_PREFIX);
  // as the channel-node commits them: appended to the delivery log, the rows in the notice
  const writeSql = `with ${logSql(1, 'true')}
     select ${LOGGED_SQL} as pushed, (select count(*) from delivery_jobs) as jobs`;
  const eventsNamed = (prefix: string): WebhookEventInput[] =>
    Array.from({ length: DELIVERIES }, (_, i) => ({
      environmentId: tenant.environmentId,
      channelId: `bench-${i % 100}`,
      eventId: `${prefix}_${i}`,
      type: 'message.published',
      timestamp: Date.now(),
      data: JSON.stringify({
        id: `${prefix}_${i}`,
        seq: i + 1,
        type: 'message',
        kind: 'server',
        content: { i, text: 'x'.repeat(200) },
        sender: { id: 'server', anon: false },
        timestamp: Date.now(),
        retracted: false,
        ephemeral: false,
      }),
    }));
  const events = eventsNamed('evt_bench');
  // 8 writers, like channel-node partitions committing side by side, batches of 50; `notify`:
  // each batch's notice published to the owning dispatcher after its commit
  const commitAll = async (list: readonly WebhookEventInput[], notify: boolean) => {
    let nextBatch = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = nextBatch++ * 50; i < list.length; i = nextBatch++ * 50) {
          const batch = list.slice(i, i + 50);
          const bodies = batch.map(webhookBody);
          const { rows } = await pool.query<{ pushed: unknown[][] }>(writeSql, logParameters(batch, webhookPartitionOf, bodies));
          if (!notify) continue;
          const byEvent = new Map(batch.map((event, k) => [event.eventId, bodies[k]!]));
          const committed = loggedDeliveries(rows[0]!.pushed, (eventId) => byEvent.get(eventId));
          for (const { partition, entries } of pushNotices(committed, webhookPartitionOf)) {
            nc.publish(notices.webhookNotices(partition), encodeJson(entries));
          }
        }
      }),
    );
  };
  expecting = DELIVERIES;
  const allDelivered = new Promise<void>((resolve) => (receivedAll = resolve));
  const cpu = (): Record<string, number> => ({
    ...Object.fromEntries(started.map((p) => [p.name.replace(/-\d+$/, ''), cpuMicros(p.child.pid)])),
    bench: selfCpuMicros(),
    postgres: postgresCpuMicros(),
    'whole machine': machineCpuMicros(),
  });
  const cpuPer = (from: Record<string, number>, to: Record<string, number>, n: number) =>
    Object.keys(from)
      .map((k) => `${k} ${Math.round((to[k]! - from[k]!) / n)}`)
      .join(', ');
  const cpuBefore = cpu();
  const deliveryStart = performance.now();
  await commitAll(events, true);
  const enqueuedMs = performance.now() - deliveryStart;
  await allDelivered;
  const deliveriesPerSecond = DELIVERIES / ((performance.now() - deliveryStart) / 1000);
  process.stdout.write(`deliveries/s phase, CPU µs per delivery: ${cpuPer(cpuBefore, cpu(), DELIVERIES)} (bench: the 8 writers and the receiver)\n`);
  // per successful delivery: up to the dispatcher's record of the last one (its last record
  // statement may follow the last POST), so Postgres's share of recording them is all counted
  // (polled on the outcomes' and the ledger's own keys, every 100 ms: a poll over the ledger view
  // would cost Postgres more than what it measures)
  for (const end = Date.now() + 10_000; Date.now() < end; await sleep(100)) {
    const { rows } = await pool.query<{ ended: number }>(
      `select (select count(*)::int from webhook_outcomes) + (select count(*)::int from webhook_deliveries where status <> 'pending') as ended`,
    );
    if (rows[0]!.ended >= DELIVERIES) break;
  }
  const cpuRecorded = cpu();
  const succeeded = (
    await pool.query<{ n: number }>(`select count(*)::int as n from webhook_ledger where status = 'delivered' and event_id like 'evt\\_bench\\_%'`)
  ).rows[0]!.n;
  const servicePer = (k: string) => (cpuRecorded[k]! - cpuBefore[k]!) / Math.max(1, succeeded);
  process.stdout.write(
    `deliveries/s phase, CPU µs per successful delivery (${succeeded} recorded delivered): ${cpuPer(cpuBefore, cpuRecorded, Math.max(1, succeeded))}\n`,
  );

  // the whole path's maximum: publishes from 32 clients for 4 s while their webhooks go out;
  // rate = published ÷ (first publish → last webhook received)
  expecting = 0;
  received.clear();
  const maxIds = new Set<string>();
  const maxStart = performance.now();
  let maxStop = false;
  const stopAt = setTimeout(() => (maxStop = true), 4_000);
  await Promise.all(
    Array.from({ length: 32 }, async (_, w) => {
      for (let i = 0; !maxStop; i++) {
        const body = await call('POST', `/v1/channels/max-${(w + i) % 20}/messages`, { content: { w, i } }).catch(() => undefined);
        if (body) maxIds.add(body.id as string);
      }
    }),
  );
  clearTimeout(stopAt);
  for (const end = Date.now() + 60_000; [...maxIds].some((id) => !received.has(id)) && Date.now() < end; ) await sleep(50);
  const lastAt = Math.max(...[...maxIds].map((id) => received.get(id) ?? 0));
  const pathPerSecond = maxIds.size / ((lastAt - (Date.now() - (performance.now() - maxStart))) / 1000);
  process.stdout.write(`publish → webhook, whole path: ${Math.round(pathPerSecond)} msg/s (${maxIds.size} published by 32 clients in 4 s)\n`);
  received.clear();

  // publish → webhook latency at 1,000 msg/s of single publishes over 100 channels (BENCH_RATE
  // overrides), open loop: publishes leave on schedule whether or not earlier ones were answered
  const rate = RATE > 0 ? RATE : 1_000;
  expecting = 0;
  const sentAt = new Map<string, number>();
  const publishMs: number[] = [];
  const inflight: Promise<void>[] = [];
  let publishErrors = 0;
  const latencyCpu = cpu();
  const latencyStart = performance.now();
  for (let i = 0; performance.now() - latencyStart < LATENCY_MS; ) {
    const due = Math.floor(((performance.now() - latencyStart) / 1000) * rate);
    for (; i < due; i++) {
      const sent = Date.now();
      inflight.push(
        call('POST', `/v1/channels/lat-${i % 100}/messages`, { content: { i } }).then(
          (body) => {
            sentAt.set(body.id as string, sent);
            publishMs.push(Date.now() - sent);
          },
          () => void publishErrors++,
        ),
      );
    }
    await sleep(1);
  }
  await Promise.all(inflight);
  const deadline = Date.now() + 30_000;
  while ([...sentAt.keys()].some((id) => !received.has(id)) && Date.now() < deadline) await sleep(100);
  process.stdout.write(`publish → webhook phase, CPU µs per message: ${cpuPer(latencyCpu, cpu(), sentAt.size)} (bench: the publisher and the receiver)\n`);
  const e2e = [...sentAt].filter(([id]) => received.has(id)).map(([id, sent]) => received.get(id)! - sent);
  const missing = sentAt.size - e2e.length;
  const hook = percentiles(e2e);
  const publish = percentiles(publishMs);
  await http.close();

  // the commit's cost: one delivery per statement from 8 writers, with the job the commit used to
  // add (add_jobs, which notifies) and without it (what the channel-node's commit does now); the
  // dispatcher is stopped first, so neither variant's deliveries are sent while it is measured
  // stopped, not killed: a profiled dispatcher writes its profile as it exits
  await started[2]!.stop();
  const commitsPerSecond = async (jobs: boolean) => {
    const sql = `with ${enqueueSql(1, 'true', jobs)} select (select count(*) from deliveries) as d, (select count(*) from delivery_jobs) as j`;
    let done = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (done++ < COMMITS) {
          await pool.query(sql, enqueueParameters([{ ...events[0]!, eventId: `evt_commit_${jobs}_${done}` }]));
        }
      }),
    );
    return COMMITS / ((performance.now() - start) / 1000);
  };
  const withJob = await commitsPerSecond(true);
  const withoutJob = await commitsPerSecond(false);
  process.stdout.write(
    `commit with one delivery: ${Math.round(withoutJob)} commits/s without a job (the notice), ${Math.round(withJob)} with add_jobs: ${(withoutJob / withJob).toFixed(2)}×\n`,
  );

  // the bare outbox dispatcher (lib/bare-outbox.ts): the same commits, read back past a cursor by
  // a loop in this process; the service's dispatcher is stopped, so nothing else sends them
  const bareEvents = eventsNamed('evt_bare');
  await prepareBareOutbox(pool);
  let barePerSecond: number;
  let bareAnswered: number;
  let bareCpu: Record<string, number>;
  try {
    received.clear();
    expecting = DELIVERIES;
    let bareEnd = 0;
    const bareReceived = new Promise<void>((resolve) => (receivedAll = resolve)).then(() => void (bareEnd = performance.now()));
    const bareMeter = () => ({ bench: selfCpuMicros(), postgres: postgresCpuMicros(), 'whole machine': machineCpuMicros() });
    const bareBefore = bareMeter();
    const bareStart = performance.now();
    const [stats] = await Promise.all([
      runBareOutbox(pool, webhookPartitionOf(tenant.environmentId), `http://127.0.0.1:${port}`, '/hooks', generateWebhookSecret(), DELIVERIES),
      commitAll(bareEvents, false),
      bareReceived,
    ]);
    const bareAfter = bareMeter();
    barePerSecond = DELIVERIES / ((bareEnd - bareStart) / 1000);
    bareAnswered = stats.answered;
    bareCpu = Object.fromEntries(
      Object.keys(bareBefore).map((k) => [k, (bareAfter[k as keyof typeof bareAfter] - bareBefore[k as keyof typeof bareBefore]) / Math.max(1, bareAnswered)]),
    );
    process.stdout.write(
      `bare outbox dispatcher: ${Math.round(barePerSecond)} deliveries/s, CPU µs per successful delivery (${bareAnswered}): ` +
        `${Object.entries(bareCpu)
          .map(([k, v]) => `${k} ${Math.round(v)}`)
          .join(', ')} (bench: the 8 writers, the receiver and the loop); ` +
        `${stats.reads} reads, ${stats.cursorUpdates} cursor updates, ${stats.failures} POSTs not answered 2xx\n`,
    );
  } finally {
    expecting = 0;
    received.clear();
    await dropBareOutbox(pool);
  }

  // the same commits alone (new ids; nothing reads them: the service's dispatcher is stopped and
  // the bare loop ended): what writing a delivery's row of the log costs Postgres at commit, so
  // that the delivery work's own share can be told apart from the commit's in both figures above
  const aloneBefore = postgresCpuMicros();
  await commitAll(eventsNamed('evt_alone'), false);
  const commitAlone = (postgresCpuMicros() - aloneBefore) / DELIVERIES;
  process.stdout.write(
    `the same commits alone: Postgres ${Math.round(commitAlone)} µs per delivery; so the delivery work alone: ` +
      `service ${Math.round(servicePer('postgres') - commitAlone)} µs, bare outbox ${Math.round(bareCpu.postgres! - commitAlone)} µs\n`,
  );

  const f = fmt;
  const lines = [
    `| what | figure | graphile-worker no-op, same run | ratio |`,
    `|---|---|---|---|`,
    `| throughput | ${f(deliveriesPerSecond)} deliveries/s (${DELIVERIES} events, enqueued in ${f(enqueuedMs)} ms) | ${f(noopPerSecond)} jobs/s (${NOOP_JOBS} jobs) | ${(deliveriesPerSecond / noopPerSecond).toFixed(3)} |`,
    `| latency p50 | ${f(hook.p50)} ms publish→webhook (${hook.n} msgs at ${rate}/s) | ${f(noop.p50)} ms add_job→run (${noop.n} jobs at ${NOOP_RATE}/s) | ${(hook.p50 / Math.max(1, noop.p50)).toFixed(2)} |`,
    `| latency p99 | ${f(hook.p99)} ms | ${f(noop.p99)} ms | ${(hook.p99 / Math.max(1, noop.p99)).toFixed(2)} |`,
    `| HTTP ceiling: undici → the same receiver, 64 in flight, no database | ${f(directPerSecond)} req/s | | ${(deliveriesPerSecond / directPerSecond).toFixed(3)} |`,
    `| publish (HTTP 201) p50 / p99 | ${f(publish.p50)} / ${f(publish.p99)} ms${publishErrors ? ` (${publishErrors} publishes failed)` : ''} | | |`,
    `| bare outbox dispatcher: the same commits read past a cursor, signed, undici 64 in flight | ${f(barePerSecond)} deliveries/s (${DELIVERIES} events) | | ${(deliveriesPerSecond / barePerSecond).toFixed(3)} |`,
    `| CPU µs per successful delivery, service | dispatcher ${f(servicePer('dispatcher'))}, Postgres ${f(servicePer('postgres'))}, bench ${f(servicePer('bench'))} (8 writers, receiver) | | |`,
    `| CPU µs per successful delivery, bare outbox | Postgres ${f(bareCpu.postgres!)}, bench ${f(bareCpu.bench!)} (8 writers, receiver, the loop) | | Postgres ${(servicePer('postgres') / bareCpu.postgres!).toFixed(2)} |`,
    `| Postgres CPU µs per delivery of the same commits alone (the log row at commit) | ${f(commitAlone)} | | |`,
    `| Postgres CPU µs per successful delivery, the delivery work alone (minus the commits alone) | service ${f(servicePer('postgres') - commitAlone)}, bare outbox ${f(bareCpu.postgres! - commitAlone)} | | |`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  const direct64 = deliveriesPerSecond / directPerSecond;
  const versusNoop = deliveriesPerSecond / noopPerSecond;
  reportGoal({
    path: 'webhook deliveries/s',
    goal: '≥ 0.40× direct undici HTTP',
    measured: perSecond(deliveriesPerSecond, 'deliveries/s'),
    baseline: `undici → same receiver ${perSecond(directPerSecond, 'req/s')}`,
    ratio: direct64,
    met: direct64 >= 0.4,
  });
  reportGoal({
    path: 'webhook deliveries/s (vs no-op jobs)',
    goal: '≥ 0.5× graphile-worker no-op drain',
    measured: perSecond(deliveriesPerSecond, 'deliveries/s'),
    baseline: `no-op jobs ${perSecond(noopPerSecond, 'jobs/s')}`,
    ratio: versusNoop,
    met: versusNoop >= 0.5,
  });
  reportGoal({
    path: 'publish → webhook p99 at ~1,000 msg/s over 100 channels',
    goal: '< 20 ms',
    measured: `${f(hook.p99)} ms at ${perSecond(rate)}`,
    baseline: '',
    ratio: hook.p99,
    met: hook.p99 < 20 && missing === 0,
  });
  const versusBare = deliveriesPerSecond / barePerSecond;
  reportGoal({
    path: 'webhook deliveries/s (vs bare outbox)',
    goal: '≥ 0.75× bare outbox dispatcher',
    measured: perSecond(deliveriesPerSecond, 'deliveries/s'),
    baseline: `bare outbox dispatcher ${perSecond(barePerSecond, 'deliveries/s')}`,
    ratio: versusBare,
    met: versusBare >= 0.75,
  });
  const postgresPer = servicePer('postgres');
  reportGoal({
    path: 'webhook Postgres CPU per successful delivery',
    goal: '≤ 10 µs',
    measured: `${f(postgresPer)} µs (${succeeded} deliveries; the commit's log row ${f(commitAlone)} µs of it, the delivery work ${f(postgresPer - commitAlone)} µs)`,
    baseline: `bare outbox dispatcher ${f(bareCpu.postgres!)} µs`,
    ratio: postgresPer,
    met: postgresPer <= 10,
  });
  if (missing > 0) {
    process.stderr.write(`${missing} published messages did not reach the receiver within 30 s\n`);
    process.exitCode = 1;
  }
}

try {
  await main();
} catch (error) {
  process.stderr.write(`${(error as Error).stack ?? error}\n`);
  for (const proc of processes) process.stderr.write(`--- ${proc.name}\n${proc.output.slice(-15).join('\n')}\n`);
  process.exitCode = 1;
} finally {
  await stopAll(processes);
  for (const cleanup of cleanups) await cleanup().catch(() => {});
  process.exit();
}
