/**
 * The publish benchmark's throughput cases (test/bench/publish.bench.ts): a number of keep-alive
 * clients (CLIENTS unless the case says otherwise) publishing as fast as answers come back
 * (closed loop), a warm-up, then a timed window whose CPU is measured per process group
 * (cpu-meter.ts); single publishes and batches of BATCH_SIZE.
 */
import { Pool as HttpPool } from 'undici';
import type * as hdr from 'hdr-histogram-js';
import { cpuWindow, perMessage, type Groups } from '../cpu-meter.ts';
import { histogram } from './figures.ts';

/** The clients of a case that names no number. */
export const CLIENTS = 50;
/** The clients of the cases that load the route harder (the service's single route and its baselines). */
export const MANY_CLIENTS = Number(process.env.BENCH_MANY_CLIENTS ?? 256);
export const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 2_000);
export const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 8_000);
/** The timed window of the cases added beside the first ones (shorter, so a round stays within minutes). */
export const SHORT_DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 5_000);
export const CHANNELS = 1_000;

export interface Result {
  name: string;
  ok: number;
  errors: number;
  perSecond: number;
  p50: number;
  p99: number;
}

export const ONLY = process.env.BENCH_CASES?.split(',');

/** What the cases need from the run, set once it exists. */
export const loadContext: {
  /** Analyses the database, as autovacuum would for tables that grew. */
  analyze?: () => Promise<unknown>;
  /** The processes whose CPU each timed window measures. */
  cpuGroups?: Groups;
  /**
   * Called just before each timed window opens; what it returns is called as soon as the window
   * closes (a benchmark's own readings around the window: WAL written, a process's metrics).
   */
  aroundWindow?: () => Promise<() => Promise<void>>;
} = {};

/** How a case runs: its clients, warm-up and timed window (CLIENTS, WARMUP_MS and DURATION_MS by default). */
export interface CaseOptions {
  clients?: number;
  warmupMs?: number;
  durationMs?: number;
}

const withDefaults = (options: CaseOptions): Required<CaseOptions> => ({
  clients: options.clients ?? CLIENTS,
  warmupMs: options.warmupMs ?? WARMUP_MS,
  durationMs: options.durationMs ?? DURATION_MS,
});

/** Whether BENCH_CASES leaves the case out. */
const skipped = (name: string) => ONLY !== undefined && !ONLY.some((c) => name.includes(c));

/** What each throughput case starts with: `clients` keep-alive connections, a latency histogram, its phase. */
function caseParts(url: string, clients: number) {
  return {
    http: new HttpPool(url, { connections: clients, pipelining: 1 }),
    histogram: histogram(60_000_000),
    phase: { measuring: false, stop: false },
  };
}

/** The last timed window's CPU seconds per process group, for its summary line. */
let lastCpu: Record<string, number> | undefined;

/** Warm-up, then the timed window, on one copy of `worker` per client; the window's length in seconds. */
async function timed(phase: { measuring: boolean; stop: boolean }, worker: () => Promise<void>, options: Required<CaseOptions>): Promise<number> {
  const workers = Array.from({ length: options.clients }, worker);
  await new Promise((resolve) => setTimeout(resolve, options.warmupMs));
  const closeWindow = await loadContext.aroundWindow?.();
  phase.measuring = true;
  const startedAt = Date.now();
  const cpu = loadContext.cpuGroups && cpuWindow(loadContext.cpuGroups);
  await new Promise((resolve) => setTimeout(resolve, options.durationMs));
  lastCpu = cpu?.end();
  phase.measuring = false;
  const elapsed = (Date.now() - startedAt) / 1000;
  await closeWindow?.();
  phase.stop = true;
  await Promise.all(workers);
  return elapsed;
}

/** A case's result line. */
function summary(name: string, ok: number, errors: number, elapsed: number, histogram: hdr.Histogram, note = ''): Result {
  const result = {
    name,
    ok,
    errors,
    perSecond: Math.round(ok / elapsed),
    p50: histogram.getValueAtPercentile(50) / 1000,
    p99: histogram.getValueAtPercentile(99) / 1000,
  };
  process.stdout.write(
    `${name.padEnd(56)} ${String(result.perSecond).padStart(7)} msg/s   p50 ${result.p50.toFixed(1).padStart(6)} ms   p99 ${result.p99.toFixed(1).padStart(6)} ms   errors ${errors}${note}\n` +
      (lastCpu ? `  ${perMessage(lastCpu, ok)}\n` : ''),
  );
  lastCpu = undefined;
  return result;
}

/**
 * Single publishes from `options.clients` keep-alive clients, each to `channelOf()`, as fast as
 * answers come back; every channel of the 1,000 is primed first (steady state).
 */
export async function load(
  name: string,
  url: string,
  headers: Record<string, string>,
  channelOf: () => string,
  caseOptions: CaseOptions = {},
): Promise<Result> {
  if (skipped(name)) return { name, ok: 0, errors: 0, perSecond: 0, p50: 0, p99: 0 };
  const options = withDefaults(caseOptions);
  const { http, histogram, phase } = caseParts(url, options.clients);
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
    Array.from({ length: options.clients }, async () => {
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
  await loadContext.analyze?.();
  const elapsed = await timed(phase, worker, options);
  await http.close();
  return summary(name, ok, errors, elapsed, histogram);
}

export const BATCH_SIZE = 100;

/**
 * Batch publish throughput: `options.clients` clients, each sending `POST /v1/messages/batch` with
 * BATCH_SIZE messages to random channels of the 1,000 (already primed by the single-route case),
 * as fast as answers come back. Counts messages published (results with a seq).
 */
export async function loadBatch(name: string, url: string, headers: Record<string, string>, caseOptions: CaseOptions = {}): Promise<Result> {
  if (skipped(name)) return { name, ok: 0, errors: 0, perSecond: 0, p50: 0, p99: 0 };
  const options = withDefaults(caseOptions);
  const { http, histogram, phase } = caseParts(url, options.clients);
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
        const res = await http.request({
          method: 'POST',
          path: '/v1/messages/batch',
          headers: { 'content-type': 'application/json', ...headers },
          body: body(),
        });
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
  const elapsed = await timed(phase, worker, options);
  await http.close();
  return summary(name, ok, errors, elapsed, histogram, ` (per request of ${BATCH_SIZE})`);
}
