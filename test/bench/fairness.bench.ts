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
import { createSocket } from 'node:dgram';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { createEnvironment } from '@rtm/auth';
import { deployLimits } from '@rtm/limits';
import { createTestDatabase } from '../helpers/database.ts';
import { startProcess, waitReady, type RunningProcess } from '../helpers/cluster.ts';
import { CASES, DURATION_MS, FLOOD_CLIENTS, QUIET_CLIENTS, QUIET_PAUSE_MS, WARMUP_MS } from './lib/fairness-options.ts';
import { line, publisher } from './lib/fairness-probes.ts';
import { quietPhase, slowCase, stormCase } from './lib/fairness-cases.ts';
import { receiver, webhookLatency } from './lib/fairness-webhooks.ts';
import { profilingEnv, stopAll } from './lib/services.ts';
import { sleep } from './lib/figures.ts';

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
    const profiling = profilingEnv();
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
    await stopAll(processes);
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

await main();
process.exit(0);
