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
import { fileURLToPath } from 'node:url';
import { connectBus, decodeJson, encodeText, partitionOf, subjects, type NatsConnection } from '@rtm/bus';
import { createEnvironment } from '@rtm/auth';
import { encodeCommand, frameRequest, type CommandReply } from '@rtm/schemas';
import { createTestDatabase } from '../helpers/database.ts';
import { mintToken } from '../helpers/http.ts';
import { reportGoal } from './report.ts';
import type { RunningProcess } from '../helpers/cluster.ts';
import { serverPublish } from '../helpers/commands.ts';
import { Inspector, gatewayMemory } from './gateway-memory.ts';
import { bareMemory, serveBareWs, startBareWs } from './lib/connect-bare-ws.ts';
import { Client } from './lib/connect-clients.ts';
import { printResults, run, watchWarnings, type Case, type Result, type RunOptions, type Server } from './lib/connect-run.ts';
import { heapSampler, profiler } from './lib/v8-profiles.ts';
import { fmt, sleep } from './lib/figures.ts';
import { startGatewayAndNode } from './lib/services.ts';

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
/** Before reading the gateway's memory: its asynchronous work on what just happened (presence, kicks) finishes. */
const SETTLE_MS = 1_000;
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const TEXT = 'multiplexed fan-out benchmark message of a typical chat size';
const SELF = fileURLToPath(import.meta.url);

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
    const [gateway] = await startGatewayAndNode(
      processes,
      {
        ...common,
        MAX_SUBSCRIPTIONS: String(Math.max(SOLO_SUBSCRIPTIONS, SUBSCRIPTIONS_EACH)),
        // a client subscribes to all its channels at once
        CONNECT_FRAMES_PER_SECOND: '100000',
        // every connection comes from this one process's address
        MAX_CONNECTIONS_PER_IP: String(Math.max(2_048, CONNECTIONS * 2)),
        PRESENCE_TTL_MS: String(PRESENCE_TTL_MS),
        NODE_OPTIONS: '--inspect=127.0.0.1:0',
      },
      common,
      (started) => (warnings = watchWarnings(started)),
    );
    inspector = await Inspector.of(gateway.name, gateway.output);
    const barePrefix = `benchbare${process.pid}`;
    bare = await startBareWs(SELF, NATS_URL, barePrefix, PROFILE);
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
      profile: profiler(inspector, 'rtm', PROFILE),
      heapSampling: HEAP_SAMPLING ? heapSampler(inspector!) : undefined,
    });
    const bareServer: Server = {
      name: 'bare ws',
      url: () => bare!.url,
      profile: profiler(bare.inspector, 'bare', PROFILE),
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
      {
        key: 'shared',
        label: `${CONNECTIONS} × ${SUBSCRIPTIONS_EACH}`,
        connections: CONNECTIONS,
        channels: sharedChannels,
        messagesPerChannel: MESSAGES_PER_CHANNEL_SHARED,
      },
    ].filter((c) => CASES.includes(c.key));
    process.stdout.write(
      `multiplexed fan-out: ${WINDOW} publishes in flight over NATS; subscribing ${SUBSCRIBE_WAVE} connection(s) at a time; ` +
        `1 × ${SOLO_SUBSCRIPTIONS}: ${MESSAGES_PER_CHANNEL_SOLO} messages per channel, one subscriber each; ` +
        `${CONNECTIONS} × ${SUBSCRIPTIONS_EACH}: ${MESSAGES_PER_CHANNEL_SHARED} messages per channel, ${CONNECTIONS} subscribers each\n\n`,
    );
    const results: Result[] = [];
    const options: RunOptions = { window: WINDOW, subscribeWave: SUBSCRIBE_WAVE, watchAfterCloseMs: WATCH_AFTER_CLOSE_MS };
    for (const c of cases) {
      const single = c.connections === 1;
      results.push(await run(bareServer, c, options));
      results.push(
        await run(
          rtm((i) => connectUrl(single ? 'solo' : `u${i}`)),
          c,
          options,
        ),
      );
    }

    printResults(results);
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
