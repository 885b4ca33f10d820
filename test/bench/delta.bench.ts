/**
 * `npm run bench -- delta`: delta compression on a state-sync workload (docs/benchmarks.md, "Delta
 * compression"). A ~4 KB JSON document, one field changed per message, published over HTTP through
 * one gateway (the publisher's) to a channel with SUBSCRIBERS channel sockets on another gateway
 * (the subscribers'), once plain and once with `?delta=fossil`, in alternating rounds, ROUNDS of
 * each; the figures are the medians.
 *
 * Per message: the bytes of a message frame a subscriber receives (its WebSocket payload), and the
 * CPU µs of each process (/proc, cpu-meter.ts): the subscribers' gateway (where deltas are made
 * and fanned out), the publisher's gateway, the channel-node, Postgres, NATS and this process.
 * The goals: delta saves ≥ 80 % of the bytes at ≤ 1.2× the subscribers' gateway CPU per message of
 * plain delivery. One subscriber of each round rebuilds every message with the SDK's decoder and
 * checks it against what was published, so a saving never comes from a wrong delta.
 *
 * Options: BENCH_SUBSCRIBERS (default 100), BENCH_MESSAGES per round (default 600), BENCH_ROUNDS
 * (default 3), BENCH_CPU_PROF_DIR (V8 profiles of the service's processes, test/bench/profile-top.ts).
 */
import WebSocket from 'ws';
import { Pool as HttpPool } from 'undici';
import { createEnvironment } from '@rtm/auth';
import { createTestDatabase } from '../helpers/database.ts';
import { dropNatsPrefix, startProcess, waitReady, type RunningProcess } from '../helpers/cluster.ts';
import { mintToken } from '../helpers/http.ts';
import { DeltaReader, keepFrameText } from '../../libs/client/src/delta.ts';
import { cpuMicros, pidsNamed, postgresCpuMicros, selfCpuMicros } from './cpu-meter.ts';
import { profilingEnv, stopAll } from './lib/services.ts';
import { reportGoal } from './report.ts';

const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 100);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 600);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WINDOW = 4;
/** Items of the document: ~4 KB of JSON. */
const ITEMS = 50;
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

/** The document: ~4 KB of JSON; `next` changes one field (an item's value) per message. */
function startDocument(): Record<string, any> {
  return {
    id: 'doc-1',
    title: 'Shared board',
    owner: { id: 'user-1', name: 'Ada Lovelace' },
    items: Array.from({ length: ITEMS }, (_, i) => ({ key: `item-${i}`, label: `Task ${i}: review the plan`, done: i % 4 === 0, value: 0 })),
    cursor: { line: 12, column: 4 },
  };
}

interface Subscriber {
  ws: WebSocket;
  frames: number;
  bytes: number;
  /** Rebuilds every message (one subscriber a round): the contents it saw, by seq. */
  check?: { reader: DeltaReader; contents: Map<number, string>; deltas: number };
}

const CPU_GROUPS = ['subscribers gateway', 'publisher gateway', 'channel-node', 'postgres', 'nats', 'load generator'] as const;
type Cpu = Record<(typeof CPU_GROUPS)[number], number>;

function cpuNow(subGateway: RunningProcess, pubGateway: RunningProcess, node: RunningProcess, nats: number[]): Cpu {
  return {
    'subscribers gateway': cpuMicros(subGateway.child.pid),
    'publisher gateway': cpuMicros(pubGateway.child.pid),
    'channel-node': cpuMicros(node.child.pid),
    postgres: postgresCpuMicros(),
    nats: nats.reduce((sum, pid) => sum + cpuMicros(pid), 0),
    'load generator': selfCpuMicros(),
  };
}

interface RoundResult {
  bytesPerMessage: number;
  cpu: Cpu;
  deltaShare: number;
  seconds: number;
}

async function round(options: {
  name: 'plain' | 'delta';
  channelId: string;
  realtimeUrl: string;
  token: string;
  publish: (content: Record<string, unknown>) => Promise<void>;
  cpu: () => Cpu;
  messages: number;
}): Promise<RoundResult> {
  const { name, channelId, messages: count } = options;
  const query = name === 'delta' ? '&delta=fossil' : '';
  const subs: Subscriber[] = [];
  let received = 0;
  let done = () => {};
  const all = new Promise<void>((resolve) => (done = resolve));
  await Promise.all(
    Array.from({ length: SUBSCRIBERS }, (_, i) => {
      const sub: Subscriber = {
        ws: new WebSocket(`${options.realtimeUrl.replace('http', 'ws')}/v1/channels/${channelId}?token=${options.token}${query}`),
        frames: 0,
        bytes: 0,
      };
      if (i === 0) sub.check = { reader: new DeltaReader(), contents: new Map(), deltas: 0 };
      subs.push(sub);
      return new Promise<void>((resolve, reject) => {
        sub.ws.on('error', reject);
        sub.ws.on('message', (data: Buffer) => {
          if (data.subarray(0, 6).toString() === '{"op":') {
            if (data.includes('"op":"ready"')) resolve();
            return;
          }
          sub.frames++;
          sub.bytes += data.length;
          if (sub.check) {
            const text = data.toString('utf8');
            const frame = JSON.parse(text) as Record<string, unknown>;
            keepFrameText(frame, text);
            if (frame.delta !== undefined) sub.check.deltas++;
            if (!sub.check.reader.read(frame)) throw new Error(`${name}: a delta that does not rebuild (seq ${String(frame.seq)})`);
            sub.check.contents.set(frame.seq as number, JSON.stringify(frame.content));
          }
          if (++received === SUBSCRIBERS * count) done();
        });
      });
    }),
  );
  let doc = startDocument();
  const published: string[] = [];
  const startedAt = performance.now();
  const before = options.cpu();
  let n = 0;
  const publisher = async () => {
    while (n < count) {
      const k = n++;
      doc = structuredClone(doc);
      doc.items[k % ITEMS].value = k + 1;
      published.push(JSON.stringify(doc));
      await options.publish(doc);
    }
  };
  await Promise.all(Array.from({ length: WINDOW }, publisher));
  const timeout = setTimeout(() => done(), 120_000);
  await all;
  clearTimeout(timeout);
  const after = options.cpu();
  const seconds = (performance.now() - startedAt) / 1000;
  for (const sub of subs) sub.ws.terminate();
  if (received < SUBSCRIBERS * count) throw new Error(`${name}: ${received} of ${SUBSCRIBERS * count} deliveries`);
  // the checking subscriber saw every published document (in the order the channel committed them)
  const seen = new Set(subs[0]!.check!.contents.values());
  const missing = published.filter((content) => !seen.has(content)).length;
  if (missing > 0 || seen.size !== count) throw new Error(`${name}: ${missing} published documents not rebuilt`);
  const cpu = Object.fromEntries(CPU_GROUPS.map((group) => [group, (after[group] - before[group]) / count])) as Cpu;
  const frames = subs.reduce((sum, sub) => sum + sub.frames, 0);
  const bytes = subs.reduce((sum, sub) => sum + sub.bytes, 0);
  return { bytesPerMessage: bytes / frames, cpu, deltaShare: subs[0]!.check!.deltas / count, seconds };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function summary(results: RoundResult[]): { bytes: number; cpu: Cpu; seconds: number } {
  return {
    bytes: median(results.map((r) => r.bytesPerMessage)),
    cpu: Object.fromEntries(CPU_GROUPS.map((group) => [group, median(results.map((r) => r.cpu[group]))])) as Cpu,
    seconds: median(results.map((r) => r.seconds)),
  };
}

async function main(): Promise<void> {
  const cleanups: (() => Promise<void>)[] = [];
  const db = await createTestDatabase({ after: (fn: () => Promise<void>) => void cleanups.push(fn) });
  const processes: RunningProcess[] = [];
  const prefix = `bench${process.pid}`;
  try {
    const env = await createEnvironment(db.pool, { organization: 'bench', project: 'bench', environment: 'delta' });
    const common = { DATABASE_URL: db.url, NATS_URL, NATS_PREFIX: prefix, ...profilingEnv() };
    const started = await Promise.all([startProcess('gateway', common), startProcess('gateway', common), startProcess('channel-node', common)]);
    processes.push(...started);
    await Promise.all(started.map((p) => waitReady(p)));
    const [subGateway, pubGateway, node] = started as [RunningProcess, RunningProcess, RunningProcess];
    const http = new HttpPool(pubGateway.controlUrl, { connections: WINDOW });
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${env.secretKey}` };
    const deploy = await http.request({
      method: 'PUT',
      path: '/v1/config',
      headers,
      body: JSON.stringify({
        namespaces: [{ prefix: 'doc:', delta: true }],
        limits: { secretKeyRequestsPerSecond: 1_000_000, environmentMessagesPerSecond: 1_000_000, socketsPerUser: 100_000, userSocketOpensPerSecond: 100_000 },
      }),
    });
    if (deploy.statusCode !== 200) throw new Error(`config deploy answered ${deploy.statusCode}: ${await deploy.body.text()}`);
    await deploy.body.text();
    const token = await mintToken(pubGateway.controlUrl, env.secretKey, 'subscriber');
    const nats = pidsNamed('nats-server');
    const cpu = () => cpuNow(subGateway, pubGateway, node, nats);
    process.stdout.write(
      `delta: ${SUBSCRIBERS} channel sockets on one gateway, ${MESSAGES} messages a round (a ${JSON.stringify(startDocument()).length}-byte document, one field changed each), publishes through another gateway (${WINDOW} in flight), ${ROUNDS} rounds of each\n`,
    );
    const results: Record<'plain' | 'delta', RoundResult[]> = { plain: [], delta: [] };
    // round 0 warms the processes up (JIT, pools, the feed's paths) and is not counted
    for (let r = 0; r <= ROUNDS; r++) {
      for (const name of ['plain', 'delta'] as const) {
        const channelId = `doc:${name}-${r}`;
        const result = await round({
          name,
          channelId,
          realtimeUrl: subGateway.realtimeUrl,
          token,
          cpu,
          messages: r === 0 ? Math.min(200, MESSAGES) : MESSAGES,
          publish: async (content) => {
            const res = await http.request({
              method: 'POST',
              path: `/v1/channels/${channelId}/messages`,
              headers,
              body: JSON.stringify({ type: 'state', content }),
            });
            await res.body.text();
            if (res.statusCode !== 201) throw new Error(`publish answered ${res.statusCode}`);
          },
        });
        if (r > 0) results[name].push(result);
        const cpuText = CPU_GROUPS.map((group) => `${group} ${result.cpu[group].toFixed(1)}`).join(', ');
        process.stdout.write(
          `${r === 0 ? 'warm-up' : `round ${r}`} ${name.padEnd(5)} ${result.bytesPerMessage.toFixed(0).padStart(6)} bytes/msg  ${result.seconds.toFixed(1)} s` +
            `${name === 'delta' ? `  deltas ${(result.deltaShare * 100).toFixed(1)} %` : ''}  CPU µs/msg: ${cpuText}\n`,
        );
      }
    }
    await http.close();
    const plain = summary(results.plain);
    const delta = summary(results.delta);
    process.stdout.write(`\nmedians of ${ROUNDS}:\n`);
    for (const [name, s] of [
      ['plain', plain],
      ['delta', delta],
    ] as const) {
      process.stdout.write(
        `${name.padEnd(5)} ${s.bytes.toFixed(0).padStart(6)} bytes/msg  CPU µs/msg: ${CPU_GROUPS.map((group) => `${group} ${s.cpu[group].toFixed(1)}`).join(', ')}\n`,
      );
    }
    const saved = 1 - delta.bytes / plain.bytes;
    const cpuRatio = delta.cpu['subscribers gateway'] / plain.cpu['subscribers gateway'];
    const each = (group: keyof Cpu) => results.delta.map((r, i) => (r.cpu[group] / results.plain[i]!.cpu[group]).toFixed(2)).join(' / ');
    process.stdout.write(
      `bytes saved ${(saved * 100).toFixed(1)} %; subscribers' gateway CPU delta / plain ${cpuRatio.toFixed(2)} [rounds: ${each('subscribers gateway')}]\n`,
    );
    reportGoal({
      path: `delta, state-sync 4 KB document, ${SUBSCRIBERS} subscribers: bytes per message`,
      goal: '≤ 0.2× plain (≥ 80 % saved)',
      measured: `${delta.bytes.toFixed(0)} B`,
      baseline: `plain ${plain.bytes.toFixed(0)} B`,
      ratio: delta.bytes / plain.bytes,
      met: saved >= 0.8,
    });
    reportGoal({
      path: `delta, state-sync 4 KB document, ${SUBSCRIBERS} subscribers: subscribers' gateway CPU per message`,
      goal: '≤ 1.2× plain',
      measured: `${delta.cpu['subscribers gateway'].toFixed(1)} µs`,
      baseline: `plain ${plain.cpu['subscribers gateway'].toFixed(1)} µs`,
      ratio: cpuRatio,
      met: cpuRatio <= 1.2,
    });
  } finally {
    await stopAll(processes);
    await dropNatsPrefix(NATS_URL, prefix).catch(() => {});
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

await main();
process.exit(0);
