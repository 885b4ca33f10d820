/**
 * `npm run bench -- large-channel`: one channel with many subscribers, all arriving at once.
 *
 * CONNECTIONS (10,000) `/v1/connect` connections, each of a different user, all subscribe to ONE
 * channel in a storm: every connection is opened as soon as fewer than OPEN_WINDOW handshakes are
 * in flight, and sends its subscribe as soon as it is `connected`. Failures are retried as the
 * client SDK does (libs/client): a close waits a full-jitter backoff (500 ms doubling to 30 s),
 * at least the `retryAfter` of the last error frame for a 4429 (1 s without one); a subscribe
 * refused with `rate_limited` waits its `retryAfter` (1 s without one), one refused with
 * `unavailable` waits max(retryAfter, backoff); a subscription the server ends (`unsubscribed`
 * with `unavailable`) is subscribed again at once, resuming with `since`; 4400 and 4403 are final.
 * Every close, error frame and transport error is counted by code.
 *
 * Measured:
 *   storm       first open → every connection subscribed at the same moment; the `presence`
 *               frames (and their bytes) the subscribers received meanwhile, and in the second
 *               after; CPU µs of the gateway, channel-node, Postgres, NATS, the load generator and
 *               the whole machine over the storm; the load generator's event-loop delay (is the
 *               client the bottleneck?).
 *   memory      the gateway's RSS and heap used (its /internal/metrics, after a GC forced through
 *               its inspector, until two readings agree) before the storm and once all are
 *               subscribed: bytes per connection (one subscription each).
 *   occupancy   `GET /v1/channels/{id}/occupancy` (secret key) against the truth (the storm's
 *               connections and users plus the observer), and the last `occupancy` frame of an
 *               observer connection that subscribed with `occupancy: true` before the storm.
 *               A gateway without them (404, the option refused, no frame) shows "n/a".
 *   fan-out     MESSAGES server publishes (HTTP, secret key) at RATE per second; publish sent →
 *               the last subscriber's frame, p50 / p99 over the messages, and every delivery's
 *               p50 / p99; every subscriber must get every message once, in seq order.
 *   neighbour   a second environment publishes NEIGHBOUR_RATE single server publishes a second to
 *               its own channel (open loop), for ALONE_MS before the storm and during it: its
 *               publish p50 / p99 (request → 201) alone and during, the ratio, its failures.
 *
 * Set-up: one gateway and one channel-node (the project's defaults, presence included), a fresh
 * database and NATS prefix, both dropped at the end. Raised for a single load generator only:
 * the gateway's MAX_CONNECTIONS_PER_IP (every socket comes from 127.0.0.1), and the environment's
 * socketsPerEnvironment quota when CONNECTIONS needs more than its default. userSocketOpensPerSecond
 * is per user and every connection is a different user, so it stays at its default. Tokens are
 * signed in the benchmark with the environment's signing key (what POST /v1/tokens does).
 *
 * Options (environment): BENCH_LARGE_CONNECTIONS (10000), BENCH_LARGE_OPEN_WINDOW (1000
 * handshakes in flight), BENCH_LARGE_MESSAGES (20), BENCH_LARGE_RATE (2 msg/s),
 * BENCH_LARGE_NEIGHBOUR_RATE (20 msg/s), BENCH_LARGE_ALONE_MS (10000), BENCH_LARGE_STORM_LIMIT_MS
 * (600000: the storm gives up after this long), BENCH_LARGE_DELIVERY_LIMIT_MS (60000).
 */
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { Pool as HttpPool } from 'undici';
import * as hdr from 'hdr-histogram-js';
import { connect as natsConnect } from 'nats';
import { createEnvironment, signToken, USER_TOKEN_AUDIENCE, type SigningKey } from '@rtm/auth';
import { deployLimits, DEFAULT_LIMITS } from '@rtm/limits';
import { backoffDelay } from '../../libs/client/src/backoff.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { startProcess, waitReady, type RunningProcess } from '../helpers/cluster.ts';
import { cpuMicros, machineCpuMicros, postgresCpuMicros, reportGoal } from './report.ts';
import { Inspector, gatewayMemory } from './gateway-memory.ts';

const CONNECTIONS = Number(process.env.BENCH_LARGE_CONNECTIONS ?? 10_000);
const OPEN_WINDOW = Number(process.env.BENCH_LARGE_OPEN_WINDOW ?? 1_000);
const MESSAGES = Number(process.env.BENCH_LARGE_MESSAGES ?? 20);
const RATE = Number(process.env.BENCH_LARGE_RATE ?? 2);
const NEIGHBOUR_RATE = Number(process.env.BENCH_LARGE_NEIGHBOUR_RATE ?? 20);
const ALONE_MS = Number(process.env.BENCH_LARGE_ALONE_MS ?? 10_000);
const STORM_LIMIT_MS = Number(process.env.BENCH_LARGE_STORM_LIMIT_MS ?? 600_000);
const DELIVERY_LIMIT_MS = Number(process.env.BENCH_LARGE_DELIVERY_LIMIT_MS ?? 60_000);
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const CHANNEL = 'large-room';
const NEIGHBOUR_CHANNEL = 'neighbour-room';
/** The SDK's reconnect backoff (libs/client/src/client.ts DEFAULTS). */
const RETRY_INITIAL_MS = 500;
const RETRY_MAX_MS = 30_000;
/** The SDK gives up on a handshake that has not reached `connected` after this long. */
const HANDSHAKE_TIMEOUT_MS = 15_000;
/** Before reading the gateway's memory, and after the storm for trailing presence frames. */
const SETTLE_MS = 1_000;

const fmt = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : 'n/a');
const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
const sleep = (t: number) => new Promise((resolve) => setTimeout(resolve, t));
const histogram = () => hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3 });

// ---------------------------------------------------------------- counters

/** Every close, error frame and transport error of the storm's connections, by code. */
const outcomes = new Map<string, number>();
const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);

const presence = { frames: 0, bytes: 0 };
let subscribedNow = 0;
let allSubscribed: (() => void) | undefined;
/** Handshakes in flight (socket created, no `connected` or close yet) and the connections waiting for a place. */
let opening = 0;
const openQueue: Sub[] = [];

/** A delivery of a message with `seq` (and the fan-out's `n` in its content) at `at` (performance.now()). */
type Delivery = (sub: Sub, seq: number, n: number | undefined, at: number) => void;
let onDelivery: Delivery | undefined;

/** The op of a frame, from its first bytes (message frames have none): no parse of presence frames. */
function opOf(data: Buffer): string | undefined {
  const head = data.toString('latin1', 0, Math.min(data.length, 160));
  const at = head.indexOf('"op":"');
  if (at < 0) return undefined;
  return head.slice(at + 6, head.indexOf('"', at + 6));
}

// ---------------------------------------------------------------- one subscriber

class Sub {
  readonly url: string;
  ws: WebSocket | undefined;
  state: 'idle' | 'opening' | 'connected' | 'subscribing' | 'subscribed' | 'failed' = 'idle';
  private attempts = 0;
  private refusals = 0;
  private retryAfterHint: number | undefined;
  private ref = 0;
  private handshakeTimer: NodeJS.Timeout | undefined;
  private countedOpening = false;
  /** The highest seq seen (for `since` on a resubscribe). */
  lastSeq = 0;
  /** Seqs of the fan-out's messages as they arrived, in order. */
  readonly seqs: number[] = [];

  constructor(url: string) {
    this.url = url;
  }

  /** Queues an open: it starts once fewer than OPEN_WINDOW handshakes are in flight. */
  open(): void {
    openQueue.push(this);
    pump();
  }

  start(): void {
    this.state = 'opening';
    opening++;
    this.countedOpening = true;
    const ws = new WebSocket(this.url, { perMessageDeflate: false });
    this.ws = ws;
    this.handshakeTimer = setTimeout(() => {
      count('client: no `connected` within 15 s');
      ws.terminate();
    }, HANDSHAKE_TIMEOUT_MS);
    ws.on('message', (data: Buffer, isBinary) => {
      if (ws !== this.ws || isBinary) return;
      this.onFrame(data);
    });
    ws.on('error', (error: Error & { code?: string }) => count(`transport error ${error.code ?? error.message}`));
    ws.on('close', (code, reason) => {
      if (ws === this.ws) this.onClose(code, reason.toString('utf8'));
    });
  }

  private handshakeDone(): void {
    clearTimeout(this.handshakeTimer);
    if (this.countedOpening) {
      this.countedOpening = false;
      opening--;
      pump();
    }
  }

  private onFrame(data: Buffer): void {
    const op = opOf(data);
    if (op === undefined) {
      const at = performance.now();
      const frame = JSON.parse(data.toString('utf8')) as { seq?: number; content?: { n?: unknown } };
      if (typeof frame.seq === 'number') {
        this.lastSeq = Math.max(this.lastSeq, frame.seq);
        const n = frame.content?.n;
        onDelivery?.(this, frame.seq, typeof n === 'number' ? n : undefined, at);
      }
      return;
    }
    if (op === 'presence') {
      presence.frames++;
      presence.bytes += data.length;
      return;
    }
    const frame = JSON.parse(data.toString('utf8')) as { op: string; ref?: unknown; code?: string; retryAfter?: number };
    switch (op) {
      case 'connected':
        this.handshakeDone();
        this.state = 'connected';
        this.subscribe();
        return;
      case 'subscribed':
        this.state = 'subscribed';
        this.attempts = 0;
        this.refusals = 0;
        if (++subscribedNow === CONNECTIONS) allSubscribed?.();
        return;
      case 'unsubscribed':
        if (frame.ref !== undefined) return;
        count(`unsubscribed ${frame.code ?? '(no code)'}`);
        if (this.state === 'subscribed') subscribedNow--;
        if (frame.code === 'banned' || frame.code === 'forbidden') this.state = 'failed';
        else this.subscribe();
        return;
      case 'error': {
        count(`error frame ${frame.code}`);
        if (typeof frame.retryAfter === 'number') this.retryAfterHint = frame.retryAfter;
        if (frame.ref === undefined || this.state !== 'subscribing') return;
        if (frame.code === 'rate_limited') {
          this.state = 'connected';
          setTimeout(() => this.state === 'connected' && this.subscribe(), (frame.retryAfter ?? 1) * 1000);
        } else if (frame.code === 'unavailable') {
          this.state = 'connected';
          const delay = Math.max((frame.retryAfter ?? 0) * 1000, backoffDelay(this.refusals++, RETRY_INITIAL_MS, RETRY_MAX_MS));
          setTimeout(() => this.state === 'connected' && this.subscribe(), delay);
        } else this.state = 'failed';
        return;
      }
      default:
        return;
    }
  }

  private subscribe(): void {
    this.state = 'subscribing';
    const frame: Record<string, unknown> = { op: 'subscribe', ref: ++this.ref, channelId: CHANNEL };
    if (this.lastSeq > 0) frame.since = this.lastSeq;
    this.ws!.send(JSON.stringify(frame));
  }

  private onClose(code: number, reason: string): void {
    this.handshakeDone();
    count(`close ${code}${reason ? ` (${reason.slice(0, 60)})` : ''}`);
    if (this.state === 'subscribed') subscribedNow--;
    this.ws = undefined;
    if (code === 4400 || code === 4403 || this.state === 'failed' || stopping) {
      this.state = 'failed';
      return;
    }
    this.state = 'idle';
    let delay = backoffDelay(this.attempts++, RETRY_INITIAL_MS, RETRY_MAX_MS);
    if (code === 4429) delay = Math.max(delay, (this.retryAfterHint ?? 1) * 1000);
    this.retryAfterHint = undefined;
    setTimeout(() => !stopping && this.open(), delay);
  }

  close(): void {
    this.state = 'failed';
    this.ws?.terminate();
  }
}

let stopping = false;

function pump(): void {
  while (opening < OPEN_WINDOW && openQueue.length > 0) openQueue.shift()!.start();
}

// ---------------------------------------------------------------- the observer

interface Occupancy {
  connections: number;
  users: number;
}

/** One more connection, subscribed before the storm with `occupancy: true`; keeps the last occupancy frame. */
async function observer(url: string): Promise<{ ws: WebSocket; last(): Occupancy | undefined; frames(): number; note: string }> {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  let last: Occupancy | undefined;
  let frames = 0;
  let note = '';
  await new Promise<void>((resolve, reject) => {
    ws.once('error', reject);
    ws.once('close', (code) => reject(new Error(`observer closed ${code}`)));
    ws.on('message', (data: Buffer) => {
      const op = opOf(data);
      if (op === 'connected') ws.send(JSON.stringify({ op: 'subscribe', ref: 'occupancy', channelId: CHANNEL, occupancy: true }));
      if (op === 'occupancy') {
        frames++;
        const frame = JSON.parse(data.toString('utf8')) as Occupancy;
        last = { connections: frame.connections, users: frame.users };
      }
      if (op !== 'subscribed' && op !== 'error') return;
      const frame = JSON.parse(data.toString('utf8')) as { ref?: unknown; code?: string; reason?: string };
      if (op === 'subscribed') return resolve();
      if (frame.ref === 'occupancy') {
        // a gateway without the option refuses the field: subscribe without it
        note = `subscribe with occupancy refused: ${frame.code} ${frame.reason ?? ''}`.trim();
        ws.send(JSON.stringify({ op: 'subscribe', ref: 'plain', channelId: CHANNEL }));
      } else reject(new Error(`observer subscribe: ${frame.code} ${frame.reason}`));
    });
  });
  ws.removeAllListeners('close');
  ws.removeAllListeners('error');
  ws.on('error', () => {});
  return { ws, last: () => last, frames: () => frames, note };
}

// ---------------------------------------------------------------- the neighbour

interface PublishFigures {
  ok: number;
  failed: Map<string, number>;
  p50: number;
  p99: number;
}

/** Single server publishes at `rate` a second (open loop) to the neighbour's channel; latency per phase. */
function neighbour(controlUrl: string, secretKey: string, rate: number) {
  const http = new HttpPool(controlUrl, { connections: 8 });
  let current: { h: ReturnType<typeof histogram>; ok: number; failed: Map<string, number> } | undefined;
  const inflight = new Set<Promise<void>>();
  const body = JSON.stringify({ content: { text: 'neighbour message' } });
  const send = () => {
    const phase = current;
    const t0 = performance.now();
    const p = http
      .request({
        method: 'POST',
        path: `/v1/channels/${NEIGHBOUR_CHANNEL}/messages`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secretKey}` },
        body,
      })
      .then(async (res) => {
        await res.body.text();
        if (!phase) return;
        if (res.statusCode === 201) {
          phase.ok++;
          phase.h.recordValue(Math.max(1, Math.round((performance.now() - t0) * 1000)));
        } else phase.failed.set(`HTTP ${res.statusCode}`, (phase.failed.get(`HTTP ${res.statusCode}`) ?? 0) + 1);
      })
      .catch((error: Error & { code?: string }) => {
        const key = error.code ?? error.message;
        phase?.failed.set(key, (phase.failed.get(key) ?? 0) + 1);
      })
      .finally(() => inflight.delete(p));
    inflight.add(p);
  };
  const timer = setInterval(send, 1000 / rate);
  return {
    phase(): void {
      current = { h: histogram(), ok: 0, failed: new Map() };
    },
    /** The figures of the phase so far (publishes still in flight count towards the next). */
    take(): PublishFigures {
      const phase = current!;
      current = { h: histogram(), ok: 0, failed: new Map() };
      return { ok: phase.ok, failed: phase.failed, p50: phase.h.getValueAtPercentile(50) / 1000, p99: phase.h.getValueAtPercentile(99) / 1000 };
    },
    async stop(): Promise<void> {
      clearInterval(timer);
      await Promise.all(inflight);
      await http.close();
    },
  };
}

// ---------------------------------------------------------------- CPU

/** The pids of the machine's NATS servers, by their /proc name. */
function natsPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/stat`, 'utf8').includes('(nats-server)')) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

type CpuSnapshot = Record<string, number>;

function cpuSnapshot(gateway: RunningProcess, node: RunningProcess, nats: number[]): CpuSnapshot {
  const self = process.cpuUsage();
  return {
    gateway: cpuMicros(gateway.child.pid),
    'channel-node': cpuMicros(node.child.pid),
    postgres: postgresCpuMicros(),
    nats: nats.reduce((sum, pid) => sum + cpuMicros(pid), 0),
    'load generator (this process)': self.user + self.system,
    'machine (every process)': machineCpuMicros(),
  };
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const began = Date.now();
  const cleanups: (() => Promise<void>)[] = [];
  const processes: RunningProcess[] = [];
  const subs: Sub[] = [];
  let inspector: Inspector | undefined;
  let watcher: Awaited<ReturnType<typeof observer>> | undefined;
  let neighbourLoad: ReturnType<typeof neighbour> | undefined;
  const prefix = `large${randomBytes(4).toString('hex')}`;
  try {
    const db = await createTestDatabase({ after: (fn: () => Promise<void>) => void cleanups.push(fn) });
    const common = { DATABASE_URL: db.url, NATS_URL, NATS_PREFIX: prefix, LOG_LEVEL: 'error' };
    const maxPerIp = CONNECTIONS + 1_000;
    const [gateway, node] = await Promise.all([
      // every socket comes from this one process's address
      startProcess('gateway', {
        ...common,
        MAX_CONNECTIONS_PER_IP: String(maxPerIp),
        // BENCH_CPU_PROF_DIR: the gateway writes a V8 CPU profile there when it stops (test/bench/profile-top.ts)
        NODE_OPTIONS: process.env.BENCH_CPU_PROF_DIR
          ? `--inspect=127.0.0.1:0 --import ${fileURLToPath(new URL('./cpu-profile-hook.mjs', import.meta.url))}`
          : '--inspect=127.0.0.1:0',
        ...(process.env.BENCH_CPU_PROF_DIR ? { RTM_CPU_PROFILE_DIR: process.env.BENCH_CPU_PROF_DIR } : {}),
      }),
      startProcess('channel-node', common),
    ]);
    processes.push(gateway, node);
    await Promise.all([waitReady(gateway), waitReady(node)]);
    inspector = await Inspector.of(gateway.name, gateway.output);

    const large = await createEnvironment(db.pool, { organization: 'bench', project: 'bench', environment: 'large' });
    const other = await createEnvironment(db.pool, { organization: 'bench', project: 'bench', environment: 'neighbour' });
    const raised = [`gateway MAX_CONNECTIONS_PER_IP=${maxPerIp}`];
    if (CONNECTIONS + 1 > DEFAULT_LIMITS.socketsPerEnvironment) {
      await deployLimits(db.pool, large.environmentId, { socketsPerEnvironment: CONNECTIONS + 100 });
      raised.push(`socketsPerEnvironment=${CONNECTIONS + 100}`);
    }

    // tokens signed here with the environment's signing key, as POST /v1/tokens signs them
    const { rows } = await db.pool.query<{ id: string; secret: Buffer }>(
      'select id, secret from signing_keys where environment_id = $1 and retired_at is null order by created_at desc limit 1',
      [large.environmentId],
    );
    const key: SigningKey = { id: rows[0]!.id, environmentId: large.environmentId, secret: new Uint8Array(rows[0]!.secret) };
    const mint = async (userId: string) =>
      (await signToken(key, { issuer: process.env.TOKEN_ISSUER ?? 'rtm', audience: USER_TOKEN_AUDIENCE, subject: userId, ttlSeconds: 3_600 })).token;
    const mintStarted = performance.now();
    const wsBase = `${gateway.realtimeUrl.replace(/^http/, 'ws')}/v1/connect?token=`;
    for (let i = 0; i < CONNECTIONS; i++) subs.push(new Sub(wsBase + (await mint(`u${i}`))));
    const mintMs = performance.now() - mintStarted;

    const control = new HttpPool(gateway.controlUrl, { connections: 16 });
    cleanups.push(() => control.close());
    const publish = async (secretKey: string, channelId: string, content: object): Promise<{ status: number; seq?: number }> => {
      const res = await control.request({
        method: 'POST',
        path: `/v1/channels/${channelId}/messages`,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secretKey}` },
        body: JSON.stringify({ content }),
      });
      const body = (await res.body.json()) as { seq?: number };
      return { status: res.statusCode, seq: body.seq };
    };
    // both channels exist (and their owner has them cached) before anything is measured
    for (const [secretKey, channelId] of [[large.secretKey, CHANNEL], [other.secretKey, NEIGHBOUR_CHANNEL]] as const) {
      const { status } = await publish(secretKey, channelId, { warmUp: true });
      if (status !== 201) throw new Error(`warm-up publish to ${channelId}: ${status}`);
    }

    const before = await gatewayMemory(gateway, inspector, SETTLE_MS);
    watcher = await observer(wsBase + (await mint('observer')));

    process.stdout.write(
      `large channel: ${fmt(CONNECTIONS)} connections of ${fmt(CONNECTIONS)} users subscribe to one channel, ` +
        `at most ${fmt(OPEN_WINDOW)} handshakes in flight; then ${MESSAGES} server publishes at ${RATE}/s; ` +
        `neighbour publishes ${NEIGHBOUR_RATE}/s (${ALONE_MS / 1000} s alone, then during the storm)\n` +
        `raised for one load generator: ${raised.join(', ')}; ${fmt(CONNECTIONS)} tokens signed in ${ms(mintMs)} ms\n`,
    );

    // ---- the neighbour alone
    neighbourLoad = neighbour(gateway.controlUrl, other.secretKey, NEIGHBOUR_RATE);
    await sleep(2_000); // warm-up, not counted
    neighbourLoad.phase();
    await sleep(ALONE_MS);
    const alone = neighbourLoad.take();

    // ---- the storm
    const nats = natsPids();
    const lag = monitorEventLoopDelay({ resolution: 10 });
    const cpuBefore = cpuSnapshot(gateway, node, nats);
    const stormStart = performance.now();
    lag.enable();
    const done = new Promise<boolean>((resolve) => {
      allSubscribed = () => resolve(true);
      setTimeout(() => resolve(false), STORM_LIMIT_MS).unref();
    });
    for (const sub of subs) sub.open();
    const progress = setInterval(() => {
      process.stdout.write(
        `  ${((performance.now() - stormStart) / 1000).toFixed(0).padStart(4)} s: ${fmt(subscribedNow)} subscribed, ${fmt(opening)} opening, ` +
          `${fmt(openQueue.length)} queued, ${fmt(presence.frames)} presence frames\n`,
      );
    }, 10_000);
    const complete = await done;
    clearInterval(progress);
    const stormMs = performance.now() - stormStart;
    lag.disable();
    const cpuAfter = cpuSnapshot(gateway, node, nats);
    const during = neighbourLoad.take();
    const stormPresence = { ...presence };
    const stormOutcomes = new Map(outcomes);
    await sleep(SETTLE_MS);
    const settlePresence = { frames: presence.frames - stormPresence.frames, bytes: presence.bytes - stormPresence.bytes };
    await neighbourLoad.stop();
    neighbourLoad = undefined;
    if (!complete) process.stdout.write(`storm: only ${fmt(subscribedNow)} of ${fmt(CONNECTIONS)} subscribed after ${STORM_LIMIT_MS / 1000} s\n`);

    // ---- memory and occupancy, with everyone subscribed
    const after = await gatewayMemory(gateway, inspector, SETTLE_MS);
    const truth = { connections: subscribedNow + 1, users: subscribedNow + 1 };
    let occupancyRoute: Occupancy | string;
    {
      const res = await control.request({
        method: 'GET',
        path: `/v1/channels/${CHANNEL}/occupancy`,
        headers: { authorization: `Bearer ${large.secretKey}` },
      });
      const text = await res.body.text();
      if (res.statusCode === 200) {
        const body = JSON.parse(text) as Occupancy;
        occupancyRoute = { connections: body.connections, users: body.users };
      } else occupancyRoute = `n/a (HTTP ${res.statusCode})`;
    }
    // at most one frame a second, on change: wait for the one after the last arrival
    const frameDeadline = Date.now() + 3_000;
    while (watcher.frames() > 0 && watcher.last()?.connections !== truth.connections && Date.now() < frameDeadline) await sleep(100);
    const occupancyFrame = watcher.last() ?? `n/a (${watcher.note || 'no occupancy frame'})`;

    // ---- the fan-out: frames are matched to their publish by the content's n (a frame may
    // arrive before the publish's 201), and checked by seq
    const sentAt = new Map<number, number>();
    const reached = new Map<number, { n: number; lastAt: number }>();
    const every = histogram();
    let deliveries = 0;
    let lastDelivery: () => void = () => {};
    const expected = subs.filter((s) => s.state === 'subscribed').length * MESSAGES;
    onDelivery = (sub, seq, n, at) => {
      sub.seqs.push(seq);
      const t0 = n === undefined ? undefined : sentAt.get(n);
      if (t0 === undefined) return;
      deliveries++;
      every.recordValue(Math.max(1, Math.round((at - t0) * 1000)));
      const r = reached.get(n!) ?? { n: 0, lastAt: 0 };
      r.n++;
      r.lastAt = Math.max(r.lastAt, at);
      reached.set(n!, r);
      if (deliveries === expected) lastDelivery();
    };
    const delivered = new Promise<void>((resolve) => (lastDelivery = resolve));
    const published: number[] = [];
    const publishFailures = new Map<string, number>();
    const answers: Promise<void>[] = [];
    const fanoutLag = monitorEventLoopDelay({ resolution: 10 });
    fanoutLag.enable();
    const fanoutCpuBefore = cpuSnapshot(gateway, node, nats);
    const fanoutStart = performance.now();
    for (let n = 0; n < MESSAGES; n++) {
      const due = fanoutStart + (n * 1000) / RATE;
      await sleep(Math.max(0, due - performance.now()));
      sentAt.set(n, performance.now());
      answers.push(
        publish(large.secretKey, CHANNEL, { n, text: 'large channel benchmark message' })
          .then(({ status, seq }) => {
            if (status === 201 && seq !== undefined) published.push(seq);
            else publishFailures.set(`HTTP ${status}`, (publishFailures.get(`HTTP ${status}`) ?? 0) + 1);
          })
          .catch((error: Error) => void publishFailures.set(error.message, (publishFailures.get(error.message) ?? 0) + 1)),
      );
    }
    await Promise.all(answers);
    await Promise.race([delivered, sleep(DELIVERY_LIMIT_MS)]);
    const fanoutMs = performance.now() - fanoutStart;
    const fanoutCpuAfter = cpuSnapshot(gateway, node, nats);
    fanoutLag.disable();
    await sleep(500); // duplicates, if any, arrive now
    onDelivery = undefined;

    // every subscriber: every published seq once, in order
    const wanted = [...published].sort((a, b) => a - b);
    const wantedSet = new Set(wanted);
    const violations = { missing: 0, duplicates: 0, outOfOrder: 0, subscribersAffected: 0 };
    for (const sub of subs) {
      if (sub.state !== 'subscribed') continue;
      const got = sub.seqs.filter((seq) => wantedSet.has(seq));
      const unique = new Set(got);
      const missing = wanted.length - unique.size;
      const duplicates = got.length - unique.size;
      let outOfOrder = 0;
      for (let i = 1; i < got.length; i++) if (got[i]! <= got[i - 1]!) outOfOrder++;
      violations.missing += missing;
      violations.duplicates += duplicates;
      violations.outOfOrder += outOfOrder;
      if (missing + duplicates + outOfOrder > 0) violations.subscribersAffected++;
    }
    const lastSub = histogram();
    for (const [n, r] of reached) lastSub.recordValue(Math.max(1, Math.round((r.lastAt - sentAt.get(n)!) * 1000)));

    // ---- report
    const stormS = stormMs / 1000;
    const pct = (measured: number, real: number) => `${((measured / real) * 100).toFixed(1)} %`;
    const occ = (value: Occupancy | string) =>
      typeof value === 'string'
        ? value
        : `${fmt(value.connections)} connections (${pct(value.connections, truth.connections)}), ${fmt(value.users)} users (${pct(value.users, truth.users)})`;
    const codes = (map: Map<string, number>) => (map.size === 0 ? 'none' : [...map].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} × ${fmt(v)}`).join(', '));
    const lines: [string, string][] = [
      ['connections (users), subscribed at the end', `${fmt(subscribedNow)} of ${fmt(CONNECTIONS)}`],
      ['storm: first open → all subscribed', complete ? `${stormS.toFixed(1)} s (${fmt(CONNECTIONS / stormS)} subscribed/s)` : `not reached in ${STORM_LIMIT_MS / 1000} s`],
      ['storm: closes and errors (by code)', codes(stormOutcomes)],
      ['storm: presence frames to subscribers', `${fmt(stormPresence.frames)} (${(stormPresence.frames / CONNECTIONS).toFixed(1)} × n), ${fmt(stormPresence.bytes / 1e6)} MB`],
      ['presence frames in the second after', `${fmt(settlePresence.frames)}, ${fmt(settlePresence.bytes / 1e6)} MB`],
      ['gateway RSS per connection (1 subscription)', `${fmt((after.rss - before.rss) / CONNECTIONS)} B (RSS ${fmt(before.rss / 1e6)} → ${fmt(after.rss / 1e6)} MB)`],
      ['gateway heap per connection', `${fmt((after.heap - before.heap) / CONNECTIONS)} B (heap ${fmt(before.heap / 1e6)} → ${fmt(after.heap / 1e6)} MB)`],
      [`occupancy route (truth ${fmt(truth.connections)} / ${fmt(truth.users)}, observer included)`, occ(occupancyRoute)],
      ['occupancy frames: observer\'s last', typeof occupancyFrame === 'string' ? occupancyFrame : `${occ(occupancyFrame)}; ${watcher.frames()} frames`],
      [
        `fan-out: ${MESSAGES} publishes at ${RATE}/s, publish → last subscriber p50 / p99`,
        `${ms(lastSub.getValueAtPercentile(50) / 1000)} / ${ms(lastSub.getValueAtPercentile(99) / 1000)} ms (every delivery ${ms(every.getValueAtPercentile(50) / 1000)} / ${ms(every.getValueAtPercentile(99) / 1000)} ms)`,
      ],
      [
        'fan-out: delivered (once each, in seq order)',
        `${fmt(deliveries)} of ${fmt(expected)}; missing ${fmt(violations.missing)}, duplicates ${fmt(violations.duplicates)}, out of order ${fmt(violations.outOfOrder)} ` +
          `(${fmt(violations.subscribersAffected)} subscribers affected); publish failures: ${codes(publishFailures)}`,
      ],
      ['fan-out: closes and errors after the storm', codes(new Map([...outcomes].map(([k, v]) => [k, v - (stormOutcomes.get(k) ?? 0)] as [string, number]).filter(([, v]) => v > 0)))],
      [`neighbour publish p50 / p99, alone (${alone.ok} ok)`, `${ms(alone.p50)} / ${ms(alone.p99)} ms; failures: ${codes(alone.failed)}`],
      [`neighbour publish p50 / p99, during the storm (${during.ok} ok)`, `${ms(during.p50)} / ${ms(during.p99)} ms; failures: ${codes(during.failed)}`],
      ['neighbour p99 during / alone', (during.p99 / Math.max(0.001, alone.p99)).toFixed(2)],
    ];
    // the histogram holds the time between the monitor's timer turns (10 ms), not only the delay
    const late = (ns: number) => Math.max(0, ns / 1e6 - 10);
    const busyS = (cpuAfter['machine (every process)']! - cpuBefore['machine (every process)']!) / 1e6;
    for (const [name, value] of Object.entries(cpuAfter)) {
      const used = value - cpuBefore[name]!;
      lines.push([
        `storm CPU: ${name}`,
        `${fmt(used / 1e3)} ms CPU, ${((used / 1e6 / stormS) * 100).toFixed(0)} % of a core, ${fmt(used / CONNECTIONS)} µs per connection` +
          (name.startsWith('machine') ? ` (${((busyS / stormS / 2) * 100).toFixed(0)} % of 2 cores)` : ''),
      ]);
    }
    lines.push([
      'load generator event-loop delay during the storm (beyond its 10 ms timer)',
      `p50 ${ms(late(lag.percentile(50)))} / p99 ${ms(late(lag.percentile(99)))} / max ${ms(late(lag.max))} ms`,
    ]);
    const fanoutS = fanoutMs / 1000;
    for (const name of ['gateway', 'load generator (this process)', 'machine (every process)']) {
      const used = fanoutCpuAfter[name]! - fanoutCpuBefore[name]!;
      lines.push([`fan-out CPU (${fanoutS.toFixed(1)} s): ${name}`, `${((used / 1e6 / fanoutS) * 100).toFixed(0)} % of a core, ${fmt(used / Math.max(1, deliveries))} µs per delivery`]);
    }
    lines.push([
      'load generator event-loop delay during the fan-out (beyond its 10 ms timer)',
      `p50 ${ms(late(fanoutLag.percentile(50)))} / p99 ${ms(late(fanoutLag.percentile(99)))} / max ${ms(late(fanoutLag.max))} ms`,
    ]);
    process.stdout.write(`\n| measure | value |\n|---|---|\n${lines.map(([k, v]) => `| ${k} | ${v} |`).join('\n')}\n`);

    const ratio = during.p99 / Math.max(0.001, alone.p99);
    reportGoal({
      path: `neighbour publish p99, ${fmt(CONNECTIONS)} subscribers storming one channel`,
      goal: '≤ 3× alone (p99)',
      measured: `${ms(during.p99)} ms`,
      baseline: `alone ${ms(alone.p99)} ms`,
      ratio,
      met: ratio <= 3 && during.failed.size === 0,
    });
    const bad = violations.missing + violations.duplicates + violations.outOfOrder;
    reportGoal({
      path: `every subscriber gets every message once in order, ${fmt(CONNECTIONS)} subscribers`,
      goal: '0 violations',
      measured: `${fmt(bad)} violations`,
      baseline: '',
      ratio: bad,
      met: bad === 0 && complete && deliveries === expected,
    });
    process.stdout.write(`run took ${((Date.now() - began) / 1000).toFixed(0)} s\n`);
  } finally {
    stopping = true;
    onDelivery = undefined;
    await neighbourLoad?.stop();
    for (const sub of subs) sub.close();
    watcher?.ws.terminate();
    inspector?.close();
    await Promise.all(processes.map((p) => (process.env.BENCH_CPU_PROF_DIR ? p.stop() : p.kill())));
    for (const cleanup of cleanups.reverse()) await cleanup();
    await dropNatsPrefix(prefix);
  }
}

/** The JetStream streams (KV buckets: presence, limits, socket quotas) the processes made under the prefix. */
async function dropNatsPrefix(prefix: string): Promise<void> {
  const nc = await natsConnect({ servers: NATS_URL, name: 'bench-large-cleanup' });
  try {
    const jsm = await nc.jetstreamManager();
    const names: string[] = [];
    for await (const stream of jsm.streams.list()) if (stream.config.name.startsWith(`KV_${prefix}_`)) names.push(stream.config.name);
    for (const name of names) await jsm.streams.delete(name);
  } finally {
    await nc.close();
  }
}

await main();
process.exit(0);
