/**
 * `npm run bench -- connect`: the multiplexed socket `GET /v1/connect` carrying many
 * subscriptions, against a bare `ws` server measured in the same run. Two cases:
 *   1 × 1,000    one connection subscribed to 1,000 channels: each message reaches one subscription;
 *   100 × 100    100 connections of 100 users, each subscribed to the same 100 channels: 10,000
 *                subscriptions, each message reaches 100 of them.
 * For each case and each server: open the connections (20 at a time), subscribe (SUBSCRIBE_WAVE
 * connections at a time, each sending all its subscribes at once, as a reconnecting client does),
 * then publish MESSAGES_PER_CHANNEL messages to every channel (WINDOW NATS requests in flight,
 * round-robin over the channels) and count the deliveries at the clients; throughput =
 * deliveries ÷ (last delivery − first publish); latency (publish sent → frame received) sampled on
 * every SAMPLE_EVERY-th delivery.
 *   bare ws   a child process: `ws`'s WebSocketServer answering `subscribe` with `subscribed` (a
 *             Map of channel → sockets), and per message a NATS request whose body is the frame,
 *             sent as it is to the channel's sockets, then answered (the ceiling of `ws` here);
 *   rtm       a real gateway and channel-node: each message is a server publish sent over NATS
 *             straight to the channel's owner (as the gateway sends it), committed to Postgres,
 *             published on the channel's subject and relayed by the gateway's one feed per
 *             channel, `channelId` spliced in, to every subscription.
 * Memory: the gateway's heap used and RSS (its /internal/metrics, prom-client's default
 * metrics), read after a forced GC (through the inspector the gateway is started with,
 * `--inspect=127.0.0.1:0`, loopback only) once two readings a second apart agree: before the
 * connections, after opening them and after subscribing; so bytes per connection and per
 * subscription. The bare server reports the same from process.memoryUsage() (it runs with
 * --expose-gc). The gateway's warnings are counted by phase and printed at the end.
 * Options (environment): BENCH_CASES (solo,shared), BENCH_SOLO_SUBSCRIPTIONS, BENCH_CONNECTIONS,
 * BENCH_SUBSCRIPTIONS_EACH, BENCH_SOLO_MESSAGES, BENCH_SHARED_MESSAGES, BENCH_WINDOW,
 * BENCH_SUBSCRIBE_WAVE, BENCH_PRESENCE_TTL_MS; diagnostics: BENCH_CPU_PROFILE=1 (CPU profiles of
 * the gateway and of the bare server while each case subscribes and during its fan-out, written
 * to the temp directory, top frames by self time printed), BENCH_HEAP_SAMPLING=1 (the allocation sites of
 * what opening and subscribing retained), BENCH_WATCH_AFTER_CLOSE_MS (heap every 5 s after the
 * connections close).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import * as hdr from 'hdr-histogram-js';
import { connectBus, decodeJson, decodeText, encodeJson, encodeText, partitionOf, subjects, type NatsConnection } from '@rtm/bus';
import { createEnvironment } from '@rtm/auth';
import { encodeCommand, frameRequest, type CommandReply } from '@rtm/schemas';
import { createTestDatabase } from '../helpers/database.ts';
import { mintToken } from '../helpers/http.ts';
import { reportGoal } from './report.ts';
import { startProcess, waitReady, type RunningProcess } from '../helpers/cluster.ts';
import { serverPublish } from '../helpers/commands.ts';
import { Inspector, gatewayMemory, type Memory } from './gateway-memory.ts';

const SOLO_SUBSCRIPTIONS = Number(process.env.BENCH_SOLO_SUBSCRIPTIONS ?? 1_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const SUBSCRIPTIONS_EACH = Number(process.env.BENCH_SUBSCRIPTIONS_EACH ?? 100);
const MESSAGES_PER_CHANNEL_SOLO = Number(process.env.BENCH_SOLO_MESSAGES ?? 5);
const MESSAGES_PER_CHANNEL_SHARED = Number(process.env.BENCH_SHARED_MESSAGES ?? 10);
const WINDOW = Number(process.env.BENCH_WINDOW ?? 32);
/** Connections that subscribe at the same time (all their channels at once); the next wave starts when they are done. */
const SUBSCRIBE_WAVE = Number(process.env.BENCH_SUBSCRIBE_WAVE ?? 10);
/** Which cases run: `solo`, `shared` or both (comma list). */
const CASES = (process.env.BENCH_CASES ?? 'solo,shared').split(',');
const PROFILE = process.env.BENCH_CPU_PROFILE === '1';
/**
 * The gateway rewrites every presence key it holds every third of PRESENCE_TTL_MS. The default is
 * the gateway's own (15 s); a long TTL (e.g. 300000) keeps every refresh round out of the run, to
 * measure the sockets alone.
 */
const PRESENCE_TTL_MS = Number(process.env.BENCH_PRESENCE_TTL_MS ?? 15_000);
const HEAP_SAMPLING = process.env.BENCH_HEAP_SAMPLING === '1';
/** After closing a case's connections, how long to keep reading the server's heap every 5 s. */
const WATCH_AFTER_CLOSE_MS = Number(process.env.BENCH_WATCH_AFTER_CLOSE_MS ?? 0);
const PARTITIONS = 32;
const SAMPLE_EVERY = 20;
/** Before reading the gateway's memory: its asynchronous work on what just happened (presence, kicks) finishes. */
const SETTLE_MS = 1_000;
const RETRY_MS = 250;
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const TEXT = 'multiplexed fan-out benchmark message of a typical chat size';
const SELF = fileURLToPath(import.meta.url);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------- the bare ws server (child)

async function serveBareWs(natsUrl: string, prefix: string): Promise<void> {
  const nc = await connectBus(natsUrl, 'bench-bare-ws');
  const channels = new Map<string, Set<WebSocket>>();
  const server = createServer();
  const wss = new WebSocketServer({ server });
  wss.on('connection', (ws) => {
    const mine = new Set<string>();
    ws.send(JSON.stringify({ op: 'connected' }));
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { op: string; ref: number; channelId: string };
      if (frame.op !== 'subscribe') return;
      let set = channels.get(frame.channelId);
      if (!set) channels.set(frame.channelId, (set = new Set()));
      set.add(ws);
      mine.add(frame.channelId);
      ws.send(JSON.stringify({ op: 'subscribed', ref: frame.ref, channelId: frame.channelId, lastSeq: 0 }));
    });
    ws.on('close', () => {
      for (const channelId of mine) {
        const set = channels.get(channelId);
        set?.delete(ws);
        if (set?.size === 0) channels.delete(channelId);
      }
    });
  });
  const start = prefix.length + 4; // `${prefix}.ch.`
  nc.subscribe(`${prefix}.ch.>`, {
    callback: (error, msg) => {
      if (error) return;
      const text = decodeText(msg.data);
      const set = channels.get(msg.subject.slice(start));
      if (set) for (const ws of set) ws.send(text);
      msg.respond();
    },
  });
  nc.subscribe(`${prefix}.memory`, {
    callback: (error, msg) => {
      if (error) return;
      (globalThis as { gc?: () => void }).gc?.();
      const usage = process.memoryUsage();
      msg.respond(encodeJson({ heap: usage.heapUsed, rss: usage.rss }));
    },
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(`${JSON.stringify({ msg: 'listening', port: typeof address === 'object' && address ? address.port : 0 })}\n`);
  });
}

async function startBareWs(prefix: string): Promise<{ url: string; child: ChildProcess; inspector?: Inspector }> {
  const flags = PROFILE ? ['--expose-gc', '--inspect=127.0.0.1:0'] : ['--expose-gc'];
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', SELF, '--serve', NATS_URL, prefix], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const errors: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => {
    errors.push(line);
    if (!line.includes('Debugger') && !line.includes('inspector') && !line.includes('nodedir')) process.stderr.write(`bare ws: ${line}\n`);
  });
  const port = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (line.startsWith('{"msg":"listening"')) resolve((JSON.parse(line) as { port: number }).port);
    });
    child.once('exit', (code) => reject(new Error(`bare ws exited ${code}`)));
  });
  return { url: `ws://127.0.0.1:${port}/`, child, inspector: PROFILE ? await Inspector.of('bare ws', errors) : undefined };
}

async function bareMemory(nc: NatsConnection, prefix: string): Promise<Memory> {
  return decodeJson<Memory>((await nc.request(`${prefix}.memory`, new Uint8Array(), { timeout: 10_000 })).data);
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface SamplingNode {
  callFrame: ProfileNode['callFrame'];
  selfSize: number;
  children: SamplingNode[];
}

const shortUrl = (url: string) =>
  url
    .replace(/^file:\/\//, '')
    .replace(fileURLToPath(new URL('../../', import.meta.url)), '')
    .replace(/^.*node_modules\//, '');

/** The allocation sites (function and its caller) holding the most of a sampled heap profile. */
function summariseHeap(head: SamplingNode): string {
  const sites = new Map<string, number>();
  let total = 0;
  const frame = (f: ProfileNode['callFrame']) => `${f.functionName || '(anonymous)'}${f.url ? ` ${shortUrl(f.url)}:${f.lineNumber + 1}` : ''}`;
  const walk = (node: SamplingNode, parent: SamplingNode | undefined) => {
    if (node.selfSize > 0) {
      const key = `${frame(node.callFrame)}${parent ? ` ← ${frame(parent.callFrame)}` : ''}`;
      sites.set(key, (sites.get(key) ?? 0) + node.selfSize);
      total += node.selfSize;
    }
    for (const child of node.children) walk(child, node);
  };
  walk(head, undefined);
  const top = [...sites.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 15)
    .map(([key, bytes]) => `    ${fmt(bytes).padStart(12)} B  ${key}`)
    .join('\n');
  return `  ${fmt(total)} B sampled in all\n${top}\n`;
}

/** The top frames of a CPU profile by self time, and the top files. */
function summarise(profile: { nodes: ProfileNode[]; samples: number[] }, file: string): string {
  const short = shortUrl;
  const total = profile.samples.length || 1;
  const frames = new Map<string, number>();
  const files = new Map<string, number>();
  for (const node of profile.nodes) {
    if (!node.hitCount) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = url ? ` ${short(url)}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'}${where}`;
    frames.set(key, (frames.get(key) ?? 0) + node.hitCount);
    const fileKey = url ? short(url) : functionName.startsWith('(') ? functionName : '(native)';
    files.set(fileKey, (files.get(fileKey) ?? 0) + node.hitCount);
  }
  const top = (map: Map<string, number>, n: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([key, hits]) => `    ${((hits / total) * 100).toFixed(1).padStart(5)} %  ${key}`)
      .join('\n');
  return `  cpu profile ${file} (${total} samples)\n  top frames by self time:\n${top(frames, 20)}\n  by file:\n${top(files, 12)}\n`;
}

/** CPU profiles of one process through its inspector, when BENCH_CPU_PROFILE=1. */
function profiler(inspector: Inspector | undefined, who: string): Server['profile'] {
  if (!PROFILE || !inspector) return undefined;
  return {
    start: async () => {
      await inspector.send('Profiler.enable');
      await inspector.send('Profiler.start');
    },
    stop: async (label) => {
      const { profile } = await inspector.send<{ profile: { nodes: ProfileNode[]; samples: number[] } }>('Profiler.stop');
      await inspector.send('Profiler.disable');
      const file = join(tmpdir(), `connect-${who}-${label.replace(/\W+/g, '')}-${process.pid}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      return summarise(profile, file);
    },
  };
}

// ---------------------------------------------------------------- clients

/** Deliveries counted across every client of one run. */
class Tally {
  deliveries = 0;
  lastAt = 0;
  expected = 0;
  readonly histogram = hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: 3 });
  private done: (() => void) | undefined;

  /** Resolves once `expected` deliveries have been counted, or after `limitMs`. */
  until(expected: number, limitMs: number): Promise<void> {
    this.expected = expected;
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, limitMs);
      this.done = () => {
        clearTimeout(timer);
        resolve();
      };
      if (this.deliveries >= expected) this.done();
    });
  }

  count(text: string): void {
    this.deliveries++;
    this.lastAt = Date.now();
    if (this.deliveries % SAMPLE_EVERY === 0) {
      const sentAt = (JSON.parse(text) as { content: { sentAt: number } }).content.sentAt;
      this.histogram.recordValue(Math.max(1, (Date.now() - sentAt) * 1000));
    }
    if (this.deliveries === this.expected) this.done?.();
  }
}

/** One multiplexed connection: `connected`, then subscribes; message frames are counted in the tally. */
class Client {
  readonly ws: WebSocket;
  readonly opened: Promise<void>;
  private subscribed = 0;
  private wanted = 0;
  private onSubscribed: (() => void) | undefined;
  private ref = 0;
  refused = 0;
  /** `presence` frames received: each carries the arrivals of up to 250 ms in one channel, to its other subscribers. */
  presence = 0;
  /** Subscriptions the server ended after they were all open. */
  readonly problems: string[] = [];
  private failed: ((error: Error) => void) | undefined;
  closedWith: number | undefined;

  constructor(url: string, tally: { current: Tally | undefined }) {
    this.ws = new WebSocket(url, { perMessageDeflate: false });
    this.opened = new Promise<void>((resolve, reject) => {
      this.failed = reject;
      this.ws.on('error', (error) => this.failed?.(error));
      this.ws.on('close', (code) => {
        this.closedWith = code;
        this.failed?.(new Error(`socket closed ${code}`));
      });
      this.ws.on('message', (data) => {
        const text = String(data);
        if (!text.includes('"op":"')) return tally.current?.count(text);
        const frame = JSON.parse(text) as { op: string; code?: string; reason?: string; channelId?: string };
        if (frame.op === 'connected') return resolve();
        if (frame.op === 'presence') {
          this.presence++;
          return;
        }
        if (frame.op === 'subscribed') {
          if (++this.subscribed === this.wanted) this.onSubscribed?.();
          return;
        }
        if (frame.op === 'error' && frame.code === 'unavailable' && frame.channelId) {
          this.refused++;
          const channelId = frame.channelId;
          setTimeout(() => this.ws.send(JSON.stringify({ op: 'subscribe', ref: this.ref++, channelId })), RETRY_MS);
          return;
        }
        if (frame.op === 'error' || frame.op === 'unsubscribed') {
          const problem = `${frame.op} ${frame.channelId ?? ''}: ${frame.code} ${frame.reason}`;
          // once subscribed, a subscription the server ends shows as missing deliveries: say why
          if (this.subscribed === this.wanted) this.problems.push(problem);
          else this.failed?.(new Error(problem));
        }
      });
    });
  }

  /**
   * Subscribes to every channel at once, as a reconnecting client does. A subscribe refused with
   * `unavailable` (a dependency of the gateway was too slow: try again) is sent again after
   * RETRY_MS and counted in `refused`; any other refusal fails.
   */
  subscribe(channels: string[]): Promise<void> {
    this.wanted += channels.length;
    const all = new Promise<void>((resolve, reject) => {
      this.onSubscribed = resolve;
      this.failed = reject;
    });
    for (const channelId of channels) this.ws.send(JSON.stringify({ op: 'subscribe', ref: this.ref++, channelId }));
    return all;
  }

  async close(): Promise<void> {
    this.failed = undefined;
    if (this.ws.readyState === WebSocket.CLOSED) return;
    const closed = new Promise((resolve) => this.ws.once('close', resolve));
    this.ws.close(1000);
    await closed;
  }
}

// ---------------------------------------------------------------- one run

interface Case {
  key: string;
  label: string;
  connections: number;
  /** The channels each connection subscribes to. */
  channels: string[];
  messagesPerChannel: number;
}

interface Server {
  name: string;
  url: (connection: number) => string;
  memory(): Promise<Memory>;
  /** Sends message `n` to `channelId`; resolves when the server has accepted it. */
  publish(channelId: string, n: number): Promise<void>;
  profile?: { start(): Promise<void>; stop(label: string): Promise<string> };
  /** Sampling heap profiler: what is still allocated from `start` to `retained` (after a GC). */
  heapSampling?: { start(): Promise<void>; retained(): Promise<string> };
}

interface Result {
  name: string;
  label: string;
  connections: number;
  subscriptions: number;
  subscribeSeconds: number;
  perSecond: number;
  p50: number;
  p99: number;
  deliveries: number;
  expected: number;
  perConnection: Memory;
  perSubscription: Memory;
  leftAfterClose: Memory;
  /** Subscribes answered `unavailable` and sent again. */
  refused: number;
}

/** Bytes per connection; from a handful of connections that is within the noise of a GC'd heap, so not shown. */
const perConn = (r: Result, what: keyof Memory) => (r.connections < 10 ? '–' : fmt(r.perConnection[what]));

async function run(server: Server, c: Case): Promise<Result> {
  const subscriptions = c.connections * c.channels.length;
  const holder: { current: Tally | undefined } = { current: undefined };
  const name = `${server.name}, ${c.label}`;
  phase = `${name}, opening`;
  const before = await server.memory();
  const clients: Client[] = [];
  try {
    for (let i = 0; i < c.connections; i += 20) {
      const batch = Array.from({ length: Math.min(20, c.connections - i) }, (_, j) => new Client(server.url(i + j), holder));
      clients.push(...batch);
      await Promise.all(batch.map((client) => client.opened));
    }
    const connected = await server.memory();
    phase = `${name}, subscribing`;
    await server.profile?.start();
    await server.heapSampling?.start();
    const subscribeStart = Date.now();
    for (let i = 0; i < clients.length; i += SUBSCRIBE_WAVE) {
      await Promise.all(clients.slice(i, i + SUBSCRIBE_WAVE).map((client) => client.subscribe(c.channels)));
    }
    const subscribeSeconds = (Date.now() - subscribeStart) / 1000;
    const refused = clients.reduce((n, client) => n + client.refused, 0);
    const subscribeProfile = await server.profile?.stop(`${c.label}-subscribe`);
    const subscribed = await server.memory();
    const retained = await server.heapSampling?.retained();

    const tally = new Tally();
    holder.current = tally;
    const total = c.channels.length * c.messagesPerChannel;
    const expected = total * c.connections;
    phase = `${name}, fan-out`;
    await server.profile?.start();
    const startedAt = Date.now();
    let next = 0;
    const publisher = async () => {
      while (next < total) {
        const n = next++;
        await server.publish(c.channels[n % c.channels.length]!, n);
      }
    };
    await Promise.all(Array.from({ length: WINDOW }, publisher));
    await tally.until(expected, 60_000);
    const elapsed = ((tally.lastAt || Date.now()) - startedAt) / 1000;
    const profile = await server.profile?.stop(`${c.label}-fanout`);
    holder.current = undefined;
    for (const client of clients) if (client.closedWith !== undefined) throw new Error(`${server.name}: a client was closed with ${client.closedWith}`);
    const presence = clients.reduce((n, client) => n + client.presence, 0);
    const problems = clients.flatMap((client) => client.problems);
    if (problems.length > 0) process.stdout.write(`  ${name}: ${problems.length} subscription(s) ended by the server, e.g. ${problems[0]}\n`);
    phase = `${name}, closing`;
    await Promise.all(clients.map((client) => client.close()));
    clients.length = 0;
    const after = await server.memory();
    const watched: string[] = [];
    for (let waited = 5_000; waited <= WATCH_AFTER_CLOSE_MS; waited += 5_000) {
      await sleep(5_000);
      watched.push(`  ${waited / 1000} s after closing: heap ${fmt((await server.memory()).heap - before.heap)} B over the start\n`);
    }
    const perConnection = {
      heap: (connected.heap - before.heap) / c.connections,
      rss: (connected.rss - before.rss) / c.connections,
    };
    const perSubscription = {
      heap: (subscribed.heap - connected.heap) / subscriptions,
      rss: (subscribed.rss - connected.rss) / subscriptions,
    };
    const result: Result = {
      name: server.name,
      label: c.label,
      connections: c.connections,
      subscriptions,
      subscribeSeconds,
      perSecond: Math.round(tally.deliveries / elapsed),
      p50: tally.histogram.getValueAtPercentile(50) / 1000,
      p99: tally.histogram.getValueAtPercentile(99) / 1000,
      deliveries: tally.deliveries,
      expected,
      perConnection,
      perSubscription,
      leftAfterClose: { heap: after.heap - before.heap, rss: after.rss - before.rss },
      refused,
    };
    process.stdout.write(
      `${name.padEnd(28)} subscribe ${result.subscribeSeconds.toFixed(2).padStart(6)} s (${refused} retried, ${fmt(presence)} presence frames)  ` +
        `${fmt(result.perSecond).padStart(8)} deliveries/s  p50 ${result.p50.toFixed(1).padStart(6)} ms  p99 ${result.p99.toFixed(1).padStart(7)} ms  ` +
        `delivered ${fmt(result.deliveries)}/${fmt(expected)}\n` +
        `${''.padEnd(28)} heap ${perConn(result, 'heap')} B/connection, ${fmt(perSubscription.heap)} B/subscription; ` +
        `rss ${perConn(result, 'rss')} B/connection, ${fmt(perSubscription.rss)} B/subscription; ` +
        `after closing: heap ${result.leftAfterClose.heap >= 0 ? '+' : ''}${fmt(result.leftAfterClose.heap)} B\n`,
    );
    process.stdout.write(watched.join(''));
    if (retained) process.stdout.write(`  heap retained by opening and subscribing (sampled):\n${retained}`);
    if (subscribeProfile) process.stdout.write(`  while subscribing:\n${subscribeProfile}`);
    if (profile) process.stdout.write(`  during the fan-out:\n${profile}`);
    return result;
  } finally {
    holder.current = undefined;
    for (const client of clients) client.ws.terminate();
  }
}

/** What the run is doing now, for attributing the gateway's warnings. */
let phase = 'setup';

/** Counts the gateway's warnings and errors by phase and message, as it prints them (a healthy run has none). */
function watchWarnings(gateway: RunningProcess): () => string {
  const counts = new Map<string, number>();
  for (const stream of [gateway.child.stdout!, gateway.child.stderr!]) {
    createInterface({ input: stream }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      try {
        const entry = JSON.parse(line) as { level?: number; msg?: string; err?: { message?: string } };
        if ((entry.level ?? 0) < 40) return;
        const key = `${phase}: ${entry.msg}${entry.err?.message ? ` (${entry.err.message})` : ''}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      } catch {
        // not a log line
      }
    });
  }
  return () =>
    counts.size === 0 ? 'gateway warnings: none\n' : `gateway warnings:\n${[...counts].map(([key, n]) => `  ${fmt(n)} × ${key}`).join('\n')}\n`;
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const began = Date.now();
  const cleanups: (() => Promise<void>)[] = [];
  const db = await createTestDatabase({ after: (fn: () => Promise<void>) => void cleanups.push(fn) });
  const processes: RunningProcess[] = [];
  let bare: Awaited<ReturnType<typeof startBareWs>> | undefined;
  let nc: NatsConnection | undefined;
  let inspector: Inspector | undefined;
  let warnings: (() => string) | undefined;
  try {
    const env = await createEnvironment(db.pool, { organization: 'bench', project: 'bench', environment: 'connect' });
    const prefix = `bench${process.pid}`;
    const common = { DATABASE_URL: db.url, NATS_URL, NATS_PREFIX: prefix, PARTITIONS: String(PARTITIONS) };
    const [gateway, node] = await Promise.all([
      startProcess('gateway', {
        ...common,
        MAX_SUBSCRIPTIONS: String(Math.max(SOLO_SUBSCRIPTIONS, SUBSCRIPTIONS_EACH)),
        // a client subscribes to all its channels at once
        CONNECT_FRAMES_PER_SECOND: '100000',
        // every connection comes from this one process's address
        MAX_CONNECTIONS_PER_IP: String(Math.max(2_048, CONNECTIONS * 2)),
        PRESENCE_TTL_MS: String(PRESENCE_TTL_MS),
        NODE_OPTIONS: '--inspect=127.0.0.1:0',
      }),
      startProcess('channel-node', common),
    ]);
    processes.push(gateway, node);
    warnings = watchWarnings(gateway);
    await Promise.all([waitReady(gateway), waitReady(node)]);
    inspector = await Inspector.of(gateway.name, gateway.output);
    const barePrefix = `benchbare${process.pid}`;
    bare = await startBareWs(barePrefix);
    nc = await connectBus(NATS_URL, 'bench-connect');
    const bus = subjects(prefix);

    const soloChannels = Array.from({ length: SOLO_SUBSCRIPTIONS }, (_, i) => `solo-${i}`);
    const sharedChannels = Array.from({ length: SUBSCRIPTIONS_EACH }, (_, i) => `shared-${i}`);
    const users = ['solo', ...Array.from({ length: CONNECTIONS }, (_, i) => `u${i}`)];
    const tokens = new Map<string, string>();
    for (let i = 0; i < users.length; i += 20) {
      const batch = users.slice(i, i + 20);
      const minted = await Promise.all(batch.map((user) => mintToken(gateway.controlUrl, env.secretKey, user)));
      batch.forEach((user, j) => tokens.set(user, minted[j]!));
    }

    const sentAt = () => Date.now();
    const ownerPublish = async (channelId: string, n: number) => {
      const command = serverPublish(env.environmentId, channelId, n);
      command.content = JSON.stringify({ n, sentAt: sentAt(), text: TEXT });
      const request = frameRequest([encodeCommand(command)]);
      const msg = await nc!.request(bus.partition(partitionOf(env.environmentId, channelId, PARTITIONS)), request, {
        timeout: 20_000,
      });
      const reply = decodeJson<CommandReply>(msg.data);
      if (!reply.ok) throw new Error(`publish to ${channelId}: ${reply.code} ${reply.reason}`);
    };
    // Every channel exists and its owner has it cached before anything is measured (steady state).
    const all = [...soloChannels, ...sharedChannels];
    for (let i = 0; i < all.length; i += 100) await Promise.all(all.slice(i, i + 100).map((channelId) => ownerPublish(channelId, -1)));

    let seq = 0;
    const rtm = (url: (connection: number) => string): Server => ({
      name: 'rtm /v1/connect',
      url,
      memory: () => gatewayMemory(gateway, inspector!, SETTLE_MS),
      publish: ownerPublish,
      profile: profiler(inspector, 'rtm'),
      heapSampling: HEAP_SAMPLING
        ? {
            start: async () => {
              await inspector!.send('HeapProfiler.enable');
              await inspector!.send('HeapProfiler.startSampling', { samplingInterval: 4096 });
            },
            retained: async () => {
              const { profile } = await inspector!.send<{ profile: { head: SamplingNode } }>('HeapProfiler.getSamplingProfile');
              await inspector!.send('HeapProfiler.stopSampling');
              await inspector!.send('HeapProfiler.disable');
              return summariseHeap(profile.head);
            },
          }
        : undefined,
    });
    const bareServer: Server = {
      name: 'bare ws',
      url: () => bare!.url,
      profile: profiler(bare.inspector, 'bare'),
      memory: () => bareMemory(nc!, barePrefix),
      publish: async (channelId, n) => {
        // the frame a subscription receives: envelope with channelId first, the same size as rtm's
        const frame = {
          channelId,
          id: `msg_${String(++seq).padStart(26, '0')}`,
          seq: n,
          type: 'message',
          kind: 'server',
          content: { n, sentAt: sentAt(), text: TEXT },
          sender: { id: 'server', anon: false },
          timestamp: Date.now(),
          retracted: false,
          ephemeral: false,
        };
        await nc!.request(`${barePrefix}.ch.${channelId}`, encodeText(JSON.stringify(frame)), { timeout: 20_000 });
      },
    };
    const connectUrl = (user: string) => `${gateway.realtimeUrl.replace('http', 'ws')}/v1/connect?token=${tokens.get(user)}`;

    // warm-up: one connection through every step once, so code loaded lazily is not counted below
    {
      const warm = new Client(connectUrl('solo'), { current: undefined });
      await warm.opened;
      await warm.subscribe(['warm-up']);
      await ownerPublish('warm-up', 0);
      await sleep(200);
      await warm.close();
    }

    const cases: Case[] = [
      { key: 'solo', label: `1 × ${fmt(SOLO_SUBSCRIPTIONS)}`, connections: 1, channels: soloChannels, messagesPerChannel: MESSAGES_PER_CHANNEL_SOLO },
      { key: 'shared', label: `${CONNECTIONS} × ${SUBSCRIPTIONS_EACH}`, connections: CONNECTIONS, channels: sharedChannels, messagesPerChannel: MESSAGES_PER_CHANNEL_SHARED },
    ].filter((c) => CASES.includes(c.key));
    process.stdout.write(
      `multiplexed fan-out: ${WINDOW} publishes in flight over NATS; subscribing ${SUBSCRIBE_WAVE} connection(s) at a time; ` +
        `1 × ${SOLO_SUBSCRIPTIONS}: ${MESSAGES_PER_CHANNEL_SOLO} messages per channel, one subscriber each; ` +
        `${CONNECTIONS} × ${SUBSCRIPTIONS_EACH}: ${MESSAGES_PER_CHANNEL_SHARED} messages per channel, ${CONNECTIONS} subscribers each\n\n`,
    );
    const results: Result[] = [];
    for (const c of cases) {
      const single = c.connections === 1;
      results.push(await run(bareServer, c));
      results.push(await run(rtm((i) => connectUrl(single ? 'solo' : `u${i}`)), c));
    }

    process.stdout.write(
      `\n| case | server | subscribe s (retried) | deliveries/s | p50 ms | p99 ms | delivered | heap B/conn | heap B/sub | rss B/conn | rss B/sub |\n` +
        `|---|---|---|---|---|---|---|---|---|---|---|\n`,
    );
    for (const r of results) {
      process.stdout.write(
        `| ${r.label} | ${r.name} | ${r.subscribeSeconds.toFixed(2)} (${r.refused}) | ${fmt(r.perSecond)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ` +
          `${fmt(r.deliveries)} / ${fmt(r.expected)} | ${perConn(r, 'heap')} | ${fmt(r.perSubscription.heap)} | ` +
          `${perConn(r, 'rss')} | ${fmt(r.perSubscription.rss)} |\n`,
      );
    }
    process.stdout.write('\n');
    for (const c of cases) {
      const [b, r] = results.filter((x) => x.label === c.label);
      process.stdout.write(`ratio ${c.label}: rtm / bare ws = ${(r!.perSecond / Math.max(1, b!.perSecond)).toFixed(2)}\n`);
      // the memory goal is stated at 10,000 sockets of one subscription each:
      // BENCH_CASES=shared BENCH_CONNECTIONS=10000 BENCH_SUBSCRIPTIONS_EACH=1 BENCH_SHARED_MESSAGES=1
      if (c.connections >= 10_000 && c.channels.length === 1) {
        const socket = (x: Result) => x.perConnection.rss + x.perSubscription.rss;
        reportGoal({
          path: `gateway RSS per idle socket (/v1/connect, one subscription), ${fmt(c.connections)} sockets`,
          goal: '≤ 8 KiB',
          measured: `${fmt(socket(r!))} B`,
          baseline: `bare ws ${fmt(socket(b!))} B`,
          ratio: socket(r!),
          met: socket(r!) <= 8 * 1024,
        });
      }
    }
    process.stdout.write(`run took ${((Date.now() - began) / 1000).toFixed(0)} s\n`);
  } finally {
    if (warnings) process.stdout.write(warnings());
    inspector?.close();
    bare?.inspector?.close();
    await nc?.close();
    bare?.child.kill('SIGKILL');
    await Promise.all(processes.map((p) => p.kill()));
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

if (process.argv.includes('--serve')) {
  const at = process.argv.indexOf('--serve');
  await serveBareWs(process.argv[at + 1]!, process.argv[at + 2]!);
} else {
  await main();
  process.exit(0);
}
