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
 *
 * Gateway and channel-node as in `npm run bench -- publish` (one each), one dispatcher. The load
 * generator runs on the same machine, so the flood also takes CPU from B's own client.
 */
import { createServer, type Server } from 'node:http';
import { createSocket } from 'node:dgram';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Pool as HttpPool } from 'undici';
import * as hdr from 'hdr-histogram-js';
import { createEnvironment } from '@rtm/auth';
import { createTestDatabase } from '../helpers/database.ts';
import { startProcess, waitReady, type RunningProcess } from '../helpers/cluster.ts';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 8_000);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 2_000);
const QUIET_CLIENTS = Number(process.env.BENCH_QUIET_CLIENTS ?? 4);
const QUIET_PAUSE_MS = Number(process.env.BENCH_QUIET_PAUSE_MS ?? 20);
const FLOOD_CLIENTS = Number(process.env.BENCH_FLOOD_CLIENTS ?? 50);
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
          if (res.statusCode === 201 && body.id) sent.set(body.id, t0);
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
  let missing = 0;
  for (const [id, t0] of sent) {
    const at = arrived.get(id);
    if (at === undefined) missing++;
    else h.recordValue(Math.max(1, (at - t0) * 1000));
  }
  const figures = { n: sent.size - missing, errors: errors + missing, perSecond: rate, p50: h.getValueAtPercentile(50) / 1000, p99: h.getValueAtPercentile(99) / 1000 };
  line(name, figures);
  return figures;
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
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => /^(WEBHOOK_|WORKER_|COMMIT_LANES|MAX_BATCH)/.test(k))),
    } as Record<string, string>;
    for (const kind of ['gateway', 'channel-node', 'dispatcher'] as const) {
      const proc = await startProcess(kind, env);
      processes.push(proc);
      await waitReady(proc);
    }
    const gateway = processes[0]!;
    const a = await createEnvironment(db.pool, { organization: 'bench', project: 'bench', environment: 'flooder' });
    const b = await createEnvironment(db.pool, { organization: 'bench', project: 'bench', environment: 'quiet' });

    process.stdout.write(
      `fairness: B = ${QUIET_CLIENTS} clients pausing ${QUIET_PAUSE_MS} ms; A = ${FLOOD_CLIENTS} clients flat out; ` +
        `${WARMUP_MS / 1000}s warm-up + ${DURATION_MS / 1000}s per case\n`,
    );
    // ---- publish ---------------------------------------------------------------------------
    const alone = await quietPhase('B publishes alone', gateway, b.secretKey);
    const flood = publisher(gateway.controlUrl, a.secretKey, FLOOD_CLIENTS, () => `flood-${Math.floor(Math.random() * 1000)}`, 0);
    flood.measure();
    const loaded = await quietPhase('B publishes while A floods', gateway, b.secretKey);
    const flooded = await flood.stop();
    line('  (A, the flood, over the same period)', flooded);

    // ---- webhooks ----------------------------------------------------------------------------
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

    const ratio = (x: number, y: number) => (x / Math.max(0.001, y)).toFixed(2);
    process.stdout.write(
      `\nratios: B publish p99 with flood / alone = ${ratio(loaded.p99, alone.p99)} (goal ≤ 2); ` +
        `B webhook p99 with hostile endpoints / alone = ${ratio(hooksLoaded.p99, hooksAlone.p99)} (goal ≤ 2)\n`,
    );
  } finally {
    await Promise.all(processes.map((p) => p.kill()));
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

await main();
process.exit(0);
