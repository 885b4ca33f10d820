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
 *               publish p50 / p99 (request → 201) alone and during, the ratio, its failures. The
 *               neighbour runs in a process of its own (lib/neighbour-process.ts), so its timings
 *               are the service's and not this process's loop, which drives the storm's sockets.
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
 * BENCH_LARGE_NEIGHBOUR_RATE (50 msg/s), BENCH_LARGE_ALONE_MS (10000), BENCH_LARGE_NEIGHBOUR_GATEWAY
 * (`own`: the neighbour publishes through a second gateway), BENCH_LARGE_STORM_LIMIT_MS
 * (600000: the storm gives up after this long), BENCH_LARGE_DELIVERY_LIMIT_MS (60000).
 */
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createEnvironment, signToken, USER_TOKEN_AUDIENCE, type SigningKey } from '@rtm/auth';
import { deployLimits } from '@rtm/limits';
import { DEFAULT_LIMITS } from '@rtm/rules';
import { Pool as HttpPool } from 'undici';
import { createTestDatabase } from '../helpers/database.ts';
import { dropNatsPrefix, startProcess, waitReady, type RunningProcess } from '../helpers/cluster.ts';
import { Inspector, gatewayMemory } from './gateway-memory.ts';
import { pidsNamed } from './cpu-meter.ts';
import { fmt, sleep } from './lib/figures.ts';
import { profileImport, profilingEnv, startGatewayAndNode, stopAll } from './lib/services.ts';
import {
  ALONE_MS,
  CHANNEL,
  CONNECTIONS,
  MESSAGES,
  NATS_URL,
  NEIGHBOUR_CHANNEL,
  NEIGHBOUR_RATE,
  OPEN_WINDOW,
  RATE,
  SETTLE_MS,
  STORM_LIMIT_MS,
  ms,
} from './lib/large-channel-options.ts';
import { Sub, openQueue, outcomes, storm } from './lib/large-channel-subs.ts';
import { neighbour, observer, type Occupancy } from './lib/large-channel-peers.ts';
import { cpuSnapshot, fanOut } from './lib/large-channel-fanout.ts';
import { report } from './lib/large-channel-report.ts';
import { describePauses, pausesWindow } from './process-pauses.ts';

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
    const [gateway, node] = await startGatewayAndNode(
      processes,
      {
        ...common,
        // every socket comes from this one process's address
        MAX_CONNECTIONS_PER_IP: String(maxPerIp),
        // BENCH_CPU_PROF_DIR: the gateway writes a V8 CPU profile there when it stops (test/bench/profile-top.ts)
        ...profilingEnv(),
        NODE_OPTIONS: ['--inspect=127.0.0.1:0', profileImport()].filter(Boolean).join(' '),
      },
      common,
    );
    inspector = await Inspector.of(gateway.name, gateway.output);
    // BENCH_LARGE_NEIGHBOUR_GATEWAY=own: the neighbour publishes through a second gateway, as a
    // load balancer that spreads tenants would have it (is the storm's gateway the neighbour's tail?)
    let neighbourGateway = gateway;
    if (process.env.BENCH_LARGE_NEIGHBOUR_GATEWAY === 'own') {
      neighbourGateway = await startProcess('gateway', { ...common });
      processes.push(neighbourGateway);
      await waitReady(neighbourGateway);
    }

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
    for (const [secretKey, channelId] of [
      [large.secretKey, CHANNEL],
      [other.secretKey, NEIGHBOUR_CHANNEL],
    ] as const) {
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
    neighbourLoad = neighbour(neighbourGateway.controlUrl, other.secretKey, NEIGHBOUR_RATE);
    await sleep(2_000); // warm-up, not counted
    await neighbourLoad.phase();
    await sleep(ALONE_MS);
    const alone = await neighbourLoad.take();

    // ---- the storm
    const nats = pidsNamed('nats-server');
    const lag = monitorEventLoopDelay({ resolution: 10 });
    const cpuBefore = cpuSnapshot(gateway, node, nats);
    const [gatewayPauses, nodePauses] = await Promise.all([pausesWindow(gateway.internalUrl), pausesWindow(node.internalUrl)]);
    const stormStart = performance.now();
    lag.enable();
    const done = new Promise<boolean>((resolve) => {
      storm.allSubscribed = () => resolve(true);
      setTimeout(() => resolve(false), STORM_LIMIT_MS).unref();
    });
    for (const sub of subs) sub.open();
    const progress = setInterval(() => {
      process.stdout.write(
        `  ${((performance.now() - stormStart) / 1000).toFixed(0).padStart(4)} s: ${fmt(storm.subscribedNow)} subscribed, ${fmt(storm.opening)} opening, ` +
          `${fmt(openQueue.length)} queued, ${fmt(storm.presence.frames)} presence frames\n`,
      );
    }, 10_000);
    const complete = await done;
    clearInterval(progress);
    const stormMs = performance.now() - stormStart;
    lag.disable();
    const cpuAfter = cpuSnapshot(gateway, node, nats);
    // what held the gateway's loop during the storm, the neighbour's tail
    process.stdout.write(`storm, gateway: ${describePauses(await gatewayPauses.end())}\nstorm, channel-node: ${describePauses(await nodePauses.end())}\n`);
    const during = await neighbourLoad.take();
    const stormPresence = { ...storm.presence };
    const stormOutcomes = new Map(outcomes);
    await sleep(SETTLE_MS);
    const settlePresence = { frames: storm.presence.frames - stormPresence.frames, bytes: storm.presence.bytes - stormPresence.bytes };
    await neighbourLoad.stop();
    neighbourLoad = undefined;
    if (!complete) process.stdout.write(`storm: only ${fmt(storm.subscribedNow)} of ${fmt(CONNECTIONS)} subscribed after ${STORM_LIMIT_MS / 1000} s\n`);

    // ---- memory and occupancy, with everyone subscribed
    const after = await gatewayMemory(gateway, inspector, SETTLE_MS);
    const truth = { connections: storm.subscribedNow + 1, users: storm.subscribedNow + 1 };
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

    // ---- the fan-out
    const fan = await fanOut(
      subs,
      (n) => publish(large.secretKey, CHANNEL, { n, text: 'large channel benchmark message' }),
      () => cpuSnapshot(gateway, node, nats),
    );

    report({
      subscribedNow: storm.subscribedNow,
      complete,
      stormMs,
      stormOutcomes,
      stormPresence,
      settlePresence,
      before,
      after,
      truth,
      occupancyRoute,
      occupancyFrame,
      observerFrames: watcher.frames(),
      alone,
      during,
      cpuBefore,
      cpuAfter,
      lag,
      fan,
    });
    process.stdout.write(`run took ${((Date.now() - began) / 1000).toFixed(0)} s\n`);
  } finally {
    storm.stopping = true;
    storm.onDelivery = undefined;
    await neighbourLoad?.stop();
    for (const sub of subs) sub.close();
    watcher?.ws.terminate();
    inspector?.close();
    await stopAll(processes);
    for (const cleanup of cleanups.reverse()) await cleanup();
    await dropNatsPrefix(NATS_URL, prefix);
  }
}

await main();
process.exit(0);
