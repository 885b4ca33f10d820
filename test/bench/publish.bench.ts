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
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Pool as HttpPool } from 'undici';
import * as hdr from 'hdr-histogram-js';
import WebSocket from 'ws';
import { createPool, newId } from '@rtm/db';
import { createEnvironment } from '@rtm/auth';
import { deployLimits } from '@rtm/limits';
import { createTestDatabase } from '../helpers/database.ts';
import { startProcess, waitReady, type RunningProcess } from '../helpers/cluster.ts';
import { mintToken } from '../helpers/http.ts';
import { perSecond, reportGoal, type GoalRow } from './report.ts';
import { describePauses, pausesWindow } from './process-pauses.ts';
import { byName, cpuWindow, perMessage, self, type Groups } from './cpu-meter.ts';

const CLIENTS = 50;
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 2_000);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 8_000);
const CHANNELS = 1_000;
const SELF = fileURLToPath(import.meta.url);

// ---- baseline servers (child processes of this file) ----------------------------------------

async function serveBaseline(kind: 'bare' | 'naive', databaseUrl: string): Promise<void> {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  if (kind === 'bare') {
    app.post('/v1/channels/:channelId/messages', async (_request, reply) => reply.code(201).send({ id: 'x', seq: 1, timestamp: Date.now() }));
  } else {
    const pool = createPool(databaseUrl, { max: 20, name: 'naive' });
    app.post<{ Params: { channelId: string }; Body: { content: object }; Headers: { 'x-env': string; 'x-webhooks'?: string } }>(
      '/v1/channels/:channelId/messages',
      async (request, reply) => {
        const environmentId = request.headers['x-env'];
        const id = newId('msg');
        const ts = Date.now();
        const client = await pool.connect();
        try {
          await client.query('begin');
          await client.query('insert into channels (environment_id, id) values ($1, $2) on conflict do nothing', [
            environmentId,
            request.params.channelId,
          ]);
          const { rows } = await client.query<{ pk: number; last_seq: number }>(
            'update channels set last_seq = last_seq + 1 where environment_id = $1 and id = $2 returning pk, last_seq',
            [environmentId, request.params.channelId],
          );
          const { pk, last_seq: seq } = rows[0]!;
          await client.query(
            `insert into messages (channel_pk, seq, id, type, kind, content, sender_id, sender_anon, ts)
             values ($1, $2, $3, 'message', 'server', $4, 'server', false, $5)`,
            [pk, seq, id, JSON.stringify(request.body.content), ts],
          );
          if (request.headers['x-webhooks'] === 'on') {
            const delivery = newId('dlv');
            await client.query(
              `insert into webhook_deliveries (id, environment_id, event_id, event_type, channel_id, url, body, next_attempt_at)
               values ($1, $2, $3, 'message.published', $4, 'https://hooks.example.com/in', $5, now())`,
              [delivery, environmentId, id, request.params.channelId, JSON.stringify({ id, data: request.body.content })],
            );
            await client.query(`select graphile_worker.add_job('deliver_webhooks', json_build_object('ids', array[$1::text]))`, [delivery]);
          }
          await client.query('commit');
          return reply.code(201).send({ id, seq, timestamp: ts });
        } catch (error) {
          await client.query('rollback').catch(() => {});
          throw error;
        } finally {
          client.release();
        }
      },
    );
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  process.stdout.write(`${JSON.stringify({ msg: 'listening', port: typeof address === 'object' && address ? address.port : 0 })}\n`);
}

async function startBaseline(kind: 'bare' | 'naive', databaseUrl: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SELF, `--serve=${kind}`, databaseUrl], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('{"msg":"listening"')) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`${kind} baseline exited ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

// ---- load generator -----------------------------------------------------------------------------

interface Result {
  name: string;
  ok: number;
  errors: number;
  perSecond: number;
  p50: number;
  p99: number;
}

const ONLY = process.env.BENCH_CASES?.split(',');
/** Set once the database exists: analyses it, as autovacuum would for tables that grew. */
let analyze: (() => Promise<unknown>) | undefined;

/** Whether BENCH_CASES leaves the case out. */
const skipped = (name: string) => ONLY !== undefined && !ONLY.some((c) => name.includes(c));

/** What each throughput case starts with: CLIENTS keep-alive connections, a latency histogram, its phase. */
function caseParts(url: string) {
  return {
    http: new HttpPool(url, { connections: CLIENTS, pipelining: 1 }),
    histogram: hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 }),
    phase: { measuring: false, stop: false },
  };
}

/** The processes whose CPU each timed window measures (set once they run). */
let cpuGroups: Groups | undefined;
/** The last timed window's CPU seconds per process group, for its summary line. */
let lastCpu: Record<string, number> | undefined;

/** Warm-up, then the timed window, on CLIENTS copies of `worker`; the window's length in seconds. */
async function timed(phase: { measuring: boolean; stop: boolean }, worker: () => Promise<void>): Promise<number> {
  const workers = Array.from({ length: CLIENTS }, worker);
  await new Promise((resolve) => setTimeout(resolve, WARMUP_MS));
  phase.measuring = true;
  const startedAt = Date.now();
  const cpu = cpuGroups && cpuWindow(cpuGroups);
  await new Promise((resolve) => setTimeout(resolve, DURATION_MS));
  lastCpu = cpu?.end();
  phase.measuring = false;
  const elapsed = (Date.now() - startedAt) / 1000;
  phase.stop = true;
  await Promise.all(workers);
  return elapsed;
}

/** A case's result line. */
function summary(name: string, ok: number, errors: number, elapsed: number, histogram: hdr.Histogram, note = ''): Result {
  const result = { name, ok, errors, perSecond: Math.round(ok / elapsed), p50: histogram.getValueAtPercentile(50) / 1000, p99: histogram.getValueAtPercentile(99) / 1000 };
  process.stdout.write(
    `${name.padEnd(44)} ${String(result.perSecond).padStart(7)} msg/s   p50 ${result.p50.toFixed(1).padStart(6)} ms   p99 ${result.p99.toFixed(1).padStart(6)} ms   errors ${errors}${note}\n` +
      (lastCpu ? `  ${perMessage(lastCpu, ok)}\n` : ''),
  );
  lastCpu = undefined;
  return result;
}

async function load(name: string, url: string, headers: Record<string, string>, channelOf: () => string): Promise<Result> {
  if (skipped(name)) return { name, ok: 0, errors: 0, perSecond: 0, p50: 0, p99: 0 };
  const { http, histogram, phase } = caseParts(url);
  let ok = 0;
  let errors = 0;
  const body = JSON.stringify({ content: { text: 'benchmark message with a little text in it', n: 42 } });
  const worker = async () => {
    while (!phase.stop) {
      const started = process.hrtime.bigint();
      try {
        const res = await http.request({
          method: 'POST',
          path: `/v1/channels/${channelOf()}/messages`,
          headers: { 'content-type': 'application/json', ...headers },
          body,
        });
        const text = await res.body.text();
        if (!phase.measuring) continue;
        if (res.statusCode === 201) {
          ok++;
          histogram.recordValue(Number(process.hrtime.bigint() - started) / 1000);
        } else {
          errors++;
          if (errors <= 3) process.stdout.write(`  ${name}: ${res.statusCode} ${text}\n`);
        }
      } catch {
        if (phase.measuring) errors++;
      }
    }
  };
  // steady state, as for long-lived channels: every channel has been published to (its row
  // exists; rtm's owner has it cached) before the timed warm-up starts
  let primed = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (primed < CHANNELS) {
        const res = await http.request({
          method: 'POST',
          path: `/v1/channels/bench-${primed++}/messages`,
          headers: { 'content-type': 'application/json', ...headers },
          body,
        });
        await res.body.text();
      }
    }),
  );
  await analyze?.();
  const elapsed = await timed(phase, worker);
  await http.close();
  return summary(name, ok, errors, elapsed, histogram);
}

const BATCH_SIZE = 100;

/**
 * Batch publish throughput: the same 50 clients, each sending `POST /v1/messages/batch` with
 * BATCH_SIZE messages to random channels of the 1,000 (already primed by the single-route case),
 * as fast as answers come back. Counts messages published (results with a seq).
 */
async function loadBatch(name: string, url: string, headers: Record<string, string>): Promise<Result> {
  if (skipped(name)) return { name, ok: 0, errors: 0, perSecond: 0, p50: 0, p99: 0 };
  const { http, histogram, phase } = caseParts(url);
  let ok = 0;
  let errors = 0;
  const body = () =>
    JSON.stringify({
      messages: Array.from({ length: BATCH_SIZE }, () => ({
        channelId: `bench-${Math.floor(Math.random() * CHANNELS)}`,
        content: { text: 'benchmark message with a little text in it', n: 42 },
      })),
    });
  const worker = async () => {
    while (!phase.stop) {
      const started = process.hrtime.bigint();
      try {
        const res = await http.request({ method: 'POST', path: '/v1/messages/batch', headers: { 'content-type': 'application/json', ...headers }, body: body() });
        const text = await res.body.text();
        if (!phase.measuring) continue;
        if (res.statusCode !== 200) {
          errors++;
          if (errors <= 3) process.stdout.write(`  ${name}: ${res.statusCode} ${text}\n`);
          continue;
        }
        const { results } = JSON.parse(text) as { results: { seq?: number }[] };
        const published = results.filter((r) => r.seq !== undefined).length;
        ok += published;
        errors += results.length - published;
        histogram.recordValue(Number(process.hrtime.bigint() - started) / 1000);
      } catch {
        if (phase.measuring) errors++;
      }
    }
  };
  const elapsed = await timed(phase, worker);
  await http.close();
  return summary(name, ok, errors, elapsed, histogram, ` (per request of ${BATCH_SIZE})`);
}

const LATENCY_CHANNELS = 100;
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 6_000);

const LATENCY_WARMUP_MS = 3_000;

/**
 * Calls `send(n)` for n = 0, 1, … at `rate` a second for `ms` (open loop: on schedule, whether or
 * not earlier calls finished), recording in `lateness` how late each left; waits for every call.
 * The number of calls.
 */
async function openLoop(rate: number, ms: number, send: (n: number) => Promise<void>, lateness?: hdr.Histogram): Promise<number> {
  const started = performance.now();
  let sent = 0;
  const inFlight = new Set<Promise<void>>();
  while (performance.now() - started < ms) {
    const now = performance.now();
    const due = Math.floor(((now - started) / 1000) * rate);
    for (; sent < due; sent++) {
      // when call `sent` was due: the generator's own lateness, apart from the service's
      lateness?.recordValue(Math.max(1, (now - started - (sent / rate) * 1000) * 1000));
      const p = send(sent).catch(() => {});
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(inFlight);
  return sent;
}

/**
 * Publish → socket frame latency at a fixed rate (open loop: requests leave on schedule whether
 * or not earlier ones were answered, so queueing shows): 100 channels, one channel socket
 * subscribed to each, publishes spread over them at `rate` per second for LATENCY_MS; every
 * frame's latency is recorded (publish sent → frame received on its socket).
 */
async function latencyAt(
  rate: number,
  controlUrl: string,
  realtimeUrl: string,
  secretKey: string,
  services: readonly RunningProcess[],
): Promise<{ p50: number; p99: number; frames: number; sent: number; tail: string }> {
  const histogram = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 });
  // the tail's parts: publish → 201, how late the generator sent each request, and the
  // generator's own event-loop delay (frames wait in it before they are timed)
  const answered = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 });
  const lateness = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: 3 });
  const generatorLoop = monitorEventLoopDelay({ resolution: 1 });
  const sentAt = new Map<number, bigint>();
  let frames = 0;
  const sockets = await Promise.all(
    Array.from({ length: LATENCY_CHANNELS }, async (_, i) => {
      const token = await mintToken(controlUrl, secretKey, `listener-${i}`);
      const ws = new WebSocket(`${realtimeUrl.replace('http', 'ws')}/v1/channels/lat-${i}?token=${token}`);
      await new Promise<void>((resolve, reject) => {
        ws.on('error', reject);
        ws.on('message', (data) => {
          const text = data.toString();
          if (text.includes('"op":"ready"')) return resolve();
          const frame = JSON.parse(text) as { content?: { n?: unknown } };
          const n = frame.content?.n;
          const at = typeof n === 'number' && n >= 0 ? sentAt.get(n) : undefined;
          if (at === undefined) return;
          sentAt.delete(n as number);
          frames++;
          histogram.recordValue(Math.max(1, Number(process.hrtime.bigint() - at) / 1000));
        });
      });
      return ws;
    }),
  );
  const http = new HttpPool(controlUrl, { connections: CLIENTS, pipelining: 1 });
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${secretKey}` };
  const send = async (n: number) => {
    const at = process.hrtime.bigint();
    sentAt.set(n, at);
    const res = await http.request({
      method: 'POST',
      path: `/v1/channels/lat-${n % LATENCY_CHANNELS}/messages`,
      headers,
      body: JSON.stringify({ content: { text: 'latency probe with a little text in it', n } }),
    });
    await res.body.text();
    if (res.statusCode !== 201) sentAt.delete(n);
    else if (n >= 0) answered.recordValue(Math.max(1, Number(process.hrtime.bigint() - at) / 1000));
  };
  // every channel cached first, as in the throughput cases
  await Promise.all(Array.from({ length: LATENCY_CHANNELS }, (_, i) => send(-1 - i)));
  // then the same rate for LATENCY_WARMUP_MS, not measured: run alone (BENCH_LATENCY_RATE), the
  // processes would otherwise be measured while their code is still being compiled
  await openLoop(rate, LATENCY_WARMUP_MS, (n) => send(-1_000_000 - n));
  histogram.reset();
  answered.reset();
  frames = 0;
  const windows = await Promise.all(services.map((service) => pausesWindow(service.internalUrl)));
  generatorLoop.enable();
  const sent = await openLoop(rate, LATENCY_MS, send, lateness);
  generatorLoop.disable();
  const pauses = await Promise.all(windows.map((window) => window.end()));
  const deadline = Date.now() + 5_000;
  while (frames < sent && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  for (const ws of sockets) ws.close();
  await http.close();
  const ms = (h: hdr.Histogram, p: number) => (h.getValueAtPercentile(p) / 1000).toFixed(1);
  const tail =
    `  publish → 201: p50 ${ms(answered, 50)} ms, p99 ${ms(answered, 99)} ms\n` +
    `  generator: sent late by p50 ${ms(lateness, 50)} ms, p99 ${ms(lateness, 99)} ms, max ${ms(lateness, 100)} ms; ` +
    `its loop delay p99 ${(generatorLoop.percentile(99) / 1e6).toFixed(1)} ms, max ${(generatorLoop.max / 1e6).toFixed(1)} ms\n` +
    services.map((service, i) => `  ${service.kind}: ${describePauses(pauses[i]!)}\n`).join('');
  return { p50: histogram.getValueAtPercentile(50) / 1000, p99: histogram.getValueAtPercentile(99) / 1000, frames, sent, tail };
}

async function main(): Promise<void> {
  const cleanups: (() => Promise<void>)[] = [];
  const db = await createTestDatabase({ after: (fn: () => Promise<void>) => void cleanups.push(fn) });
  const processes: RunningProcess[] = [];
  const children: ChildProcess[] = [];
  try {
    const env = await createEnvironment(db.pool, { organization: 'bench', project: 'bench', environment: 'publish' });
    // the benchmark measures the service, not its rate limits: both limits a publish takes, out of the way
    await deployLimits(db.pool, env.environmentId, { environmentMessagesPerSecond: 1_000_000_000, secretKeyRequestsPerSecond: 1_000_000_000 });
    analyze = () => db.pool.query('analyze channels, messages');
    const common = { DATABASE_URL: db.url, NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222', NATS_PREFIX: `bench${process.pid}` };
    const lanes: Record<string, string> = process.env.COMMIT_LANES ? { COMMIT_LANES: process.env.COMMIT_LANES } : {};
    // BENCH_CPU_PROF_DIR: the gateway and the channel-node write V8 CPU profiles there when they
    // stop (read them with test/bench/profile-top.ts)
    const profiling: Record<string, string> = process.env.BENCH_CPU_PROF_DIR
      ? { NODE_OPTIONS: `--import ${fileURLToPath(new URL('./cpu-profile-hook.mjs', import.meta.url))}`, RTM_CPU_PROFILE_DIR: process.env.BENCH_CPU_PROF_DIR }
      : {};
    if (process.env.BENCH_NODE_OPTIONS) profiling.NODE_OPTIONS = `${profiling.NODE_OPTIONS ?? ''} ${process.env.BENCH_NODE_OPTIONS}`.trim();
    // BENCH_V8_FLAGS: V8 flags node refuses in NODE_OPTIONS, set at start-up by a hook
    if (process.env.BENCH_V8_FLAGS) {
      profiling.NODE_OPTIONS = `${profiling.NODE_OPTIONS ?? ''} --import ${fileURLToPath(new URL('./v8-flags-hook.mjs', import.meta.url))}`.trim();
      profiling.RTM_V8_FLAGS = process.env.BENCH_V8_FLAGS;
    }
    const [gateway, node] = await Promise.all([
      startProcess('gateway', { ...common, ...profiling }),
      startProcess('channel-node', { ...common, ...lanes, ...profiling }),
    ]);
    processes.push(gateway, node);
    await Promise.all([waitReady(gateway), waitReady(node)]);
    const bare = await startBaseline('bare', db.url);
    const naive = await startBaseline('naive', db.url);
    children.push(bare.child, naive.child);
    const pid = (child: ChildProcess) => () => (child.pid === undefined ? [] : [child.pid]);
    cpuGroups = {
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
        baseline: '',
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
    // stopped, not killed, when profiling: the profiles are written as they exit
    await Promise.all(processes.map((p) => (process.env.BENCH_CPU_PROF_DIR ? p.stop() : p.kill())));
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

const serve = process.argv.find((arg) => arg.startsWith('--serve='));
if (serve) {
  await serveBaseline(serve.slice('--serve='.length) as 'bare' | 'naive', process.argv[process.argv.indexOf(serve) + 1]!);
} else {
  await main();
  process.exit(0);
}
