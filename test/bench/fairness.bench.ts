/**
 * `npm run bench -- fairness`: what one tenant's flood does to another tenant, as ratios measured
 * in the same run on the same cluster.
 *
 *   publish    environment B publishes at a steady, modest rate (QUIET_CLIENTS sequential
 *              clients over 100 channels) alone, then again while environment A floods
 *              (FLOOD_CLIENTS concurrent clients over 1,000 channels as fast as the cluster
 *              answers). Ratio: B's p99 with the flood / B's p99 alone (goal ≤ 2).
 *   webhooks   B's publish → webhook-arrival latency alone, then while A publishes to
 *              webhook endpoints that never answer (a server that accepts and stays silent)
 *              and that never resolve (a name server that never replies). Ratio as above.
 *   storm      B subscribes (one `/v1/connect` connection, subscribe → `subscribed` → unsubscribe,
 *              one at a time with a pause) and publishes at a modest rate, alone, then while A
 *              keeps STORM_SUBSCRIBES (2,000) subscribes in flight over STORM_CONNECTIONS
 *              connections, each answered one unsubscribed and replaced by a subscribe to
 *              another of 2,000 channels at once. Ratios: B's subscribe p99 and publish p99 during
 *              / alone (goal ≤ 3).
 *   slow       B's publish p99 and publish → frame p99 (B's own reading socket) alone, then while
 *              A holds SLOW_SOCKETS (2,000) sockets subscribed to one channel that never read,
 *              and A's backend publishes SLOW_RATE (20) messages of SLOW_BYTES (1,000) a second
 *              to that channel.
 *              Ratios during / alone (goal ≤ 3).
 *   BENCH_FAIRNESS_CASES=storm,slow runs only some of them (default: all); BENCH_CPU_PROF_DIR=<dir>
 *   makes the gateway write a CPU profile there.
 *
 * Gateway and channel-node as in `npm run bench -- publish` (one each), one dispatcher. The load
 * generator runs on the same machine, so the flood also takes CPU from B's own client.
 */
import { createServer, type Server } from 'node:http';
import { createSocket } from 'node:dgram';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Pool as HttpPool } from 'undici';
import * as hdr from 'hdr-histogram-js';
import { createEnvironment } from '@rtm/auth';
import { deployLimits } from '@rtm/limits';
import WebSocket from 'ws';
import { createTestDatabase } from '../helpers/database.ts';
import { mintToken } from '../helpers/http.ts';
import { startProcess, waitReady, type RunningProcess } from '../helpers/cluster.ts';
import { reportGoal } from './report.ts';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 8_000);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 2_000);
const QUIET_CLIENTS = Number(process.env.BENCH_QUIET_CLIENTS ?? 4);
const QUIET_PAUSE_MS = Number(process.env.BENCH_QUIET_PAUSE_MS ?? 20);
const FLOOD_CLIENTS = Number(process.env.BENCH_FLOOD_CLIENTS ?? 50);
const STORM_SUBSCRIBES = Number(process.env.BENCH_STORM_SUBSCRIBES ?? 2_000);
const STORM_CONNECTIONS = Number(process.env.BENCH_STORM_CONNECTIONS ?? 10);
const SLOW_SOCKETS = Number(process.env.BENCH_SLOW_SOCKETS ?? 2_000);
const SLOW_RATE = Number(process.env.BENCH_SLOW_RATE ?? 20);
const SLOW_BYTES = Number(process.env.BENCH_SLOW_BYTES ?? 1_000);
const CASES = new Set((process.env.BENCH_FAIRNESS_CASES ?? 'publish,webhooks,storm,slow').split(','));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Figures {
  n: number;
  errors: number;
  perSecond: number;
  p50: number;
  p99: number;
}

function histogram() {
  return hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: 3 });
}

/** Publishes from `clients` loops until `stop()`; latency recorded while `measuring`. */
function publisher(url: string, secretKey: string, clients: number, channelOf: () => string, pauseMs: number) {
  const http = new HttpPool(url, { connections: clients });
  const h = histogram();
  let ok = 0;
  let errors = 0;
  let measuring = false;
  let stopped = false;
  let startedAt = 0;
  const body = JSON.stringify({ content: { text: 'fairness benchmark message', n: 1 } });
  const loops = Array.from({ length: clients }, async () => {
    while (!stopped) {
      const t0 = process.hrtime.bigint();
      try {
        const res = await http.request({
          method: 'POST',
          path: `/v1/channels/${channelOf()}/messages`,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${secretKey}` },
          body,
        });
        await res.body.text();
        if (measuring) {
          if (res.statusCode === 201) {
            ok++;
            h.recordValue(Number(process.hrtime.bigint() - t0) / 1000);
          } else errors++;
        }
      } catch {
        if (measuring) errors++;
      }
      if (pauseMs > 0) await sleep(pauseMs);
    }
  });
  return {
    measure() {
      measuring = true;
      startedAt = Date.now();
    },
    async stop(): Promise<Figures> {
      measuring = false;
      const elapsed = (Date.now() - startedAt) / 1000;
      stopped = true;
      await Promise.all(loops);
      await http.close();
      return { n: ok, errors, perSecond: Math.round(ok / elapsed), p50: h.getValueAtPercentile(50) / 1000, p99: h.getValueAtPercentile(99) / 1000 };
    },
  };
}

function line(name: string, f: Figures): void {
  process.stdout.write(
    `${name.padEnd(52)} ${String(f.perSecond).padStart(6)} msg/s   p50 ${f.p50.toFixed(1).padStart(7)} ms   p99 ${f.p99.toFixed(1).padStart(7)} ms   errors ${f.errors}\n`,
  );
}

async function quietPhase(name: string, gateway: RunningProcess, secretKey: string): Promise<Figures> {
  const quiet = publisher(gateway.controlUrl, secretKey, QUIET_CLIENTS, () => `quiet-${Math.floor(Math.random() * 100)}`, QUIET_PAUSE_MS);
  await sleep(WARMUP_MS);
  quiet.measure();
  await sleep(DURATION_MS);
  const figures = await quiet.stop();
  line(name, figures);
  return figures;
}

/** A webhook receiver that records arrival times of event ids. */
async function receiver(): Promise<{ url: string; server: Server; arrived: Map<string, number> }> {
  const arrived = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { id?: string } };
        if (event.data?.id && !arrived.has(event.data.id)) arrived.set(event.data.id, Date.now());
      } catch {
        // not ours
      }
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  return { url: `http://localhost:${port}/hook`, server, arrived };
}

/** B publishes at `rate`/s for the duration; returns publish → webhook arrival latencies. */
async function webhookLatency(name: string, gateway: RunningProcess, secretKey: string, arrived: Map<string, number>, rate: number): Promise<Figures> {
  const http = new HttpPool(gateway.controlUrl, { connections: 4 });
  const sent = new Map<string, number>();
  /** When each publish was answered 201: arrival − answer is the webhook's own part. */
  const answered = new Map<string, number>();
  let errors = 0;
  const end = Date.now() + DURATION_MS;
  const inflight: Promise<void>[] = [];
  while (Date.now() < end) {
    const t0 = Date.now();
    inflight.push(
      http
        .request({
          method: 'POST',
          path: `/v1/channels/hooked-${Math.floor(Math.random() * 20)}/messages`,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${secretKey}` },
          body: JSON.stringify({ content: { t: t0 } }),
        })
        .then(async (res) => {
          const body = (await res.body.json()) as { id?: string };
          if (res.statusCode === 201 && body.id) {
            sent.set(body.id, t0);
            answered.set(body.id, Date.now());
          }
          else errors++;
        })
        .catch(() => void errors++),
    );
    await sleep(1000 / rate);
  }
  await Promise.all(inflight);
  const deadline = Date.now() + 30_000;
  while ([...sent.keys()].some((id) => !arrived.has(id)) && Date.now() < deadline) await sleep(100);
  await http.close();
  const h = histogram();
  const publish = histogram();
  const after = histogram();
  let missing = 0;
  for (const [id, t0] of sent) {
    const at = arrived.get(id);
    if (at === undefined) missing++;
    else {
      h.recordValue(Math.max(1, (at - t0) * 1000));
      publish.recordValue(Math.max(1, (answered.get(id)! - t0) * 1000));
      after.recordValue(Math.max(1, (at - answered.get(id)!) * 1000));
    }
  }
  const figures = { n: sent.size - missing, errors: errors + missing, perSecond: rate, p50: h.getValueAtPercentile(50) / 1000, p99: h.getValueAtPercentile(99) / 1000 };
  line(name, figures);
  // where the tail is: the publish itself (gateway, channel-node, commit) or the webhook's part
  // after the answer (notice, claim, send); arrival may precede the answer by a little
  process.stdout.write(
    `  of which publish → 201 p50 / p99 ${publish.getValueAtPercentile(50) / 1000} / ${publish.getValueAtPercentile(99) / 1000} ms; ` +
      `201 → webhook p50 / p99 ${after.getValueAtPercentile(50) / 1000} / ${after.getValueAtPercentile(99) / 1000} ms\n`,
  );
  return figures;
}

/** A `/v1/connect` connection, resolved once `connected`; frames go to `onFrame`. */
function connectSocket(realtimeUrl: string, token: string, onFrame: (frame: Record<string, unknown>) => void): Promise<WebSocket> {
  const ws = new WebSocket(`${realtimeUrl.replace(/^http/, 'ws')}/v1/connect?token=${token}`);
  return new Promise((resolve, reject) => {
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Record<string, unknown>;
      if (frame.op === 'connected') resolve(ws);
      else onFrame(frame);
    });
    ws.once('error', reject);
    ws.once('close', (code) => reject(new Error(`closed ${code} before connected`)));
  });
}

/** A channel socket, resolved once `ready`; later frames go to `onFrame`. */
function channelSocket(realtimeUrl: string, channelId: string, token: string, onFrame: (frame: Record<string, unknown>) => void = () => {}): Promise<WebSocket> {
  const ws = new WebSocket(`${realtimeUrl.replace(/^http/, 'ws')}/v1/channels/${channelId}?token=${token}`);
  return new Promise((resolve, reject) => {
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Record<string, unknown>;
      if (frame.op === 'ready') resolve(ws);
      else onFrame(frame);
    });
    ws.once('error', reject);
    ws.once('close', (code) => reject(new Error(`closed ${code} before ready`)));
  });
}

function figuresOf(h: ReturnType<typeof histogram>, n: number, errors: number, seconds: number): Figures {
  return { n, errors, perSecond: Math.round(n / seconds), p50: h.getValueAtPercentile(50) / 1000, p99: h.getValueAtPercentile(99) / 1000 };
}

/** B subscribes and unsubscribes one channel at a time (pausing between), timing subscribe → `subscribed`. */
async function subscriber(realtimeUrl: string, token: string) {
  const h = histogram();
  let n = 0;
  let errors = 0;
  let waiting: ((frame: Record<string, unknown>) => void) | undefined;
  const ws = await connectSocket(realtimeUrl, token, (frame) => {
    if (frame.ref !== undefined && (frame.op === 'subscribed' || frame.op === 'error')) waiting?.(frame);
  });
  let measuring = false;
  let stopped = false;
  let startedAt = 0;
  const loop = (async () => {
    for (let i = 0; !stopped; i++) {
      const channelId = `b-sub-${i % 50}`;
      const t0 = process.hrtime.bigint();
      const answer = await new Promise<Record<string, unknown>>((resolve) => {
        waiting = resolve;
        ws.send(JSON.stringify({ op: 'subscribe', ref: i, channelId }));
      });
      if (measuring) {
        if (answer.op === 'subscribed') {
          n++;
          h.recordValue(Number(process.hrtime.bigint() - t0) / 1000);
        } else errors++;
      }
      ws.send(JSON.stringify({ op: 'unsubscribe', ref: `u${i}`, channelId }));
      await sleep(QUIET_PAUSE_MS * 2);
    }
  })();
  return {
    measure() {
      measuring = true;
      startedAt = Date.now();
    },
    async stop(): Promise<Figures> {
      measuring = false;
      const seconds = (Date.now() - startedAt) / 1000;
      stopped = true;
      await loop;
      ws.close();
      return figuresOf(h, n, errors, seconds);
    },
  };
}

/**
 * A's storm: `connections` connections keep `inFlight` subscribes outstanding between them; each
 * answer is followed at once by an unsubscribe and a subscribe to another channel.
 */
async function subscribeStorm(realtimeUrl: string, tokens: string[], inFlight: number) {
  let stopped = false;
  let answered = 0;
  let refused = 0;
  const perConnection = Math.ceil(inFlight / tokens.length);
  const sockets: WebSocket[] = [];
  const run = async (k: number): Promise<void> => {
    const generation = new Map<number, number>();
    const channelOf = (slot: number) => `s${k}-${slot}-${(generation.get(slot) ?? 0) % 4}`;
    let ws: WebSocket | undefined;
    ws = await connectSocket(realtimeUrl, tokens[k]!, (frame) => {
      if (stopped || (frame.op !== 'subscribed' && frame.op !== 'error') || typeof frame.ref !== 'number') return;
      if (frame.op === 'subscribed') answered++;
      else refused++;
      const slot = frame.ref % perConnection;
      ws!.send(JSON.stringify({ op: 'unsubscribe', ref: `u${frame.ref}`, channelId: channelOf(slot) }));
      generation.set(slot, (generation.get(slot) ?? 0) + 1);
      ws!.send(JSON.stringify({ op: 'subscribe', ref: frame.ref + perConnection, channelId: channelOf(slot) }));
    });
    sockets.push(ws);
    ws.once('close', () => {
      if (!stopped) setTimeout(() => void run(k).catch(() => {}), 100);
    });
    for (let slot = 0; slot < perConnection; slot++) ws.send(JSON.stringify({ op: 'subscribe', ref: slot, channelId: channelOf(slot) }));
  };
  await Promise.all(tokens.map((_, k) => run(k)));
  return {
    async stop() {
      stopped = true;
      for (const ws of sockets) ws.close();
      return { answered, refused };
    },
  };
}

/** B publishes to its own channel and reads it on a channel socket: publish → frame latency. */
async function publishToFrame(gateway: RunningProcess, secretKey: string, token: string, channelId: string) {
  const sent = new Map<number, bigint>();
  const frame = histogram();
  let frames = 0;
  const ws = await channelSocket(gateway.realtimeUrl, channelId, token, (f) => {
    const n = (f.content as { n?: unknown } | undefined)?.n;
    if (typeof n !== 'number') return;
    const t0 = sent.get(n);
    if (t0 === undefined) return;
    sent.delete(n);
    frames++;
    frame.recordValue(Number(process.hrtime.bigint() - t0) / 1000);
  });
  const http = new HttpPool(gateway.controlUrl, { connections: 2 });
  const publish = histogram();
  let published = 0;
  let errors = 0;
  let stopped = false;
  let measuring = false;
  let startedAt = 0;
  const loop = (async () => {
    for (let n = 1; !stopped; n++) {
      const t0 = process.hrtime.bigint();
      if (measuring) sent.set(n, t0);
      try {
        const res = await http.request({
          method: 'POST',
          path: `/v1/channels/${channelId}/messages`,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${secretKey}` },
          body: JSON.stringify({ content: { n } }),
        });
        await res.body.text();
        if (measuring) {
          if (res.statusCode === 201) {
            published++;
            publish.recordValue(Number(process.hrtime.bigint() - t0) / 1000);
          } else errors++;
        }
      } catch {
        if (measuring) errors++;
      }
      await sleep(QUIET_PAUSE_MS * 2);
    }
  })();
  return {
    measure() {
      measuring = true;
      startedAt = Date.now();
    },
    async stop(): Promise<{ publish: Figures; frame: Figures }> {
      const seconds = (Date.now() - startedAt) / 1000;
      measuring = false;
      stopped = true;
      await loop;
      const deadline = Date.now() + 10_000;
      while (sent.size > 0 && Date.now() < deadline) await sleep(50);
      ws.close();
      await http.close();
      return { publish: figuresOf(publish, published, errors, seconds), frame: figuresOf(frame, frames, sent.size, seconds) };
    },
  };
}

function goal(path: string, during: Figures, alone: Figures, limit = 3): number {
  const ratio = during.p99 / Math.max(0.001, alone.p99);
  reportGoal({
    path,
    goal: `≤ ${limit}× alone (p99)`,
    measured: `${during.p99.toFixed(1)} ms`,
    baseline: `alone ${alone.p99.toFixed(1)} ms`,
    ratio,
    met: ratio <= limit,
  });
  return ratio;
}

/** B subscribes and publishes alone, then while A's storm runs. */
async function stormCase(gateway: RunningProcess, a: { secretKey: string }, b: { secretKey: string }): Promise<void> {
  const bToken = await mintToken(gateway.controlUrl, b.secretKey, 'b-subscriber');
  const phase = async (name: string) => {
    const subscribes = await subscriber(gateway.realtimeUrl, bToken);
    const publishes = publisher(gateway.controlUrl, b.secretKey, 2, () => `b-pub-${Math.floor(Math.random() * 20)}`, QUIET_PAUSE_MS * 2);
    await sleep(WARMUP_MS);
    subscribes.measure();
    publishes.measure();
    await sleep(DURATION_MS);
    const sub = await subscribes.stop();
    const pub = await publishes.stop();
    line(`B subscribes ${name}`, sub);
    line(`B publishes ${name}`, pub);
    return { sub, pub };
  };
  const alone = await phase('alone');
  const aTokens = await Promise.all(Array.from({ length: STORM_CONNECTIONS }, (_, k) => mintToken(gateway.controlUrl, a.secretKey, `storm-${k}`)));
  const storm = await subscribeStorm(gateway.realtimeUrl, aTokens, STORM_SUBSCRIBES);
  const during = await phase(`during A's storm (${STORM_SUBSCRIBES} subscribes in flight)`);
  const { answered, refused } = await storm.stop();
  process.stdout.write(`  (A's storm: ${answered} subscribes answered, ${refused} refused over the period)\n`);
  const sub = goal(`neighbour subscribe p99, ${STORM_SUBSCRIBES} subscribes storming`, during.sub, alone.sub);
  const pub = goal(`neighbour publish p99, ${STORM_SUBSCRIBES} subscribes storming`, during.pub, alone.pub);
  process.stdout.write(`ratios: B subscribe p99 during / alone = ${sub.toFixed(2)}, B publish p99 during / alone = ${pub.toFixed(2)} (goal ≤ 3)\n\n`);
}

/** B publishes and reads alone, then while A holds SLOW_SOCKETS non-reading sockets on a busy channel. */
async function slowCase(gateway: RunningProcess, a: { secretKey: string }, b: { secretKey: string }): Promise<void> {
  const bToken = await mintToken(gateway.controlUrl, b.secretKey, 'b-reader');
  const phase = async (name: string) => {
    const probe = await publishToFrame(gateway, b.secretKey, bToken, 'b-live');
    await sleep(WARMUP_MS);
    probe.measure();
    await sleep(DURATION_MS);
    const figures = await probe.stop();
    line(`B publishes ${name}`, figures.publish);
    line(`B publish → frame ${name}`, figures.frame);
    return figures;
  };
  const alone = await phase('alone');
  // 100 sockets per user (socketsPerUser)
  const users = Math.ceil(SLOW_SOCKETS / 100);
  const tokens = await Promise.all(Array.from({ length: users }, (_, k) => mintToken(gateway.controlUrl, a.secretKey, `slow-${k}`)));
  const held: WebSocket[] = [];
  let closedByServer = 0;
  for (let at = 0; at < SLOW_SOCKETS; at += 200) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(200, SLOW_SOCKETS - at) }, (_, i) => channelSocket(gateway.realtimeUrl, 'hot', tokens[Math.floor((at + i) / 100)]!)),
    );
    for (const ws of batch) {
      ws.pause();
      ws.once('close', () => void closedByServer++);
      held.push(ws);
    }
  }
  const http = new HttpPool(gateway.controlUrl, { connections: 2 });
  const blob = 'x'.repeat(SLOW_BYTES);
  let stopped = false;
  const flow = (async () => {
    while (!stopped) {
      const started = Date.now();
      try {
        const res = await http.request({
          method: 'POST',
          path: '/v1/channels/hot/messages',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${a.secretKey}` },
          body: JSON.stringify({ content: { blob } }),
        });
        await res.body.text();
      } catch {
        // counted nowhere: A's figures are not the point
      }
      await sleep(Math.max(0, 1000 / SLOW_RATE - (Date.now() - started)));
    }
  })();
  const during = await phase(`while A holds ${SLOW_SOCKETS} sockets that do not read (${SLOW_RATE} msg/s of ${SLOW_BYTES} B)`);
  const shedMetric = await (await fetch(`${gateway.internalUrl}/internal/metrics`)).text();
  const shedLine = shedMetric.split('\n').find((l) => l.startsWith('gateway_sockets_shed_total'));
  stopped = true;
  await flow;
  await http.close();
  process.stdout.write(`  (A: ${closedByServer} of ${held.length} non-reading sockets closed by the gateway; ${shedLine ?? 'no shed metric'})\n`);
  for (const ws of held) ws.terminate();
  const pub = goal(`neighbour publish p99, ${SLOW_SOCKETS} sockets not reading`, during.publish, alone.publish);
  const frame = goal(`neighbour publish → frame p99, ${SLOW_SOCKETS} sockets not reading`, during.frame, alone.frame);
  process.stdout.write(`ratios: B publish p99 during / alone = ${pub.toFixed(2)}, B publish → frame p99 during / alone = ${frame.toFixed(2)} (goal ≤ 3)\n\n`);
}

async function main(): Promise<void> {
  const cleanups: (() => Promise<void>)[] = [];
  const processes: RunningProcess[] = [];
  try {
    const db = await createTestDatabase({ after: (fn: () => Promise<void>) => void cleanups.push(fn) });

    // a name server that never answers (A's unresolvable host) and a TCP server that never answers HTTP
    const silentDns = createSocket('udp4');
    await new Promise<void>((resolve) => silentDns.bind(0, '127.0.0.1', () => resolve()));
    cleanups.push(async () => void silentDns.close());
    const held: Socket[] = [];
    const hanging = createTcpServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', () => resolve()));
    cleanups.push(async () => {
      for (const socket of held) socket.destroy();
      hanging.close();
    });
    const sink = await receiver();
    cleanups.push(async () => void sink.server.close());

    const env = {
      DATABASE_URL: db.url,
      NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
      NATS_PREFIX: `fair${randomBytes(4).toString('hex')}`,
      LOG_LEVEL: 'error',
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      DNS_SERVERS: `127.0.0.1:${(silentDns.address() as { port: number }).port}`,
      // tuning under test may be passed through (e.g. WEBHOOK_MAX_IN_FLIGHT_PER_ENVIRONMENT=16)
      // the storm's connections send up to two frames per answered subscribe
      CONNECT_FRAMES_PER_SECOND: '100000',
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => /^(WEBHOOK_|WORKER_|COMMIT_LANES|MAX_BATCH|SOCKET_|SUBSCRIBE_)/.test(k))),
    } as Record<string, string>;
    // BENCH_CPU_PROF_DIR: the gateway writes a V8 CPU profile there when it stops (test/bench/profile-top.ts)
    const profiling: Record<string, string> = process.env.BENCH_CPU_PROF_DIR
      ? { NODE_OPTIONS: `--import ${fileURLToPath(new URL('./cpu-profile-hook.mjs', import.meta.url))}`, RTM_CPU_PROFILE_DIR: process.env.BENCH_CPU_PROF_DIR }
      : {};
    for (const kind of ['gateway', 'channel-node', 'dispatcher'] as const) {
      const proc = await startProcess(kind, kind === 'gateway' ? { ...env, ...profiling } : env);
      processes.push(proc);
      await waitReady(proc);
    }
    const gateway = processes[0]!;
    const a = await createEnvironment(db.pool, { organization: 'bench', project: 'bench', environment: 'flooder' });
    const b = await createEnvironment(db.pool, { organization: 'bench', project: 'bench', environment: 'quiet' });
    // A's slow readers open 100 sockets per user at once: the per-user open rate is not under test here
    await deployLimits(db.pool, a.environmentId, { userSocketOpensPerSecond: 1_000_000 });

    process.stdout.write(
      `fairness: B = ${QUIET_CLIENTS} clients pausing ${QUIET_PAUSE_MS} ms; A = ${FLOOD_CLIENTS} clients flat out; ` +
        `${WARMUP_MS / 1000}s warm-up + ${DURATION_MS / 1000}s per case\n`,
    );
    const ratio = (x: number, y: number) => (x / Math.max(0.001, y)).toFixed(2);
    // ---- publish ---------------------------------------------------------------------------
    if (CASES.has('publish')) {
      const alone = await quietPhase('B publishes alone', gateway, b.secretKey);
      const flood = publisher(gateway.controlUrl, a.secretKey, FLOOD_CLIENTS, () => `flood-${Math.floor(Math.random() * 1000)}`, 0);
      flood.measure();
      const loaded = await quietPhase('B publishes while A floods', gateway, b.secretKey);
      const flooded = await flood.stop();
      line('  (A, the flood, over the same period)', flooded);
      process.stdout.write(`ratio: B publish p99 with flood / alone = ${ratio(loaded.p99, alone.p99)} (goal ≤ 2)\n\n`);
    }

    // ---- subscribe storm and slow readers (before webhooks: those deploy A's hanging endpoint) --
    if (CASES.has('storm')) await stormCase(gateway, a, b);
    if (CASES.has('slow')) await slowCase(gateway, a, b);

    // ---- webhooks ----------------------------------------------------------------------------
    if (!CASES.has('webhooks')) return;
    const deploy = async (secretKey: string, url: string) => {
      const res = await fetch(`${gateway.controlUrl}/v1/config`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${secretKey}` },
        body: JSON.stringify({ webhooks: { url } }),
      });
      if (res.status !== 200) throw new Error(`config deploy ${url}: ${res.status} ${await res.text()}`);
    };
    await deploy(b.secretKey, sink.url);
    const rate = Number(process.env.BENCH_WEBHOOK_RATE ?? 50);
    const hooksAlone = await webhookLatency(`B publish → webhook alone (${rate}/s)`, gateway, b.secretKey, sink.arrived, rate);
    // A: one environment whose endpoint hangs, another whose host never resolves, both publishing
    const a2 = await createEnvironment(db.pool, { organization: 'bench', project: 'bench', environment: 'unresolvable' });
    await deploy(a.secretKey, `http://localhost:${(hanging.address() as { port: number }).port}/hook`);
    await deploy(a2.secretKey, 'https://never-resolves.example.com/hook');
    const hostile = [
      publisher(gateway.controlUrl, a.secretKey, 4, () => `h-${Math.floor(Math.random() * 50)}`, 10),
      publisher(gateway.controlUrl, a2.secretKey, 4, () => `u-${Math.floor(Math.random() * 50)}`, 10),
    ];
    await sleep(WARMUP_MS);
    const hooksLoaded = await webhookLatency(`B publish → webhook, A's endpoints hang (${rate}/s)`, gateway, b.secretKey, sink.arrived, rate);
    for (const p of hostile) await p.stop();

    process.stdout.write(`\nratio: B webhook p99 with hostile endpoints / alone = ${ratio(hooksLoaded.p99, hooksAlone.p99)} (goal ≤ 2)\n`);
  } finally {
    // stopped, not killed, when profiling: the profile is written as the gateway exits
    await Promise.all(processes.map((p) => (process.env.BENCH_CPU_PROF_DIR ? p.stop() : p.kill())));
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

await main();
process.exit(0);
