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
import { startProcess, waitReady, type RunningProcess } from '../helpers/cluster.ts';
import { serverPublish } from '../helpers/commands.ts';

const CONNECTIONS = Number(process.env.MEM_CONNECTIONS ?? 4_000);
const TOP = Number(process.env.MEM_TOP ?? 40);
const SNAPSHOT = process.env.MEM_SNAPSHOT === '1';
const PRESENCE_TTL_MS = process.env.MEM_PRESENCE_TTL_MS;
const AFTER_CLOSE_MS = Number(process.env.MEM_AFTER_CLOSE_MS ?? 0);
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const PARTITIONS = 32;
const CHANNEL = 'memory';
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A minimal Chrome DevTools Protocol client, with the heap snapshot's chunks gathered. */
class Inspector {
  private readonly ws: WebSocket;
  private next = 1;
  private readonly pending = new Map<number, (result: any) => void>();
  private chunks: string[] = [];
  /** Script ids to their URLs (shortened), from Debugger.scriptParsed. */
  readonly scripts = new Map<string, string>();

  constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as { id?: number; method?: string; params?: { chunk: string }; result?: unknown };
      if (message.method === 'HeapProfiler.addHeapSnapshotChunk') this.chunks.push(message.params!.chunk);
      if (message.method === 'Debugger.scriptParsed') {
        const { scriptId, url } = message.params as unknown as { scriptId: string; url: string };
        this.scripts.set(scriptId, url.replace(/^.*\/(node_modules|wt-mem)\//, ''));
      }
      if (message.id !== undefined) {
        this.pending.get(message.id)?.(message.result);
        this.pending.delete(message.id);
      }
    });
  }

  static async of(output: readonly string[]): Promise<Inspector> {
    let url: string | undefined;
    for (let i = 0; !url && i < 200; i++) {
      url = output.map((line) => /Debugger listening on (ws:\/\/\S+)/.exec(line)?.[1]).find(Boolean);
      if (!url) await sleep(50);
    }
    if (!url) throw new Error('no inspector address in the gateway output');
    const ws = new WebSocket(url, { maxPayload: 1024 * 1024 * 1024 });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    return new Inspector(ws);
  }

  send<T = unknown>(method: string, params: object = {}): Promise<T> {
    const id = this.next++;
    return new Promise<T>((resolve) => {
      this.pending.set(id, resolve);
      this.ws.send(JSON.stringify({ id, method, params }));
    });
  }

  async snapshot(): Promise<Snapshot> {
    this.chunks = [];
    await this.send('HeapProfiler.collectGarbage');
    await this.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false, exposeInternals: false });
    const text = this.chunks.join('');
    this.chunks = [];
    return JSON.parse(text) as Snapshot;
  }

  close(): void {
    this.ws.close();
  }
}

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]]; edge_fields: string[]; edge_types: [string[], ...unknown[]]; location_fields?: string[] } };
  nodes: number[];
  edges: number[];
  locations?: number[];
  strings: string[];
}

/** Bytes and objects by kind. */
type Census = Map<string, { bytes: number; count: number }>;

/**
 * Every node's self size by kind: a constructor's name for objects, a closure's name and source
 * line, V8's type otherwise. V8's internal parts of an object (its property and element arrays,
 * a closure's context, strings held in them) are given the kind of their nearest retainer that
 * is an object or closure, as `part ← owner`, so what each kind of object costs is visible.
 */
function census(snapshot: Snapshot, scripts: Map<string, string>, explain?: { kinds: string[]; old: Set<number>; out: string[] }): Census {
  const { node_fields: fields, node_types: types, edge_fields: edgeFields, edge_types: edgeTypes } = snapshot.snapshot.meta;
  const width = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const sizeAt = fields.indexOf('self_size');
  const edgeCountAt = fields.indexOf('edge_count');
  const edgeWidth = edgeFields.length;
  const edgeTypeAt = edgeFields.indexOf('type');
  const edgeToAt = edgeFields.indexOf('to_node');
  const edgeNameAt = edgeFields.indexOf('name_or_index');
  const idAt = fields.indexOf('id');
  const typeNames = types[0];
  const edgeTypeNames = edgeTypes[0];
  const { nodes, edges, strings } = snapshot;
  const count = nodes.length / width;
  /** The name of the edge from `from` to `to`, as `.name`. */
  const edgeTo = (from: number, to: number): string => {
    if (from === -1) return '';
    for (let e = firstEdge[from]!; e < firstEdge[from + 1]!; e += edgeWidth) {
      if (edges[e + edgeToAt]! / width !== to) continue;
      const type = edgeTypeNames[edges[e + edgeTypeAt]!]!;
      const name = type === 'element' || type === 'hidden' ? `[${edges[e + edgeNameAt]}]` : strings[edges[e + edgeNameAt]!];
      return ` .${name}`;
    }
    return '';
  };
  const typeOf = (n: number) => typeNames[nodes[n * width + typeAt]!]!;
  const nameOf = (n: number) => strings[nodes[n * width + nameAt]!]!;
  // the first strong retainer of each node, and each node's first edge
  const retainer = new Int32Array(count).fill(-1);
  const firstEdge = new Int32Array(count + 1);
  for (let n = 0, e = 0; n < count; n++) {
    firstEdge[n] = e;
    e += nodes[n * width + edgeCountAt]! * edgeWidth;
    firstEdge[n + 1] = e;
  }
  for (let n = 0; n < count; n++) {
    for (let e = firstEdge[n]!; e < firstEdge[n + 1]!; e += edgeWidth) {
      const edgeType = edgeTypeNames[edges[e + edgeTypeAt]!]!;
      if (edgeType === 'weak' || edgeType === 'shortcut') continue;
      const to = edges[e + edgeToAt]! / width;
      if (retainer[to] === -1 && typeOf(n) !== 'synthetic') retainer[to] = n;
    }
  }
  // closures' source lines
  const where = new Map<number, string>();
  if (snapshot.locations && snapshot.snapshot.meta.location_fields) {
    const lf = snapshot.snapshot.meta.location_fields;
    const lw = lf.length;
    const objectAt = lf.indexOf('object_index');
    const scriptAt = lf.indexOf('script_id');
    const lineAt = lf.indexOf('line');
    for (let at = 0; at < snapshot.locations.length; at += lw) {
      const script = scripts.get(String(snapshot.locations[at + scriptAt])) ?? `script ${snapshot.locations[at + scriptAt]}`;
      where.set(snapshot.locations[at + objectAt]! / width, `${script}:${snapshot.locations[at + lineAt]! + 1}`);
    }
  }
  const kindOf = (n: number): string | undefined => {
    const type = typeOf(n);
    const name = nameOf(n);
    if (type === 'object' && name !== 'system' && !name.startsWith('system /')) return `object ${name.split(' ')[0]}`;
    if (type === 'native') return `native ${name.split(' ')[0]}`;
    if (type === 'closure') return `closure ${name || '(anonymous)'} ${where.get(n) ?? ''}`;
    return undefined;
  };
  const partOf = (n: number): string => {
    const type = typeOf(n);
    const name = nameOf(n);
    if (type === 'hidden' || type === 'array' || type === 'object shape' || type === 'object') return `${type} ${name.slice(0, 30)}`;
    return type;
  };
  /** Plain containers say little by themselves: they are shown with their owner too. */
  const generic = /^(object (Object|Array|Map|Set|Promise|Date|Buffer|Uint8Array|ArrayBuffer)|closure (\(anonymous\)|native_bind) ?)$/;
  const specific = (n: number): string | undefined => {
    const kind = kindOf(n);
    return kind === undefined || generic.test(kind) ? undefined : kind;
  };
  const out: Census = new Map();
  for (let n = 0; n < count; n++) {
    let kind = kindOf(n);
    if (kind !== undefined && generic.test(kind)) {
      let owner = retainer[n]!;
      let owned: string | undefined;
      for (let depth = 0; owner !== -1 && depth < 5 && owned === undefined; depth++) {
        owned = specific(owner);
        if (owned === undefined) owner = retainer[owner]!;
      }
      kind = `${kind} ← ${owned ?? '?'}`;
    } else if (kind === undefined) {
      let owner = retainer[n]!;
      let owned: string | undefined;
      for (let depth = 0; owner !== -1 && depth < 4 && owned === undefined; depth++) {
        owned = kindOf(owner);
        if (owned === undefined) owner = retainer[owner]!;
      }
      kind = `${partOf(n)} ← ${owned ?? '?'}`;
    }
    if (explain && explain.kinds.includes(kind) && !explain.old.has(nodes[n * width + idAt]!) && explain.out.length < 400) {
      const chain: string[] = [];
      for (let at = n, depth = 0; at !== -1 && depth < 8; at = retainer[at]!, depth++) chain.push(`${typeOf(at)} ${nameOf(at).slice(0, 50)}${edgeTo(retainer[at]!, at)}`);
      explain.out.push(`${kind} (${nodes[n * width + sizeAt]} B): ${chain.join(' ← ')}`);
    }
    const entry = out.get(kind) ?? { bytes: 0, count: 0 };
    entry.bytes += nodes[n * width + sizeAt]!;
    entry.count++;
    out.set(kind, entry);
  }
  return out;
}

function difference(before: Census, after: Census, per: number): string {
  const rows: [string, number, number][] = [];
  let total = 0;
  for (const [kind, { bytes, count }] of after) {
    const was = before.get(kind) ?? { bytes: 0, count: 0 };
    rows.push([kind, (bytes - was.bytes) / per, (count - was.count) / per]);
    total += bytes - was.bytes;
  }
  for (const [kind, was] of before) if (!after.has(kind)) rows.push([kind, -was.bytes / per, -was.count / per]), (total -= was.bytes);
  rows.sort((a, b) => b[1] - a[1]);
  const lines = rows
    .slice(0, TOP)
    .map(([kind, bytes, count]) => `  ${bytes.toFixed(0).padStart(7)} B  ${count.toFixed(2).padStart(7)} ×  ${kind}`);
  return `heap snapshot difference per socket: ${fmt(total / per)} B\n${lines.join('\n')}\n`;
}

interface Memory {
  heap: number;
  rss: number;
  /** V8's committed heap, in all and by space. */
  committed: number;
  /** Memory of Buffers and other objects V8 points to but does not hold (part of what is outside its heap). */
  external: number;
  spaces: Record<string, number>;
}

async function memoryOnce(gateway: RunningProcess, inspector: Inspector): Promise<Memory> {
  await inspector.send('HeapProfiler.collectGarbage');
  await inspector.send('HeapProfiler.collectGarbage');
  const text = await (await fetch(`${gateway.internalUrl}/internal/metrics`)).text();
  const read = (name: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`))!;
    return Number(line.slice(line.lastIndexOf(' ') + 1));
  };
  // committed bytes of each V8 heap space, and what V8 does not hold (RSS - heap committed)
  const spaces: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const space = /^nodejs_heap_space_size_total_bytes\{[^}]*space="(\w+)"/.exec(line)?.[1];
    if (space) spaces[space] = Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return { heap: read('nodejs_heap_size_used_bytes'), rss: read('process_resident_memory_bytes'), committed: read('nodejs_heap_size_total_bytes'), external: read('nodejs_external_memory_bytes'), spaces };
}

/** Read after a forced GC every second until two readings of the heap agree within 1 % (or 256 KiB). */
async function memory(gateway: RunningProcess, inspector: Inspector): Promise<Memory> {
  await sleep(1_000);
  let last = await memoryOnce(gateway, inspector);
  for (let i = 0; i < 10; i++) {
    await sleep(1_000);
    const next = await memoryOnce(gateway, inspector);
    const settled = Math.abs(next.heap - last.heap) <= Math.max(0.01 * last.heap, 256 * 1024);
    last = next;
    if (settled) break;
  }
  return last;
}

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
  let inspector: Inspector | undefined;
  try {
    const env = await createEnvironment(db.pool, { organization: 'bench', project: 'bench', environment: 'memory' });
    const prefix = `benchmem${process.pid}`;
    const common = { DATABASE_URL: db.url, NATS_URL, NATS_PREFIX: prefix, PARTITIONS: String(PARTITIONS) };
    const [gateway, node] = await Promise.all([
      startProcess('gateway', {
        ...common,
        CONNECT_FRAMES_PER_SECOND: '100000',
        MAX_CONNECTIONS_PER_IP: String(Math.max(2_048, CONNECTIONS * 2)),
        ...(PRESENCE_TTL_MS ? { PRESENCE_TTL_MS } : {}),
        NODE_OPTIONS: '--inspect=127.0.0.1:0',
      }),
      startProcess('channel-node', common),
    ]);
    processes.push(gateway, node);
    await Promise.all([waitReady(gateway), waitReady(node)]);
    inspector = await Inspector.of(gateway.output);
    const nc = await connectBus(NATS_URL, 'bench-connect-memory');
    cleanups.push(() => nc.close());
    const bus = subjects(prefix);
    // the channel exists and its owner has it cached before anything is measured
    const reply = decodeJson<CommandReply>(
      (await nc.request(bus.partition(partitionOf(env.environmentId, CHANNEL, PARTITIONS)), frameRequest([encodeCommand(serverPublish(env.environmentId, CHANNEL, 0))]), { timeout: 20_000 })).data,
    );
    if (!reply.ok) throw new Error(`publish: ${reply.code}`);

    const started = Date.now();
    const users = Array.from({ length: CONNECTIONS + 1 }, (_, i) => `m${i}`);
    const tokens: string[] = [];
    for (let i = 0; i < users.length; i += 50) tokens.push(...(await Promise.all(users.slice(i, i + 50).map((user) => mintToken(gateway.controlUrl, env.secretKey, user)))));
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
    const before = await memory(gateway, inspector);
    const clients: ReturnType<typeof open>[] = [];
    for (let i = 0; i < CONNECTIONS; i += 20) {
      const batch = Array.from({ length: Math.min(20, CONNECTIONS - i) }, (_, j) => open(url(i + j)));
      clients.push(...batch);
      sockets.push(...batch.map((b) => b.ws));
      await Promise.all(batch.map((b) => b.opened));
    }
    const connected = await memory(gateway, inspector);
    for (let i = 0; i < clients.length; i += 20) await Promise.all(clients.slice(i, i + 20).map((c) => c.subscribe()));
    const subscribed = await memory(gateway, inspector);
    const per = (a: Memory, b: Memory, what: 'heap' | 'rss' | 'committed' | 'external') => fmt((b[what] - a[what]) / CONNECTIONS);
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
          .join(', ')}); outside V8's heap: ${fmt((subscribed.rss - subscribed.committed - (before.rss - before.committed)) / CONNECTIONS)} B, of which Buffers ${per(before, subscribed, 'external')} B\n`,
    );
    if (AFTER_CLOSE_MS > 0) {
      await Promise.all(
        clients.map(({ ws }) => new Promise((resolve) => (ws.readyState === WebSocket.CLOSED ? resolve(undefined) : (ws.once('close', resolve), ws.close(1000))))),
      );
      await sleep(AFTER_CLOSE_MS);
      const after = await memory(gateway, inspector);
      process.stdout.write(`  after closing and ${AFTER_CLOSE_MS} ms: heap ${fmt(after.heap - before.heap)} B over the start (${fmt((after.heap - before.heap) / CONNECTIONS)} B per socket)\n`);
    }
    if (first) {
      const last = await inspector.snapshot();
      // the scripts' URLs, only now: the debugger keeps what it sees
      await inspector.send('Debugger.enable');
      await sleep(1_000);
      const kinds = (process.env.MEM_EXPLAIN ?? '').split(';').filter(Boolean);
      const ids = first.nodes.filter((_, at) => at % first.snapshot.meta.node_fields.length === first.snapshot.meta.node_fields.indexOf('id'));
      const explain = { kinds, old: new Set(ids), out: [] as string[] };
      process.stdout.write(difference(census(first, inspector.scripts), census(last, inspector.scripts, explain), CONNECTIONS));
      for (const line of explain.out) process.stdout.write(`  ${line}\n`);
    }
  } finally {
    for (const ws of sockets) ws.terminate();
    inspector?.close();
    await Promise.all(processes.map((p) => p.kill()));
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

await main();
process.exit(0);
