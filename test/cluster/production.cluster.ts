/**
 * The production shape, as real processes on this machine: a private Postgres, three nats-server
 * processes clustered with JetStream, HAProxy in front of two gateways (control and realtime),
 * three channel-nodes, two dispatchers and a webhook receiver. A steady load runs throughout:
 * HTTP publishers with idempotency keys through the balancer, and 200 SDK sockets through the
 * balancer, each subscribed from seq 0. The scenarios run one after the other on the same cluster;
 * after each, the load is paused and everything is checked against Postgres and the receiver:
 * every acknowledged message stored once, seqs contiguous per channel, every socket holding
 * exactly 1..last of its channel, every message's webhook event delivered.
 *
 * `npm run test:cluster` runs it (not part of `npm test`: it takes minutes and the whole machine).
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { createEnvironment } from '@rtm/auth';
import { createPool, migrate, type Pool } from '@rtm/db';
import { startProcess, waitReady, type ProcessKind, type RunningProcess } from '../helpers/cluster.ts';
import { tokenSigner } from '../helpers/tokens.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { Infra, freePort, type Balancer, type GatewaySlot, type NatsNode, type Postgres } from './infra.ts';
import { Publishers, startSubscribers, type Subscriber } from './load.ts';

const SUBSCRIBERS = Number(process.env.CLUSTER_SUBSCRIBERS ?? 200);
/** CLUSTER_SCENARIOS=bd runs only scenarios b and d (each on the cluster the earlier ones left). */
const SCENARIOS = process.env.CLUSTER_SCENARIOS ?? 'abcd';
const scenario = (letter: string) => ({ skip: !SCENARIOS.includes(letter) && `not in CLUSTER_SCENARIOS=${SCENARIOS}` });
const PUBLISHERS = 4;
const CHANNELS = Array.from({ length: 10 }, (_, i) => `load-${i}`);
const PARTITIONS = 32;
const PARTITION_LOCKS = 735_111;
/** Behaviour bounds of the recovery mechanisms (scenario outcomes, not benchmarks). */
const NATS_RESUME_BOUND_MS = 5_000;
const POSTGRES_FULL_SERVICE_BOUND_MS = 10_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what: string, probe: () => boolean | Promise<boolean>, limitMs = 30_000): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await Promise.resolve(probe()).catch(() => false)) return Date.now() - started;
    if (Date.now() - started > limitMs) throw new Error(`${what}: not true after ${limitMs} ms`);
    await sleep(50);
  }
}

interface Member {
  kind: ProcessKind;
  slot: number;
  env: Record<string, string>;
  proc: RunningProcess;
}

class Fleet {
  readonly members: Member[] = [];
  readonly everStarted: RunningProcess[] = [];
  readonly env: Record<string, string>;
  constructor(env: Record<string, string>) {
    this.env = env;
  }

  async add(kind: ProcessKind, slot: number, extra: Record<string, string> = {}): Promise<Member> {
    const env = { ...this.env, NODE_NAME: `${kind}-${slot}`, ...extra };
    const member: Member = { kind, slot, env, proc: await this.launch(kind, env) };
    this.members.push(member);
    return member;
  }

  private async launch(kind: ProcessKind, env: Record<string, string>): Promise<RunningProcess> {
    const proc = await startProcess(kind, env, { readyTimeoutMs: 60_000 });
    this.everStarted.push(proc);
    await waitReady(proc, 60_000);
    return proc;
  }

  of(kind: ProcessKind): Member[] {
    return this.members.filter((m) => m.kind === kind);
  }

  /** SIGTERM, wait for the drain to end (exit 0), start again with the same settings and ports. */
  async stop(member: Member): Promise<void> {
    const code = await member.proc.stop();
    assert.equal(code, 0, `${member.proc.name} drained and exited 0 on SIGTERM:\n${member.proc.output.slice(-20).join('\n')}`);
  }

  async start(member: Member): Promise<void> {
    member.proc = await this.launch(member.kind, member.env);
  }

  async remove(member: Member): Promise<void> {
    await this.stop(member);
    this.members.splice(this.members.indexOf(member), 1);
  }

  killAll(): Promise<unknown> {
    return Promise.all(this.everStarted.map((proc) => proc.kill()));
  }
}

interface World {
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

/** Whether HAProxy has these gateways up in both backends (each checks on its own, so one may lag). */
async function gatewaysUp(balancer: Balancer, names: string[]): Promise<boolean> {
  for (const backend of ['control', 'realtime']) {
    const servers = await balancerServers(balancer, backend);
    if (!names.every((name) => servers.get(name)?.status === 'UP')) return false;
  }
  return true;
}

/** HAProxy's view of a backend: sessions and status per gateway. */
async function balancerServers(balancer: Balancer, backend: string): Promise<Map<string, { status: string; sessions: number }>> {
  const csv = await (await fetch(balancer.statsUrl)).text();
  const lines = csv.split('\n');
  const header = lines[0]!.replace(/^# /, '').split(',');
  const col = (name: string) => header.indexOf(name);
  const servers = new Map<string, { status: string; sessions: number }>();
  for (const line of lines.slice(1)) {
    const fields = line.split(',');
    if (fields[col('pxname')] !== backend || ['BACKEND', 'FRONTEND'].includes(fields[col('svname')]!)) continue;
    servers.set(fields[col('svname')]!, { status: fields[col('status')]!, sessions: Number(fields[col('scur')]) });
  }
  return servers;
}

/** Which channel-node sessions hold partition locks, and how many each. */
async function partitionHolders(pool: Pool): Promise<{ held: number; perHolder: number[] }> {
  const { rows } = await pool.query<{ n: number }>(
    `select count(*)::int as n from pg_locks l
     where l.locktype = 'advisory' and l.granted and l.objsubid = 2 and l.classid = $1::int8::oid
       and l.database = (select oid from pg_database where datname = current_database())
     group by l.pid`,
    [PARTITION_LOCKS],
  );
  const perHolder = rows.map((r) => r.n).sort((a, b) => a - b);
  return { held: perHolder.reduce((a, b) => a + b, 0), perHolder };
}

const connectedCount = (world: World) => world.subscribers.filter((s) => s.client.state === 'connected').length;

/**
 * Pauses the load and checks everything that has been acknowledged so far, then resumes it:
 * - Postgres: every acked message present once (by id and by idempotency key), seqs 1..max per channel;
 * - sockets: each subscriber holds exactly seqs 1..max of its channel, in order;
 * - webhooks: every stored message's `message.published` event arrived at least once.
 */
async function verify(world: World, scenario: string): Promise<{ messages: number; deliveries: number }> {
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
    assert.deepEqual(seqs, Array.from({ length: seqs.length }, (_, i) => i + 1), `${scenario}: ${channelId} seqs contiguous from 1`);
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
      assert.fail(`${scenario}: socket #${s.index} on ${s.channelId} got seqs ${JSON.stringify(seqs.slice(0, 5))}… (${seqs.length}) instead of 1..${want.length} exactly once`);
    }
  }
  const received = () => new Set(world.receiver.received.map((r) => JSON.parse(r.raw.toString('utf8')).id as string));
  await until(`${scenario}: every message.published event delivered`, () => {
    const got = received();
    return rows.every((r) => got.has(r.id));
  }, 90_000).catch((error: Error) => {
    const got = received();
    throw new Error(`${error.message}: ${rows.filter((r) => !got.has(r.id)).length} of ${rows.length} missing`);
  });
  world.publishers.resume();
  return { messages: rows.length, deliveries: world.receiver.received.length };
}

function report(world: World, t: TestContext, line: string) {
  world.figures.push(line);
  t.diagnostic(line);
}

function resumeFigures(world: World, from: number): string {
  const resumes = world.subscribers.flatMap((s) => s.resumes.filter((r) => r.at >= from));
  if (!resumes.length) return 'socket resumes: none needed';
  const ms = resumes.map((r) => r.ms).sort((a, b) => a - b);
  const codes = [...new Set(resumes.map((r) => r.code))].join('/');
  return `socket resumes: ${resumes.length} (close codes ${codes}), median ${ms[Math.floor(ms.length / 2)]} ms, p99 ${ms[Math.floor(ms.length * 0.99)]} ms, max ${ms.at(-1)} ms`;
}

async function setUp(t: TestContext): Promise<World> {
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
      if (errors.length) process.stderr.write(`\n== ${proc.name}: ${errors.length} error lines\n${[...errors.slice(0, 5), ...(errors.length > 15 ? ['…'] : []), ...errors.slice(Math.max(5, errors.length - 10))].join('\n')}\n`);
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
  await until('HAProxy sees both gateways up', () => gatewaysUp(balancer, slots.map((_slot, i) => `gw${i + 1}`)), 20_000);

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
  report(world, t, `cluster up in ${Date.now() - started} ms: 3 NATS, HAProxy, 2 gateways, 3 channel-nodes, 2 dispatchers; ${SUBSCRIBERS} sockets, ${PUBLISHERS} publishers`);
  return world;
}

test('cluster in production shape: rolling restart, NATS node lost, Postgres restarted, channel-nodes scaled', { timeout: 420_000 }, async (t) => {
  const world = await setUp(t);
  const { publishers, fleet } = world;
  await sleep(2_000);
  publishers.check();

  await t.test('a. rolling restart of every process, one at a time', scenario('a'), async (t) => {
    const from = Date.now();
    const gatewaySockets: string[] = [];
    for (const member of [...fleet.of('channel-node'), ...fleet.of('dispatcher')]) {
      await fleet.stop(member);
      await fleet.start(member);
      publishers.check();
    }
    for (const member of fleet.of('gateway')) {
      const name = `gw${member.slot}`;
      const stoppedAt = Date.now();
      await fleet.stop(member);
      // with this gateway gone, every socket must be connected again: through the balancer, on the other one
      await until(`every socket connected again after ${name} stopped`, () => connectedCount(world) === SUBSCRIBERS, 30_000);
      const ms = Date.now() - stoppedAt;
      const servers = await balancerServers(world.balancer, 'realtime');
      assert.equal(servers.get(name)?.sessions ?? 0, 0, `no socket left on ${name}`);
      gatewaySockets.push(`${name} stopped: all ${SUBSCRIBERS} sockets on the other gateway ${ms} ms after SIGTERM`);
      await fleet.start(member);
      await until(`HAProxy sees ${name} up`, () => gatewaysUp(world.balancer, [name]), 20_000);
      publishers.check();
    }
    for (const node of world.nats) {
      await node.stop();
      await node.start();
      await world.infra.natsHealthy(world.nats);
      publishers.check();
    }
    const to = Date.now();
    const { messages, deliveries } = await verify(world, 'rolling restart');
    report(world, t, `a. rolling restart (3 channel-nodes, 2 dispatchers, 2 gateways, 3 NATS servers) in ${to - from} ms`);
    report(world, t, `   longest publish gap ${publishers.longestGap(from, to)} ms; refused/failed attempts re-sent ${publishers.refusals.filter((r) => r.at >= from && r.at <= to).length}`);
    for (const line of gatewaySockets) report(world, t, `   ${line}`);
    report(world, t, `   ${resumeFigures(world, from)}`);
    report(world, t, `   ${messages} messages stored and acknowledged, ${deliveries} webhook deliveries received`);
  });

  await t.test('b. kill -9 of one NATS server', scenario('b'), async (t) => {
    const from = Date.now();
    await sleep(1_000);
    // the server most gateways are connected to (its /connz names the clients): the hard case,
    // where publishes in flight go down with it
    const gatewaysOn = async (node: NatsNode) => {
      const connz = (await (await fetch(`http://127.0.0.1:${node.monitorPort}/connz?limit=1000`)).json()) as { connections?: Array<{ name?: string }> };
      return (connz.connections ?? []).filter((c) => c.name?.startsWith('gateway')).length;
    };
    const counts = await Promise.all(world.nats.map(gatewaysOn));
    const victim = world.nats[counts.indexOf(Math.max(...counts))]!;
    const killedAt = Date.now();
    await victim.kill();
    const resumed = await until('publishing resumed after the NATS server died', () => publishers.resumedAfter(killedAt) !== undefined, 30_000)
      .then(() => publishers.resumedAfter(killedAt)!);
    await sleep(3_000);
    publishers.check();
    const to = Date.now();
    const gap = publishers.longestGap(from, to);
    await victim.start();
    await world.infra.natsHealthy(world.nats);
    const { messages, deliveries } = await verify(world, 'NATS server killed');
    report(world, t, `b. kill -9 of ${victim.name} (${Math.max(...counts)} gateway connections on it): every publisher acknowledged again ${resumed} ms after the kill (bound ${NATS_RESUME_BOUND_MS} ms)`);
    report(world, t, `   longest publish gap ${gap} ms; re-sent attempts ${publishers.refusals.filter((r) => r.at >= from && r.at <= to).length}`);
    report(world, t, `   ${resumeFigures(world, from)}`);
    report(world, t, `   ${messages} messages stored and acknowledged, ${deliveries} webhook deliveries received`);
    assert.ok(resumed <= NATS_RESUME_BOUND_MS, `publishing resumed ${resumed} ms after the NATS server was killed (bound ${NATS_RESUME_BOUND_MS} ms)`);
  });

  await t.test('c. Postgres restarted', scenario('c'), async (t) => {
    const from = Date.now();
    await sleep(1_000);
    const stoppedAt = Date.now();
    await world.postgres.stop();
    const downFrom = Date.now();
    // longer than OWNER_TIMEOUT_MS (5 s): a gateway rides out a shorter blip by waiting for the
    // owner, so only a longer outage shows what clients are told while Postgres is away
    await sleep(8_000);
    const downTo = Date.now();
    await world.postgres.start();
    const backAt = Date.now();
    const whileDown = publishers.refusals.filter((r) => r.at >= downFrom + 500 && r.at <= downTo);
    const acksWhileDown = publishers.acks.filter((a) => a.at >= downFrom + 500 && a.at <= downTo);
    // full service: every publisher acknowledged again, every process ready, every socket connected
    const fullService = await until(
      'full service after Postgres came back',
      async () => {
        if (publishers.resumedAfter(backAt) === undefined || connectedCount(world) !== SUBSCRIBERS) return false;
        for (const m of fleet.members) if (!(await fetch(`${m.proc.internalUrl}/internal/ready`)).ok) return false;
        return true;
      },
      60_000,
    )
      .then(() => Date.now() - backAt)
      .catch(async (error: Error) => {
        const unready: string[] = [];
        for (const m of fleet.members) {
          const res = await fetch(`${m.proc.internalUrl}/internal/ready`).catch(() => undefined);
          if (!res?.ok) unready.push(`${m.proc.name}: ${res ? `${res.status} ${await res.text()}` : 'no answer'}`);
        }
        const waiting = [...Array(PUBLISHERS).keys()].filter((p) => !publishers.acks.some((a) => a.publisher === p && a.startedAt >= backAt));
        const last = publishers.refusals.slice(-3).map((r) => `${r.status} ${r.code} ${r.reason}`);
        throw new Error(
          `${error.message}: publishers not acknowledged since ${JSON.stringify(waiting)} (last refusals ${JSON.stringify(last)}); ` +
            `sockets connected ${connectedCount(world)}/${SUBSCRIBERS}; not ready: ${JSON.stringify(unready)}`,
        );
      });
    await sleep(2_000);
    publishers.check();
    const to = Date.now();
    const { messages, deliveries } = await verify(world, 'Postgres restarted');
    const codes = [...new Set(whileDown.map((r) => `${r.status} ${r.code}`))].join(', ');
    report(world, t, `c. Postgres stopped (-m fast) ${downFrom - stoppedAt} ms, down ${downTo - downFrom} ms, started in ${backAt - downTo} ms`);
    const fromBalancer = whileDown.filter((r) => r.reason.startsWith('no gateway answered')).length;
    report(world, t, `   while down: ${whileDown.length} refusals (${codes}; ${fromBalancer} from HAProxy with no gateway ready, ${whileDown.length - fromBalancer} from a gateway), ${acksWhileDown.length} acks`);
    report(world, t, `   full service ${fullService} ms after it was back (bound ${POSTGRES_FULL_SERVICE_BOUND_MS} ms)`);
    report(world, t, `   longest publish gap ${publishers.longestGap(from, to)} ms`);
    report(world, t, `   ${resumeFigures(world, from)}`);
    report(world, t, `   ${messages} messages stored and acknowledged, ${deliveries} webhook deliveries received`);
    assert.ok(whileDown.length > 0, 'publishes were refused while Postgres was down');
    assert.deepEqual(codes, '503 unavailable', 'every publish while Postgres was down was refused with 503 unavailable');
    assert.equal(acksWhileDown.length, 0, 'nothing acknowledged while Postgres was down');
    assert.ok(fullService <= POSTGRES_FULL_SERVICE_BOUND_MS, `full service ${fullService} ms after Postgres was back (bound ${POSTGRES_FULL_SERVICE_BOUND_MS} ms)`);
  });

  await t.test('d. channel-nodes scaled 3 → 5 → 2 under load', scenario('d'), async (t) => {
    const from = Date.now();
    const grownAt = Date.now();
    await Promise.all([4, 5].map((slot) => fleet.add('channel-node', slot)));
    const perNode5 = Math.ceil(PARTITIONS / 5);
    const spread5 = await until(
      'partitions spread over 5 channel-nodes',
      async () => {
        const { held, perHolder } = await partitionHolders(world.pool);
        return held === PARTITIONS && perHolder.length === 5 && perHolder.every((n) => n <= perNode5);
      },
      30_000,
    );
    const at5 = await partitionHolders(world.pool);
    await sleep(2_000);
    const shrunkAt = Date.now();
    const nodes = fleet.of('channel-node');
    for (const member of nodes.slice(0, 3)) await fleet.remove(member);
    const spread2 = await until(
      'partitions held by the 2 remaining channel-nodes',
      async () => {
        const { held, perHolder } = await partitionHolders(world.pool);
        return held === PARTITIONS && perHolder.length === 2;
      },
      30_000,
    );
    const at2 = await partitionHolders(world.pool);
    await sleep(2_000);
    publishers.check();
    const to = Date.now();
    const { messages, deliveries } = await verify(world, 'channel-nodes scaled');
    report(world, t, `d. 3 → 5 channel-nodes: partitions per node ${at5.perHolder.join('/')} ${spread5} ms after the new ones were ready (${Date.now() - grownAt} ms incl. start)`);
    report(world, t, `   5 → 2 (SIGTERM one at a time): partitions per node ${at2.perHolder.join('/')}, all held ${spread2} ms after the last stop (${Date.now() - shrunkAt} ms incl. drains)`);
    report(world, t, `   longest publish gap ${publishers.longestGap(from, to)} ms; re-sent attempts ${publishers.refusals.filter((r) => r.at >= from && r.at <= to).length}`);
    report(world, t, `   ${messages} messages stored and acknowledged, ${deliveries} webhook deliveries received`);
  });

  await publishers.stop();
  process.stdout.write(`\n== cluster test figures\n${world.figures.join('\n')}\n`);
});
