/**
 * `npm run bench -- reactions`: does a reaction storm on one message slow its channel's publishes?
 *
 * One gateway and one channel-node (the project's defaults), a fresh database and NATS prefix.
 * One channel: a first message (the storm's target), then a steady publisher sending
 * PUBLISH_RATE single server publishes a second to the channel (open loop, over PUBLISH_CONNECTIONS
 * keep-alive connections, in a process of its own: lib/reaction-load.ts) for the whole run, its latency
 * (request sent → 201) taken per window. The storm: REACTION_RATE reactions a second to the
 * target message (open loop, over REACTION_CONNECTIONS keep-alive connections, in a second
 * process), every reaction from a different user (`fan-<n>`, one of 8 types in turn), by default
 * on the realtime edge with each user's own token (BENCH_REACTIONS_VIA=control: the control plane,
 * secret key and `userId`). The owner lets a message's reactions in as one group at most every
 * 250 ms (apps/channel-node reaction-gate.ts): one summary commit and one `summary` frame.
 *
 * Windows, each WINDOW_MS long, alternate: alone, then ROUNDS times storm, alone (after a warm-up
 * of the publisher and of the storm together, WARMUP_MS, so both paths are compiled before
 * anything is measured, and a pause after each change of load). The baseline is every alone
 * window together, the storm every storm window together: alternating, symmetric around each storm,
 * so neither a drift of the machine's load nor the tables' growth favours one side.
 * Each window reports the publishes' rate, p50, p99 and failures; a storm window also the
 * reactions sent and answered (their rate actually achieved), their ack latency (which includes
 * up to 250 ms held for the message's next group, by design), the generator's own lateness,
 * event-loop delay and requests in flight against its connections (is the load generator the
 * bottleneck?), and the `summary` frames per second a subscriber of the channel received. CPU
 * (cpu-meter.ts): µs per publish of every process over the alone windows; over the storm windows,
 * the CPU beyond the alone windows' rate, per reaction (lib/reaction-report.ts). Each service's
 * GC, loop delay and commits per window (process-pauses.ts).
 *
 * Goal: the channel's publish p99 during the storm ≤ 2× its p99 alone (same run). Options:
 * BENCH_PUBLISH_RATE (200), BENCH_REACTION_RATE (1000), BENCH_REACTION_CONNECTIONS (1536),
 * BENCH_PUBLISH_CONNECTIONS (64), BENCH_REACTIONS_VIA (edge | control), BENCH_REACTION_TARGET
 * (same | other: the storm on a message of another channel), BENCH_REACTION_PUBLISH_GATEWAY (own:
 * the publisher through a second gateway), BENCH_REACTION_WINDOW_MS (10000),
 * BENCH_REACTION_ROUNDS (3), BENCH_REACTION_WARMUP_MS (4000), BENCH_CPU_PROF_DIR (the gateway
 * and the channel-node write CPU profiles there).
 */
import { randomBytes } from 'node:crypto';
import { createEnvironment, signToken, USER_TOKEN_AUDIENCE } from '@rtm/auth';
import { deployLimits } from '@rtm/limits';
import { partitionOf } from '@rtm/bus';
import { Pool as HttpPool } from 'undici';
import { createTestDatabase } from '../helpers/database.ts';
import { dropNatsPrefix, startProcess, waitReady, type RunningProcess } from '../helpers/cluster.ts';
import { byName, cpuWindow, machineCpuMicros, self } from './cpu-meter.ts';
import { pausesWindow } from './process-pauses.ts';
import { fmt, sleep } from './lib/figures.ts';
import { counterSum, generator, subscriber, type Generator } from './lib/reaction-peers.ts';
import { combine, describe, describeCombined, type Combined, type Window } from './lib/reaction-report.ts';
import { profilingEnv, startGatewayAndNode, stopAll } from './lib/services.ts';
import { reportGoal } from './report.ts';

const PUBLISH_RATE = Number(process.env.BENCH_PUBLISH_RATE ?? 200);
const REACTION_RATE = Number(process.env.BENCH_REACTION_RATE ?? 1_000);
const REACTION_CONNECTIONS = Number(process.env.BENCH_REACTION_CONNECTIONS ?? 1_536);
/** The publisher's connections: enough that a stall of 300 ms at PUBLISH_RATE never waits for one. */
const PUBLISH_CONNECTIONS = Number(process.env.BENCH_PUBLISH_CONNECTIONS ?? 64);
const VIA = process.env.BENCH_REACTIONS_VIA === 'control' ? 'control' : 'edge';
const WINDOW_MS = Number(process.env.BENCH_REACTION_WINDOW_MS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_REACTION_ROUNDS ?? 3);
const WARMUP_MS = Number(process.env.BENCH_REACTION_WARMUP_MS ?? 4_000);
/** After each change of load, before the next window (held reactions commit within 250 ms). */
const SETTLE_MS = 1_500;
const GOAL = 2;
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const CHANNEL = 'storm-room';
/**
 * BENCH_REACTION_TARGET=other: the storm's message is in another channel, of another partition (its
 * own actor), so the publishes share the machine and the processes with the storm but not their
 * channel's actor: what the storm costs them through CPU alone.
 */
const OTHER_TARGET = process.env.BENCH_REACTION_TARGET === 'other';
/**
 * BENCH_REACTION_PUBLISH_GATEWAY=own: the publisher goes through a second gateway, as a load
 * balancer that spreads connections would have some publishers: the storm then shares the machine
 * and the channel-node with the publishes, not the gateway's event loop.
 */
const OWN_GATEWAY = process.env.BENCH_REACTION_PUBLISH_GATEWAY === 'own';

async function main(): Promise<void> {
  const cleanups: (() => Promise<void>)[] = [];
  const processes: RunningProcess[] = [];
  const generators: Generator[] = [];
  const prefix = `react${randomBytes(4).toString('hex')}`;
  try {
    const db = await createTestDatabase({ after: (fn: () => Promise<void>) => void cleanups.push(fn) });
    const env = await createEnvironment(db.pool, { organization: 'bench', project: 'bench', environment: 'reactions' });
    // the benchmark measures the path, not its rate limits: the environment's and the key's out of
    // the way (each user's 20 reactions a second is not reached: every user reacts once)
    await deployLimits(db.pool, env.environmentId, {
      environmentMessagesPerSecond: 1_000_000_000,
      secretKeyRequestsPerSecond: 1_000_000_000,
      environmentEdgeReadsPerSecond: 1_000_000_000,
    });
    const common = { DATABASE_URL: db.url, NATS_URL, NATS_PREFIX: prefix };
    const profiling = profilingEnv();
    const [gateway, node] = await startGatewayAndNode(processes, { ...common, ...profiling }, { ...common, ...profiling });
    let publishGateway = gateway;
    if (OWN_GATEWAY) {
      publishGateway = await startProcess('gateway', { ...common, ...profiling });
      processes.push(publishGateway);
      await waitReady(publishGateway);
    }

    const { rows } = await db.pool.query<{ id: string; secret: Buffer }>(
      'select id, secret from signing_keys where environment_id = $1 and retired_at is null order by created_at desc limit 1',
      [env.environmentId],
    );
    const signing = { id: rows[0]!.id, environmentId: env.environmentId, secretHex: rows[0]!.secret.toString('hex') };
    const watcherToken = (
      await signToken(
        { id: signing.id, environmentId: env.environmentId, secret: new Uint8Array(rows[0]!.secret) },
        { issuer: process.env.TOKEN_ISSUER ?? 'rtm', audience: USER_TOKEN_AUDIENCE, subject: 'watcher', ttlSeconds: 3_600 },
      )
    ).token;

    // the storm's target: the channel's first message (or another channel's, of another partition)
    const targetChannel = OTHER_TARGET ? otherPartitionChannel(env.environmentId) : CHANNEL;
    const control = new HttpPool(gateway.controlUrl, { connections: 1 });
    cleanups.push(() => control.close());
    const first = await control.request({
      method: 'POST',
      path: `/v1/channels/${targetChannel}/messages`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${env.secretKey}` },
      body: JSON.stringify({ content: { text: 'react to me' } }),
    });
    const target = (await first.body.json()) as { id: string };
    if (first.statusCode !== 201) throw new Error(`the target message: ${first.statusCode} ${JSON.stringify(target)}`);
    const watcher = await subscriber(gateway.realtimeUrl, watcherToken, [...new Set([CHANNEL, targetChannel])]);
    cleanups.push(async () => watcher.close());

    // every reaction a different user: tokens for the warm-up and the storm window, and some spare
    const users = Math.ceil(((REACTION_RATE * (WARMUP_MS + ROUNDS * (WINDOW_MS + 2 * SETTLE_MS))) / 1000) * 1.1);
    process.stdout.write(
      `reactions: ${OWN_GATEWAY ? 'the publisher through a gateway of its own; ' : ''}${OTHER_TARGET ? `the storm on a message of ${targetChannel} (another partition), the publishes to ${CHANNEL}` : 'one channel'}; ${PUBLISH_RATE} publishes/s (server publish, open loop) throughout; the storm ${REACTION_RATE} reactions/s to ONE message ` +
        `over ${REACTION_CONNECTIONS} keep-alive connections, ${VIA === 'edge' ? 'realtime edge, each user with its own token' : 'control plane, secret key and userId'}, ` +
        `every reaction a different user (${fmt(users)} users); ${WARMUP_MS / 1000}s warm-up of both, then windows of ${WINDOW_MS / 1000}s: alone, then ${ROUNDS} × (storm, alone).\n` +
        "The machine has 2 cores shared by the service, Postgres, NATS and the generators: read the ratio to the same run's alone windows.\n",
    );
    const publisher = await generator({
      mode: 'publish',
      url: publishGateway.controlUrl,
      secretKey: env.secretKey,
      rate: PUBLISH_RATE,
      channelId: CHANNEL,
      connections: PUBLISH_CONNECTIONS,
    });
    generators.push(publisher);
    const storm = await generator({
      mode: 'react',
      url: VIA === 'edge' ? gateway.realtimeUrl : gateway.controlUrl,
      rate: REACTION_RATE,
      channelId: targetChannel,
      messageId: target.id,
      connections: REACTION_CONNECTIONS,
      via: VIA,
      secretKey: env.secretKey,
      signing,
      users,
    });
    generators.push(storm);

    const groups = {
      gateway: () => [gateway.child.pid!],
      ...(OWN_GATEWAY && { "publishers' gateway": () => [publishGateway.child.pid!] }),
      'channel-node': () => [node.child.pid!],
      postgres: byName('postgres'),
      nats: byName('nats-server'),
      publisher: () => [publisher.child.pid!],
      'storm generator': () => [storm.child.pid!],
      'bench (subscriber)': self,
    };
    const measure = async (name: string, stormOn: boolean): Promise<Window> => {
      const pauses = await Promise.all([gateway, node].map((p) => pausesWindow(p.internalUrl)));
      await Promise.all([publisher.phase(), stormOn ? storm.phase() : Promise.resolve()]);
      watcher.take();
      const commandsBefore = await counterSum(node.internalUrl, 'channel_commands_total');
      const cpu = cpuWindow(groups);
      const machine = machineCpuMicros();
      const started = Date.now();
      await sleep(WINDOW_MS);
      const spent = cpu.end();
      const machineBusy = (machineCpuMicros() - machine) / 1e6;
      const seconds = (Date.now() - started) / 1000;
      const frames = watcher.take();
      const ownerCommands = (await counterSum(node.internalUrl, 'channel_commands_total')) - commandsBefore;
      const [publish, stormFigures] = await Promise.all([publisher.take(), stormOn ? storm.take() : Promise.resolve(undefined)]);
      return {
        name,
        publish,
        ...(stormFigures && { storm: stormFigures }),
        frames,
        cpu: spent,
        machineBusy,
        seconds,
        ownerCommands,
        pauses: await Promise.all(pauses.map((w) => w.end())),
      };
    };

    // warm-up: both paths compiled, the message already reacted to
    await publisher.run();
    await storm.run();
    await sleep(WARMUP_MS);
    await storm.hold();
    await sleep(SETTLE_MS);
    const windows: Window[] = [];
    windows.push(await measure('alone 1', false));
    for (let round = 1; round <= ROUNDS; round++) {
      await storm.run();
      await sleep(SETTLE_MS);
      windows.push(await measure(`storm ${round}`, true));
      await storm.hold();
      await sleep(SETTLE_MS);
      windows.push(await measure(`alone ${round + 1}`, false));
    }
    await publisher.hold();
    await sleep(SETTLE_MS);
    const final = watcher.take();
    for (const w of windows) process.stdout.write(describe(w));
    report(combine(windows), final.lastSummaryTotal || windows.findLast((w) => w.storm)!.frames.lastSummaryTotal);
  } finally {
    for (const g of generators) await g.stop();
    await stopAll(processes);
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: Error) => process.stderr.write(`clean-up: ${error.message}\n`));
    await dropNatsPrefix(NATS_URL, prefix).catch(() => {});
  }
}

/** A channel of the environment whose partition is not CHANNEL's (PARTITIONS as the processes run it). */
function otherPartitionChannel(environmentId: string): string {
  const partitions = Number(process.env.PARTITIONS ?? 32);
  const mine = partitionOf(environmentId, CHANNEL, partitions);
  for (let n = 0; ; n++) if (partitionOf(environmentId, `storm-elsewhere-${n}`, partitions) !== mine) return `storm-elsewhere-${n}`;
}

function report(c: Combined, lastSummaryTotal: number): void {
  process.stdout.write(describeCombined(c, REACTION_RATE, lastSummaryTotal));
  const ratio = c.storm.p99 / c.alone.p99;
  const reactionRate = c.storm.reactions / c.storm.seconds;
  reportGoal({
    path: `publish p99 on a channel during a reaction storm on one ${OTHER_TARGET ? "of another channel's messages" : 'of its messages'} (${PUBLISH_RATE} publishes/s, ${REACTION_RATE} reactions/s via ${VIA}${OWN_GATEWAY ? ', publishes through another gateway' : ''})`,
    goal: `≤ ${GOAL}× alone`,
    measured: `p99 ${c.storm.p99.toFixed(1)} ms, p50 ${c.storm.p50.toFixed(1)} ms (${fmt(reactionRate)} reactions/s answered)`,
    baseline: `alone p99 ${c.alone.p99.toFixed(1)} ms, p50 ${c.alone.p50.toFixed(1)} ms`,
    ratio,
    met: ratio <= GOAL,
  });
}

await main();
process.exit(0);
