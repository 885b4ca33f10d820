/**
 * The cluster test's world (production.cluster.ts): set up once (infrastructure, fleet, webhook
 * receiver, the steady load), checked after every scenario against Postgres and the receiver
 * (`verify`), and the figures each scenario reports.
 */
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { createEnvironment } from '@rtm/auth';
import { createPool, migrate, type Pool } from '@rtm/db';
import { tokenSigner } from '../helpers/tokens.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { Infra, freePort, type Balancer, type GatewaySlot, type NatsNode, type Postgres } from './infra.ts';
import { Publishers, startSubscribers, type Subscriber } from './load.ts';
import { Fleet, gatewaysUp, until } from './fleet.ts';

export const SUBSCRIBERS = Number(process.env.CLUSTER_SUBSCRIBERS ?? 200);
export const PUBLISHERS = 4;
export const PARTITIONS = 32;
const CHANNELS = Array.from({ length: 10 }, (_, i) => `load-${i}`);

export interface World {
  infra: Infra;
  postgres: Postgres;
  nats: NatsNode[];
  balancer: Balancer;
  fleet: Fleet;
  pool: Pool;
  environmentId: string;
  receiver: Receiver;
  publishers: Publishers;
  subscribers: Subscriber[];
  figures: string[];
}

export const connectedCount = (world: World) => world.subscribers.filter((s) => s.client.state === 'connected').length;

/**
 * Pauses the load and checks everything that has been acknowledged so far, then resumes it:
 * - Postgres: every acked message present once (by id and by idempotency key), seqs 1..max per channel;
 * - sockets: each subscriber holds exactly seqs 1..max of its channel, in order;
 * - webhooks: every stored message's `message.published` event arrived at least once.
 */
export async function verify(world: World, scenario: string): Promise<{ messages: number; deliveries: number }> {
  await world.publishers.pause();
  const { rows } = await world.pool.query<{ channel_id: string; seq: string; id: string; key: string }>(
    `select c.id as channel_id, m.seq, m.id, m.content->>'key' as key from messages m join channels c on c.pk = m.channel_pk
     where c.environment_id = $1 order by c.id, m.seq`,
    [world.environmentId],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const keys = new Set(rows.map((r) => r.key));
  assert.equal(keys.size, rows.length, `${scenario}: no message stored twice (one row per idempotency key)`);
  for (const ack of world.publishers.acks) {
    const row = byId.get(ack.id);
    assert.ok(row, `${scenario}: acknowledged ${ack.id} (${ack.key}) is stored`);
    assert.equal(row.key, ack.key);
    assert.equal(Number(row.seq), ack.seq, `${scenario}: ${ack.id} has the seq its ack said`);
  }
  assert.equal(rows.length, world.publishers.acks.length, `${scenario}: every stored message was acknowledged once`);
  const lastSeq = new Map<string, number>();
  for (const channelId of CHANNELS) {
    const seqs = rows.filter((r) => r.channel_id === channelId).map((r) => Number(r.seq));
    assert.deepEqual(
      seqs,
      Array.from({ length: seqs.length }, (_, i) => i + 1),
      `${scenario}: ${channelId} seqs contiguous from 1`,
    );
    lastSeq.set(channelId, seqs.length);
  }
  await until(
    `${scenario}: every socket has every message of its channel`,
    () => world.subscribers.every((s) => s.received.length >= lastSeq.get(s.channelId)!),
    60_000,
  ).catch((error: Error) => {
    const behind = world.subscribers.filter((s) => s.received.length < lastSeq.get(s.channelId)!);
    throw new Error(
      `${error.message}; ${behind.length} behind, e.g. #${behind[0]?.index} ${behind[0]?.client.state} has ${behind[0]?.received.length}/${lastSeq.get(behind[0]!.channelId)}`,
    );
  });
  for (const s of world.subscribers) {
    const seqs = s.received.map((m) => m.seq);
    const want = Array.from({ length: lastSeq.get(s.channelId)! }, (_, i) => i + 1);
    if (seqs.length !== want.length || seqs.some((seq, i) => seq !== want[i])) {
      assert.fail(
        `${scenario}: socket #${s.index} on ${s.channelId} got seqs ${JSON.stringify(seqs.slice(0, 5))}… (${seqs.length}) instead of 1..${want.length} exactly once`,
      );
    }
  }
  const received = () => new Set(world.receiver.received.map((r) => JSON.parse(r.raw.toString('utf8')).id as string));
  await until(
    `${scenario}: every message.published event delivered`,
    () => {
      const got = received();
      return rows.every((r) => got.has(r.id));
    },
    90_000,
  ).catch((error: Error) => {
    const got = received();
    throw new Error(`${error.message}: ${rows.filter((r) => !got.has(r.id)).length} of ${rows.length} missing`);
  });
  world.publishers.resume();
  return { messages: rows.length, deliveries: world.receiver.received.length };
}

export function report(world: World, t: TestContext, line: string) {
  world.figures.push(line);
  t.diagnostic(line);
}

export function resumeFigures(world: World, from: number): string {
  const resumes = world.subscribers.flatMap((s) => s.resumes.filter((r) => r.at >= from));
  if (!resumes.length) return 'socket resumes: none needed';
  const ms = resumes.map((r) => r.ms).sort((a, b) => a - b);
  const codes = [...new Set(resumes.map((r) => r.code))].join('/');
  return `socket resumes: ${resumes.length} (close codes ${codes}), median ${ms[Math.floor(ms.length / 2)]} ms, p99 ${ms[Math.floor(ms.length * 0.99)]} ms, max ${ms.at(-1)} ms`;
}

export async function setUp(t: TestContext): Promise<World> {
  const infra = new Infra();
  let fleet: Fleet | undefined;
  let pool: Pool | undefined;
  const subscribersRef: { list: Subscriber[]; publishers?: Publishers } = { list: [] };
  // registered before anything starts: a failure anywhere below still removes every process and file
  const onExit = () => {
    for (const proc of fleet?.everStarted ?? []) proc.child.kill('SIGKILL');
    infra.killSync();
  };
  process.once('exit', onExit);
  // interrupted (Ctrl-C, a CI time-out): the same clean-up, then the usual exit status
  const onSignal = (signal: NodeJS.Signals) => {
    onExit();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  t.after(async () => {
    await subscribersRef.publishers?.stop().catch(() => {});
    for (const s of subscribersRef.list) s.client.close();
    // what the processes logged at error level, for whoever reads a failure
    for (const proc of fleet?.everStarted ?? []) {
      const errors = proc.output.filter((line) => /"level":(50|60)/.test(line));
      if (errors.length)
        process.stderr.write(
          `\n== ${proc.name}: ${errors.length} error lines\n${[...errors.slice(0, 5), ...(errors.length > 15 ? ['…'] : []), ...errors.slice(Math.max(5, errors.length - 10))].join('\n')}\n`,
        );
    }
    await fleet?.killAll();
    await pool?.end().catch(() => {});
    await infra.close();
    process.removeListener('exit', onExit);
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  });

  const started = Date.now();
  const [postgres, nats] = await Promise.all([infra.startPostgres(), infra.startNats(3)]);
  const admin = new pg.Client({ connectionString: `${postgres.serverUrl}/postgres` });
  await admin.connect();
  await admin.query('create database rtm');
  await admin.end();
  const databaseUrl = `${postgres.serverUrl}/rtm`;
  pool = createPool(databaseUrl, { max: 4, name: 'cluster-test' });
  await migrate(pool);
  const env = await createEnvironment(pool, { organization: 'cluster-org', project: 'cluster', environment: 'load' });

  const slots: GatewaySlot[] = [];
  for (let i = 0; i < 2; i++) slots.push({ controlPort: await freePort(), realtimePort: await freePort(), internalPort: await freePort() });
  const balancer = await infra.startHaproxy(slots);
  fleet = new Fleet({
    DATABASE_URL: databaseUrl,
    // every process gets the whole list: the servers do not advertise each other to clients
    NATS_URL: nats.map((n) => n.url).join(','),
    NATS_PREFIX: 'rtm',
    PARTITIONS: String(PARTITIONS),
    // behind the balancer every connection comes from it
    TRUST_PROXY: '127.0.0.1',
    MAX_CONNECTIONS_PER_IP: '0',
    // a delivery whose dispatcher was stopped mid-send is picked up again in seconds, not a minute
    WEBHOOK_RETRY_SCHEDULE: '1s,2s,5s,10s,30s',
    WEBHOOK_STALE_AFTER: '10s',
    WORKER_RECOVERY_INTERVAL: '1s',
  });
  await Promise.all([
    ...[1, 2, 3].map((i) => fleet!.add('channel-node', i)),
    ...[1, 2].map((i) => fleet!.add('dispatcher', i)),
    ...slots.map((slot, i) =>
      fleet!.add('gateway', i + 1, {
        CONTROL_PORT: String(slot.controlPort),
        REALTIME_PORT: String(slot.realtimePort),
        INTERNAL_PORT: String(slot.internalPort),
      }),
    ),
  ]);
  await until(
    'HAProxy sees both gateways up',
    () =>
      gatewaysUp(
        balancer,
        slots.map((_slot, i) => `gw${i + 1}`),
      ),
    20_000,
  );

  const receiver = await startReceiver(t);
  const config = await fetch(`${balancer.controlUrl}/v1/config`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${env.secretKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ webhooks: { url: receiver.url } }),
  });
  assert.equal(config.status, 200, await config.text());

  const sign = await tokenSigner(pool, env.environmentId);
  const subscribers = await startSubscribers(balancer.realtimeUrl, CHANNELS, SUBSCRIBERS, (userId) => sign(userId, 3_600));
  subscribersRef.list = subscribers;
  const publishers = new Publishers(balancer.controlUrl, env.secretKey, CHANNELS, PUBLISHERS, 40);
  subscribersRef.publishers = publishers;
  publishers.start();
  const world: World = { infra, postgres, nats, balancer, fleet, pool, environmentId: env.environmentId, receiver, publishers, subscribers, figures: [] };
  report(
    world,
    t,
    `cluster up in ${Date.now() - started} ms: 3 NATS, HAProxy, 2 gateways, 3 channel-nodes, 2 dispatchers; ${SUBSCRIBERS} sockets, ${PUBLISHERS} publishers`,
  );
  return world;
}
