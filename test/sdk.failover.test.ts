import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client, Message, PublishResult } from '@rtm/client';
import { startCluster, type Cluster } from './helpers/cluster.ts';
import { client as http, mintToken } from './helpers/http.ts';
import { ownerOf } from './helpers/partition-owner.ts';
import { startTcpProxy } from './helpers/tcp-proxy.ts';
import { connected, sdkClient, sleep, until } from './helpers/sdk.ts';

/**
 * Publishes `perChannel` messages to each channel through `publisher` (round robin, ~30/s, not
 * waiting for acks, with a burst in the middle of which `outage` is called), and checks what the
 * application and the database saw:
 * - every publish resolved (re-sent after the outage with its idempotency key when needed);
 * - the subscriber got every acknowledged message exactly once, in seq order;
 * - history holds each published message exactly once, with contiguous seqs.
 */
async function streamThroughOutage(options: {
  cluster: Cluster;
  controlUrl: string;
  secretKey: string;
  publisher: Client;
  subscriber: Client;
  channels: string[];
  perChannel: number;
  outage: () => Promise<void>;
}) {
  const { publisher, subscriber, channels, perChannel } = options;
  const received = new Map<string, Message[]>(channels.map((c) => [c, []]));
  await Promise.all(channels.map((c) => subscriber.channel(c).subscribe((m) => received.get(c)!.push(m), { since: 0 }).ready));
  const total = channels.length * perChannel;
  const acks: Array<Promise<PublishResult & { channelId: string; n: number }>> = [];
  let outage: Promise<void> | undefined;
  // a burst around the outage, so that some publishes are committed but their acks are lost
  const burst = Math.floor(total / 3);
  for (let i = 0; i < total; i++) {
    const channelId = channels[i % channels.length]!;
    const n = Math.floor(i / channels.length);
    acks.push(
      publisher
        .channel(channelId)
        .publish({ n })
        .then((ack) => ({ ...ack, channelId, n })),
    );
    if (i === burst + 6) outage = options.outage();
    await sleep(i >= burst && i < burst + 12 ? 2 : 33);
  }
  await outage;
  const results = await Promise.all(acks);

  const control = http(options.controlUrl, options.secretKey);
  for (const channelId of channels) {
    const acked = results
      .filter((r) => r.channelId === channelId)
      .map((r) => r.seq)
      .sort((a, b) => a - b);
    assert.deepEqual(
      acked,
      Array.from({ length: perChannel }, (_, i) => i + 1),
      `${channelId}: each publish committed once, seqs contiguous`,
    );
    await until(`${channelId}: the subscriber has every acknowledged message`, () => received.get(channelId)!.length >= perChannel, 30_000);
    await sleep(200);
    const seen = received.get(channelId)!;
    assert.deepEqual(
      seen.map((m) => m.seq),
      acked,
      `${channelId}: every acknowledged message delivered exactly once, in seq order`,
    );
    const { body } = await control.get(`/v1/channels/${channelId}/history?limit=500`);
    const ns = body.messages.map((m: Message) => (m.content as { n: number }).n).sort((a: number, b: number) => a - b);
    assert.deepEqual(
      ns,
      Array.from({ length: perChannel }, (_, i) => i),
      `${channelId}: history holds each publish exactly once`,
    );
    assert.deepEqual(
      seen.map((m) => m.id),
      body.messages.map((m: Message) => m.id),
      `${channelId}: the subscriber saw what history holds`,
    );
  }
}

function tokens(controlUrl: string, secretKey: string) {
  return (userId: string) => () => mintToken(controlUrl, secretKey, userId);
}

test('sdk failover - kill -9 of the channel-node that owns the channels, mid-stream', async (t) => {
  const cluster = await startCluster(t, {
    gateways: 1,
    channelNodes: 2,
    env: { REBALANCE_MS: '250', OWNER_TIMEOUT_MS: '2000' },
  });
  const env = await cluster.createEnvironment();
  const gw = cluster.gateways[0]!;
  const [victim, survivor] = cluster.channelNodes as [(typeof cluster.channelNodes)[0], (typeof cluster.channelNodes)[0]];
  // wait until both nodes own partitions, then pick channels: three owned by the victim, one by the survivor
  const candidates = Array.from({ length: 64 }, (_, i) => `fo-${i}`);
  let channels: string[] = [];
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; ) {
    // one at a time: 64 lock look-ups at once queue on the test's small pool, and on a loaded
    // machine the last ones outwaited its connection time-out
    const owners: (readonly [string, Awaited<ReturnType<typeof ownerOf>>])[] = [];
    for (const c of candidates) owners.push([c, await ownerOf(cluster, env.environmentId, c)] as const);
    const ofVictim = owners.filter(([, owner]) => owner === victim).map(([c]) => c);
    const ofSurvivor = owners.filter(([, owner]) => owner === survivor).map(([c]) => c);
    if (ofVictim.length >= 3 && ofSurvivor.length >= 1 && owners.every(([, owner]) => owner)) {
      channels = [...ofVictim.slice(0, 3), ofSurvivor[0]!];
      break;
    }
    await sleep(250);
  }
  assert.equal(channels.length, 4, 'partitions were not spread over both channel-nodes in time');

  const tokenFor = tokens(gw.controlUrl, env.secretKey);
  const subscriber = sdkClient(t, gw.realtimeUrl, tokenFor('reader'));
  const publisher = sdkClient(t, gw.realtimeUrl, tokenFor('writer'), { maxQueuedPublishes: 1_000 });
  await Promise.all([connected(subscriber), connected(publisher)]);
  await streamThroughOutage({
    cluster,
    controlUrl: gw.controlUrl,
    secretKey: env.secretKey,
    publisher,
    subscriber,
    channels,
    perChannel: 40,
    outage: async () => {
      await victim.kill();
    },
  });
  // the survivor took the victim's channels over
  for (const channelId of channels) assert.equal(await ownerOf(cluster, env.environmentId, channelId), survivor, channelId);
});

test('sdk failover - the gateway holding the connections is killed mid-stream; clients move to the other one behind the balancer', async (t) => {
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const [first, second] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const proxy = await startTcpProxy([first.realtimeUrl, second.realtimeUrl]);
  t.after(() => proxy.close());

  const tokenFor = tokens(second.controlUrl, env.secretKey);
  const subscriber = sdkClient(t, proxy.url, tokenFor('reader'));
  const publisher = sdkClient(t, proxy.url, tokenFor('writer'), { maxQueuedPublishes: 1_000 });
  await Promise.all([connected(subscriber), connected(publisher)]);
  assert.equal(proxy.open(first.realtimeUrl), 2, 'both clients are on the first gateway');
  const control = http(second.controlUrl, env.secretKey);
  const committed = async () => {
    let total = 0;
    for (const channelId of ['gw-a', 'gw-b']) total += (await control.get(`/v1/channels/${channelId}/history?limit=500`)).body.messages.length;
    return total;
  };
  const states: string[] = [];
  for (const c of [subscriber, publisher]) c.on('state', (state, change) => states.push(`${state}${change.code ? ` ${change.code}` : ''}`));

  await streamThroughOutage({
    cluster,
    controlUrl: second.controlUrl,
    secretKey: env.secretKey,
    publisher,
    subscriber,
    channels: ['gw-a', 'gw-b'],
    perChannel: 60,
    outage: async () => {
      // the way back is lost first: publishes still reach the gateway and commit, their acks never
      // reach the client; only the same idempotency key on the re-send keeps them from being stored twice
      const before = await committed();
      proxy.dropReplies();
      for (const deadline = Date.now() + 10_000; (await committed()) < before + 3; await sleep(50)) {
        assert.ok(Date.now() < deadline, 'publishes kept committing while their acks were lost');
      }
      await first.kill();
    },
  });
  assert.ok(states.filter((s) => s.startsWith('disconnected')).length >= 2, `both clients lost their connection: ${states}`);
  assert.equal(subscriber.state, 'connected');
  assert.equal(proxy.open(second.realtimeUrl), 2, 'both clients are on the second gateway now');
});
