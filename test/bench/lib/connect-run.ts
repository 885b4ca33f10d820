/**
 * One run of the connect benchmark (test/bench/connect.bench.ts): a case (connections × channels
 * each, messages per channel) on one server (the bare `ws` baseline or rtm), its figures, the
 * table of every run, and the gateway's warnings counted by the phase they came in.
 */
import { createInterface } from 'node:readline';
import type { RunningProcess } from '../../helpers/cluster.ts';
import type { Memory } from '../gateway-memory.ts';
import { Client, Tally } from './connect-clients.ts';
import type { HeapSampler, Profiler } from './v8-profiles.ts';
import { fmt, sleep } from './figures.ts';

export interface Case {
  key: string;
  label: string;
  connections: number;
  /** The channels each connection subscribes to. */
  channels: string[];
  messagesPerChannel: number;
}

export interface Server {
  name: string;
  url: (connection: number) => string;
  memory(): Promise<Memory>;
  /** Sends message `n` to `channelId`; resolves when the server has accepted it. */
  publish(channelId: string, n: number): Promise<void>;
  profile?: Profiler;
  /** Sampling heap profiler: what is still allocated from `start` to `retained` (after a GC). */
  heapSampling?: HeapSampler;
}

export interface Result {
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
export const perConn = (r: Result, what: keyof Memory) => (r.connections < 10 ? '–' : fmt(r.perConnection[what]));

/** How a run loads the server (the benchmark's options). */
export interface RunOptions {
  /** Publishes in flight. */
  window: number;
  /** Connections that subscribe at the same time (all their channels at once); the next wave starts when they are done. */
  subscribeWave: number;
  /** After closing the connections, how long to keep reading the server's heap every 5 s. */
  watchAfterCloseMs: number;
}

/**
 * One case on one server: open the connections (20 at a time), subscribe (a wave at a time),
 * publish every channel's messages and count the deliveries, then close; memory read around
 * each step.
 */
export async function run(
  server: Server,
  c: Case,
  { window: WINDOW, subscribeWave: SUBSCRIBE_WAVE, watchAfterCloseMs: WATCH_AFTER_CLOSE_MS }: RunOptions,
): Promise<Result> {
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
export function watchWarnings(gateway: RunningProcess): () => string {
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
  return () => (counts.size === 0 ? 'gateway warnings: none\n' : `gateway warnings:\n${[...counts].map(([key, n]) => `  ${fmt(n)} × ${key}`).join('\n')}\n`);
}

/** The table of every run: subscribe time, throughput, latency, deliveries and memory. */
export function printResults(results: Result[]): void {
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
}
