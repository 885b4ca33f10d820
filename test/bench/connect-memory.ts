/**
 * `npx tsx test/bench/connect-memory.ts`: what one idle `/v1/connect` socket with one subscription
 * costs the gateway, and where those bytes are.
 *
 * Starts a gateway and a channel-node as `connect.bench.ts` does (fresh database, the gateway
 * with `--inspect=127.0.0.1:0`), then opens MEM_CONNECTIONS sockets of distinct users (20 at a
 * time), each subscribing to the same one channel, and reads the gateway's heap used and RSS
 * after a forced GC (repeated until two readings agree): before, once the sockets are open and
 * once they are subscribed. Per socket = growth ÷ sockets.
 *
 * With MEM_SNAPSHOT=1 it also takes a heap snapshot before the sockets open and one once they are
 * subscribed, and prints the difference grouped by kind (a constructor's name for objects, the
 * function's name for closures, V8's node type otherwise) as bytes and objects per socket. The
 * first snapshot allocates in the gateway, so the RSS figures of that run are not comparable:
 * measure RSS in a run without it.
 * Options: MEM_CONNECTIONS (4000), MEM_TOP (40 rows), MEM_SNAPSHOT (0), MEM_PRESENCE_TTL_MS (the
 * gateway's PRESENCE_TTL_MS, its default 15000: it rewrites every presence key each third of it,
 * and a round in flight while memory is read counts as the sockets' cost; 300000 keeps the rounds
 * out of the readings), MEM_AFTER_CLOSE_MS (then close every socket, wait this long and read the
 * heap again: what is left over the start is what closing did not give back), MEM_EXPLAIN (kinds, `;`-separated: the retainer chains of some of their
 * new objects).
 */
import WebSocket from 'ws';
import { connectBus, decodeJson, partitionOf, subjects } from '@rtm/bus';
import { createEnvironment } from '@rtm/auth';
import { encodeCommand, frameRequest, type CommandReply } from '@rtm/schemas';
import { createTestDatabase } from '../helpers/database.ts';
import { mintToken } from '../helpers/http.ts';
import type { RunningProcess } from '../helpers/cluster.ts';
import { serverPublish } from '../helpers/commands.ts';
import { Inspector, metricsAfterGc, metricValue, settledMemory, type Memory } from './gateway-memory.ts';
import { census, difference, type Snapshot } from './lib/heap-census.ts';
import { startGatewayAndNode } from './lib/services.ts';
import { fmt, sleep } from './lib/figures.ts';

const CONNECTIONS = Number(process.env.MEM_CONNECTIONS ?? 4_000);
const TOP = Number(process.env.MEM_TOP ?? 40);
const SNAPSHOT = process.env.MEM_SNAPSHOT === '1';
const PRESENCE_TTL_MS = process.env.MEM_PRESENCE_TTL_MS;
const AFTER_CLOSE_MS = Number(process.env.MEM_AFTER_CLOSE_MS ?? 0);
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const PARTITIONS = 32;
const CHANNEL = 'memory';

/** The gateway's inspector, with the scripts it has parsed and the heap snapshots it takes. */
class SnapshotInspector {
  private chunks: string[] = [];
  /** Script ids to their URLs (shortened), from Debugger.scriptParsed. */
  readonly scripts = new Map<string, string>();

  readonly inspector: Inspector;

  constructor(inspector: Inspector) {
    this.inspector = inspector;
    inspector.on('HeapProfiler.addHeapSnapshotChunk', (params: { chunk: string }) => this.chunks.push(params.chunk));
    inspector.on('Debugger.scriptParsed', ({ scriptId, url }: { scriptId: string; url: string }) => {
      this.scripts.set(scriptId, url.replace(/^.*\/(node_modules|wt-mem)\//, ''));
    });
  }

  async snapshot(): Promise<Snapshot> {
    this.chunks = [];
    await this.inspector.send('HeapProfiler.collectGarbage');
    await this.inspector.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false, exposeInternals: false });
    const text = this.chunks.join('');
    this.chunks = [];
    return JSON.parse(text) as Snapshot;
  }
}

interface DetailedMemory extends Memory {
  /** V8's committed heap, in all and by space. */
  committed: number;
  /** Memory of Buffers and other objects V8 points to but does not hold (part of what is outside its heap). */
  external: number;
  spaces: Record<string, number>;
}

async function memoryOnce(gateway: RunningProcess, inspector: Inspector): Promise<DetailedMemory> {
  const text = await metricsAfterGc(gateway, inspector);
  const read = (name: string) => metricValue(text, name);
  // committed bytes of each V8 heap space, and what V8 does not hold (RSS - heap committed)
  const spaces: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const space = /^nodejs_heap_space_size_total_bytes\{[^}]*space="(\w+)"/.exec(line)?.[1];
    if (space) spaces[space] = Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return {
    heap: read('nodejs_heap_size_used_bytes'),
    rss: read('process_resident_memory_bytes'),
    committed: read('nodejs_heap_size_total_bytes'),
    external: read('nodejs_external_memory_bytes'),
    spaces,
  };
}

/** Read after a forced GC every second until two readings of the heap agree within 1 % (or 256 KiB). */
const memory = (gateway: RunningProcess, inspector: Inspector) => settledMemory(() => memoryOnce(gateway, inspector), 1_000);

/** One socket: resolves `opened` on `connected`, `subscribed` on its one subscription. */
function open(url: string): { ws: WebSocket; opened: Promise<void>; subscribe(): Promise<void> } {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  let onSubscribed: (() => void) | undefined;
  let failed: (error: Error) => void = () => {};
  const opened = new Promise<void>((resolve, reject) => {
    failed = reject;
    ws.on('error', (error) => failed(error));
    ws.on('close', (code) => failed(new Error(`socket closed ${code}`)));
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { op: string; code?: string; reason?: string };
      if (frame.op === 'connected') resolve();
      else if (frame.op === 'subscribed') onSubscribed?.();
      else if (frame.op === 'error') failed(new Error(`${frame.code}: ${frame.reason}`));
    });
  });
  return {
    ws,
    opened,
    subscribe: () =>
      new Promise<void>((resolve, reject) => {
        onSubscribed = resolve;
        failed = reject;
        ws.send(JSON.stringify({ op: 'subscribe', ref: 1, channelId: CHANNEL }));
      }),
  };
}

async function main(): Promise<void> {
  const cleanups: (() => Promise<void>)[] = [];
  const db = await createTestDatabase({ after: (fn: () => Promise<void>) => void cleanups.push(fn) });
  const processes: RunningProcess[] = [];
  const sockets: WebSocket[] = [];
  let gatewayInspector: Inspector | undefined;
  try {
    const env = await createEnvironment(db.pool, { organization: 'bench', project: 'bench', environment: 'memory' });
    const prefix = `benchmem${process.pid}`;
    const common = { DATABASE_URL: db.url, NATS_URL, NATS_PREFIX: prefix, PARTITIONS: String(PARTITIONS) };
    const [gateway] = await startGatewayAndNode(
      processes,
      {
        ...common,
        CONNECT_FRAMES_PER_SECOND: '100000',
        MAX_CONNECTIONS_PER_IP: String(Math.max(2_048, CONNECTIONS * 2)),
        ...(PRESENCE_TTL_MS ? { PRESENCE_TTL_MS } : {}),
        NODE_OPTIONS: '--inspect=127.0.0.1:0',
      },
      common,
    );
    // snapshots arrive in chunks of the inspector socket: no limit on a message's size
    gatewayInspector = await Inspector.of(gateway.name, gateway.output, { maxPayload: 1024 * 1024 * 1024 });
    const inspector = new SnapshotInspector(gatewayInspector);
    const nc = await connectBus(NATS_URL, 'bench-connect-memory');
    cleanups.push(() => nc.close());
    const bus = subjects(prefix);
    // the channel exists and its owner has it cached before anything is measured
    const reply = decodeJson<CommandReply>(
      (
        await nc.request(
          bus.partition(partitionOf(env.environmentId, CHANNEL, PARTITIONS)),
          frameRequest([encodeCommand(serverPublish(env.environmentId, CHANNEL, 0))]),
          { timeout: 20_000 },
        )
      ).data,
    );
    if (!reply.ok) throw new Error(`publish: ${reply.code}`);

    const started = Date.now();
    const users = Array.from({ length: CONNECTIONS + 1 }, (_, i) => `m${i}`);
    const tokens: string[] = [];
    for (let i = 0; i < users.length; i += 50)
      tokens.push(...(await Promise.all(users.slice(i, i + 50).map((user) => mintToken(gateway.controlUrl, env.secretKey, user)))));
    process.stdout.write(`minted ${fmt(tokens.length)} tokens in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
    const url = (i: number) => `${gateway.realtimeUrl.replace('http', 'ws')}/v1/connect?token=${tokens[i]}`;

    // warm-up: one socket through every step, so code loaded lazily is not counted
    const warm = open(url(CONNECTIONS));
    await warm.opened;
    await warm.subscribe();
    await sleep(300);
    warm.ws.close(1000);
    await sleep(500);

    const first = SNAPSHOT ? await inspector.snapshot() : undefined;
    const before = await memory(gateway, gatewayInspector);
    const clients: ReturnType<typeof open>[] = [];
    for (let i = 0; i < CONNECTIONS; i += 20) {
      const batch = Array.from({ length: Math.min(20, CONNECTIONS - i) }, (_, j) => open(url(i + j)));
      clients.push(...batch);
      sockets.push(...batch.map((b) => b.ws));
      await Promise.all(batch.map((b) => b.opened));
    }
    const connected = await memory(gateway, gatewayInspector);
    for (let i = 0; i < clients.length; i += 20) await Promise.all(clients.slice(i, i + 20).map((c) => c.subscribe()));
    const subscribed = await memory(gateway, gatewayInspector);
    const per = (a: DetailedMemory, b: DetailedMemory, what: 'heap' | 'rss' | 'committed' | 'external') => fmt((b[what] - a[what]) / CONNECTIONS);
    process.stdout.write(
      `${fmt(CONNECTIONS)} sockets, one subscription each (${((Date.now() - started) / 1000).toFixed(0)} s)\n` +
        `  per connection:   heap ${per(before, connected, 'heap')} B, rss ${per(before, connected, 'rss')} B\n` +
        `  per subscription: heap ${per(connected, subscribed, 'heap')} B, rss ${per(connected, subscribed, 'rss')} B\n` +
        `  per socket:       heap ${per(before, subscribed, 'heap')} B, rss ${per(before, subscribed, 'rss')} B` +
        `${SNAPSHOT ? ' (rss not comparable: a snapshot was taken first)' : ''}\n` +
        `  V8 heap committed per socket: ${per(before, subscribed, 'committed')} B (${Object.keys(subscribed.spaces)
          .map((space) => [space, ((subscribed.spaces[space] ?? 0) - (before.spaces[space] ?? 0)) / CONNECTIONS] as const)
          .filter(([, bytes]) => Math.abs(bytes) >= 1)
          .map(([space, bytes]) => `${space} ${fmt(bytes)}`)
          .join(
            ', ',
          )}); outside V8's heap: ${fmt((subscribed.rss - subscribed.committed - (before.rss - before.committed)) / CONNECTIONS)} B, of which Buffers ${per(before, subscribed, 'external')} B\n`,
    );
    if (AFTER_CLOSE_MS > 0) {
      await Promise.all(
        clients.map(
          ({ ws }) => new Promise((resolve) => (ws.readyState === WebSocket.CLOSED ? resolve(undefined) : (ws.once('close', resolve), ws.close(1000)))),
        ),
      );
      await sleep(AFTER_CLOSE_MS);
      const after = await memory(gateway, gatewayInspector);
      process.stdout.write(
        `  after closing and ${AFTER_CLOSE_MS} ms: heap ${fmt(after.heap - before.heap)} B over the start (${fmt((after.heap - before.heap) / CONNECTIONS)} B per socket)\n`,
      );
    }
    if (first) {
      const last = await inspector.snapshot();
      // the scripts' URLs, only now: the debugger keeps what it sees
      await gatewayInspector.send('Debugger.enable');
      await sleep(1_000);
      const kinds = (process.env.MEM_EXPLAIN ?? '').split(';').filter(Boolean);
      const ids = first.nodes.filter((_, at) => at % first.snapshot.meta.node_fields.length === first.snapshot.meta.node_fields.indexOf('id'));
      const explain = { kinds, old: new Set(ids), out: [] as string[] };
      process.stdout.write(difference(census(first, inspector.scripts), census(last, inspector.scripts, explain), CONNECTIONS, TOP));
      for (const line of explain.out) process.stdout.write(`  ${line}\n`);
    }
  } finally {
    for (const ws of sockets) ws.terminate();
    gatewayInspector?.close();
    await Promise.all(processes.map((p) => p.kill()));
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

await main();
process.exit(0);
