/**
 * The fairness benchmark's cases (test/bench/fairness.bench.ts): B alone, then B while A floods
 * publishes, storms subscribes or holds sockets that never read; each ratio during / alone is a
 * goal in the report.
 */
import { Pool as HttpPool } from 'undici';
import type WebSocket from 'ws';
import type { RunningProcess } from '../../helpers/cluster.ts';
import { mintToken } from '../../helpers/http.ts';
import { reportGoal } from '../report.ts';
import { sleep } from './figures.ts';
import {
  DURATION_MS,
  QUIET_CLIENTS,
  QUIET_PAUSE_MS,
  SLOW_BYTES,
  SLOW_RATE,
  SLOW_SOCKETS,
  STORM_CONNECTIONS,
  STORM_SUBSCRIBES,
  WARMUP_MS,
} from './fairness-options.ts';
import { channelSocket, connectSocket, line, publishToFrame, publisher, subscriber, type Figures } from './fairness-probes.ts';

export async function quietPhase(name: string, gateway: RunningProcess, secretKey: string): Promise<Figures> {
  const quiet = publisher(gateway.controlUrl, secretKey, QUIET_CLIENTS, () => `quiet-${Math.floor(Math.random() * 100)}`, QUIET_PAUSE_MS);
  await sleep(WARMUP_MS);
  quiet.measure();
  await sleep(DURATION_MS);
  const figures = await quiet.stop();
  line(name, figures);
  return figures;
}

/**
 * A's storm: `connections` connections keep `inFlight` subscribes outstanding between them; each
 * answer is followed at once by an unsubscribe and a subscribe to another channel.
 */
async function subscribeStorm(realtimeUrl: string, tokens: string[], inFlight: number) {
  let stopped = false;
  let answered = 0;
  let refused = 0;
  const perConnection = Math.ceil(inFlight / tokens.length);
  const sockets: WebSocket[] = [];
  const run = async (k: number): Promise<void> => {
    const generation = new Map<number, number>();
    const channelOf = (slot: number) => `s${k}-${slot}-${(generation.get(slot) ?? 0) % 4}`;
    let ws: WebSocket | undefined;
    ws = await connectSocket(realtimeUrl, tokens[k]!, (frame) => {
      if (stopped || (frame.op !== 'subscribed' && frame.op !== 'error') || typeof frame.ref !== 'number') return;
      if (frame.op === 'subscribed') answered++;
      else refused++;
      const slot = frame.ref % perConnection;
      ws!.send(JSON.stringify({ op: 'unsubscribe', ref: `u${frame.ref}`, channelId: channelOf(slot) }));
      generation.set(slot, (generation.get(slot) ?? 0) + 1);
      ws!.send(JSON.stringify({ op: 'subscribe', ref: frame.ref + perConnection, channelId: channelOf(slot) }));
    });
    sockets.push(ws);
    ws.once('close', () => {
      if (!stopped) setTimeout(() => void run(k).catch(() => {}), 100);
    });
    for (let slot = 0; slot < perConnection; slot++) ws.send(JSON.stringify({ op: 'subscribe', ref: slot, channelId: channelOf(slot) }));
  };
  await Promise.all(tokens.map((_, k) => run(k)));
  return {
    async stop() {
      stopped = true;
      for (const ws of sockets) ws.close();
      return { answered, refused };
    },
  };
}

function goal(path: string, during: Figures, alone: Figures, limit = 3): number {
  const ratio = during.p99 / Math.max(0.001, alone.p99);
  reportGoal({
    path,
    goal: `≤ ${limit}× alone (p99)`,
    measured: `${during.p99.toFixed(1)} ms`,
    baseline: `alone ${alone.p99.toFixed(1)} ms`,
    ratio,
    met: ratio <= limit,
  });
  return ratio;
}

/** B subscribes and publishes alone, then while A's storm runs. */
export async function stormCase(gateway: RunningProcess, a: { secretKey: string }, b: { secretKey: string }): Promise<void> {
  const bToken = await mintToken(gateway.controlUrl, b.secretKey, 'b-subscriber');
  const phase = async (name: string) => {
    const subscribes = await subscriber(gateway.realtimeUrl, bToken);
    const publishes = publisher(gateway.controlUrl, b.secretKey, 2, () => `b-pub-${Math.floor(Math.random() * 20)}`, QUIET_PAUSE_MS * 2);
    await sleep(WARMUP_MS);
    subscribes.measure();
    publishes.measure();
    await sleep(DURATION_MS);
    const sub = await subscribes.stop();
    const pub = await publishes.stop();
    line(`B subscribes ${name}`, sub);
    line(`B publishes ${name}`, pub);
    return { sub, pub };
  };
  const alone = await phase('alone');
  const aTokens = await Promise.all(Array.from({ length: STORM_CONNECTIONS }, (_, k) => mintToken(gateway.controlUrl, a.secretKey, `storm-${k}`)));
  const storm = await subscribeStorm(gateway.realtimeUrl, aTokens, STORM_SUBSCRIBES);
  const during = await phase(`during A's storm (${STORM_SUBSCRIBES} subscribes in flight)`);
  const { answered, refused } = await storm.stop();
  process.stdout.write(`  (A's storm: ${answered} subscribes answered, ${refused} refused over the period)\n`);
  const sub = goal(`neighbour subscribe p99, ${STORM_SUBSCRIBES} subscribes storming`, during.sub, alone.sub);
  const pub = goal(`neighbour publish p99, ${STORM_SUBSCRIBES} subscribes storming`, during.pub, alone.pub);
  process.stdout.write(`ratios: B subscribe p99 during / alone = ${sub.toFixed(2)}, B publish p99 during / alone = ${pub.toFixed(2)} (goal ≤ 3)\n\n`);
}

/** B publishes and reads alone, then while A holds SLOW_SOCKETS non-reading sockets on a busy channel. */
export async function slowCase(gateway: RunningProcess, a: { secretKey: string }, b: { secretKey: string }): Promise<void> {
  const bToken = await mintToken(gateway.controlUrl, b.secretKey, 'b-reader');
  const phase = async (name: string) => {
    const probe = await publishToFrame(gateway, b.secretKey, bToken, 'b-live');
    await sleep(WARMUP_MS);
    probe.measure();
    await sleep(DURATION_MS);
    const figures = await probe.stop();
    line(`B publishes ${name}`, figures.publish);
    line(`B publish → frame ${name}`, figures.frame);
    return figures;
  };
  const alone = await phase('alone');
  // 100 sockets per user (socketsPerUser)
  const users = Math.ceil(SLOW_SOCKETS / 100);
  const tokens = await Promise.all(Array.from({ length: users }, (_, k) => mintToken(gateway.controlUrl, a.secretKey, `slow-${k}`)));
  const held: WebSocket[] = [];
  let closedByServer = 0;
  for (let at = 0; at < SLOW_SOCKETS; at += 200) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(200, SLOW_SOCKETS - at) }, (_, i) => channelSocket(gateway.realtimeUrl, 'hot', tokens[Math.floor((at + i) / 100)]!)),
    );
    for (const ws of batch) {
      ws.pause();
      ws.once('close', () => void closedByServer++);
      held.push(ws);
    }
  }
  const http = new HttpPool(gateway.controlUrl, { connections: 2 });
  const blob = 'x'.repeat(SLOW_BYTES);
  let stopped = false;
  const flow = (async () => {
    while (!stopped) {
      const started = Date.now();
      try {
        const res = await http.request({
          method: 'POST',
          path: '/v1/channels/hot/messages',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${a.secretKey}` },
          body: JSON.stringify({ content: { blob } }),
        });
        await res.body.text();
      } catch {
        // counted nowhere: A's figures are not the point
      }
      await sleep(Math.max(0, 1000 / SLOW_RATE - (Date.now() - started)));
    }
  })();
  const during = await phase(`while A holds ${SLOW_SOCKETS} sockets that do not read (${SLOW_RATE} msg/s of ${SLOW_BYTES} B)`);
  const shedMetric = await (await fetch(`${gateway.internalUrl}/internal/metrics`)).text();
  const shedLine = shedMetric.split('\n').find((l) => l.startsWith('gateway_sockets_shed_total'));
  stopped = true;
  await flow;
  await http.close();
  process.stdout.write(`  (A: ${closedByServer} of ${held.length} non-reading sockets closed by the gateway; ${shedLine ?? 'no shed metric'})\n`);
  for (const ws of held) ws.terminate();
  const pub = goal(`neighbour publish p99, ${SLOW_SOCKETS} sockets not reading`, during.publish, alone.publish);
  const frame = goal(`neighbour publish → frame p99, ${SLOW_SOCKETS} sockets not reading`, during.frame, alone.frame);
  process.stdout.write(`ratios: B publish p99 during / alone = ${pub.toFixed(2)}, B publish → frame p99 during / alone = ${frame.toFixed(2)} (goal ≤ 3)\n\n`);
}
