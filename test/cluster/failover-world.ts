/**
 * The world of the Postgres fail-over test (failover.cluster.ts): a pg_auto_failover formation
 * (primary `a`, synchronous secondary `b`), the service's processes with DATABASE_URL listing
 * both nodes (`b` behind a TCP proxy the test can cut), a webhook receiver as the environment's endpoint and HTTP publishers on many
 * channels; and what the test asks of it afterwards: every acknowledged message stored once with
 * contiguous seqs and its webhook event received, and what a server holds and who is connected
 * to it.
 */
import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createEnvironment } from '@rtm/auth';
import { createPool, migrate } from '@rtm/db';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.ts';
import { AutoFailover, type FormationNode } from './auto-failover.ts';
import { Fleet, until } from './fleet.ts';
import { Infra, freePort } from './infra.ts';
import { Publishers } from './load.ts';
import type { PostgresNode } from './postgres-node.ts';

export const PUBLISHERS = 16;
export const CHANNELS = Array.from({ length: 40 }, (_, i) => `fo-${i}`);
const DATABASE = 'rtm';

/**
 * A nats-server of the test's own (JetStream, no cluster), stopped when the test ends or the
 * process exits; its URL.
 */
export async function privateNats(t: TestContext): Promise<string> {
  const infra = new Infra();
  const onExit = () => infra.killSync();
  process.once('exit', onExit);
  t.after(async () => {
    process.removeListener('exit', onExit);
    await infra.close();
  });
  const [node] = await infra.startNats(1);
  return node!.url;
}

/** What `verifyOn` checks: the publishers' acks in an environment's channels, and the receiver if any. */
export interface Checked {
  publishers: Publishers;
  receiver?: Receiver;
  environmentId: string;
  channels: string[];
}

export interface FailoverWorld extends Checked {
  formation: AutoFailover;
  fleet: Fleet;
  receiver: Receiver;
  /** The service's network path to `b` (the secondary, then the new primary): can be cut. */
  pathToB: TcpProxy;
}

/**
 * Formation, migrated database and environment (through the multi-host URL, as a process would),
 * 2 channel-nodes, a dispatcher and 2 gateways (on fixed ports: a restarted gateway comes back on
 * them), the receiver configured as the webhook endpoint, and the publishers (not started).
 */
export async function setUpFailover(t: TestContext): Promise<FailoverWorld> {
  const formation = await AutoFailover.start(t);
  await formation.node('a').query(`create database ${DATABASE}`);
  // the service reaches `a` directly and `b` through a TCP proxy (the test cuts that path);
  // otherwise multiHostUrl's form: both nodes listed, target_session_attrs=read-write
  const pathToB = await startTcpProxy([formation.node('b').url()]);
  t.after(() => pathToB.close());
  const databaseUrl = `postgres://postgres@127.0.0.1:${formation.node('a').port},127.0.0.1:${new URL(pathToB.url).port}/${DATABASE}?target_session_attrs=read-write`;
  const pool = createPool(databaseUrl, { max: 2, name: 'failover-test' });
  const env = await migrate(pool)
    .then(() => createEnvironment(pool, { organization: 'failover-org', project: 'failover', environment: 'load' }))
    .finally(() => pool.end());

  const nats = await privateNats(t);
  const fleet = new Fleet({
    DATABASE_URL: databaseUrl,
    NATS_URL: nats,
    NATS_PREFIX: 'rtm',
    // a delivery cut off by the fail-over is sent again in seconds, not a minute
    WEBHOOK_RETRY_SCHEDULE: '1s,2s,5s,10s,30s',
    WEBHOOK_STALE_AFTER: '10s',
    WORKER_RECOVERY_INTERVAL: '1s',
  });
  t.after(() => fleet.killAll());
  const ports = async () => ({ CONTROL_PORT: String(await freePort()), REALTIME_PORT: String(await freePort()), INTERNAL_PORT: String(await freePort()) });
  const gatewayPorts = [await ports(), await ports()];
  await Promise.all([
    ...[1, 2].map((i) => fleet.add('channel-node', i)),
    fleet.add('dispatcher', 1),
    ...gatewayPorts.map((extra, i) => fleet.add('gateway', i + 1, extra)),
  ]);

  const receiver = await startReceiver(t);
  const gateways = fleet.of('gateway');
  const config = await fetch(`${gateways[0]!.proc.controlUrl}/v1/config`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${env.secretKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ webhooks: { url: receiver.url } }),
  });
  assert.equal(config.status, 200, await config.text());
  // every publisher keeps its gateway: the gateways' ports do not change when one is restarted
  const publishers = new Publishers(
    gateways.map((g) => g.proc.controlUrl),
    env.secretKey,
    CHANNELS,
    PUBLISHERS,
    100,
  );
  return { formation, fleet, receiver, publishers, environmentId: env.environmentId, channels: CHANNELS, pathToB };
}

/**
 * Pauses the publishers and checks against `primary` and the receiver: every acknowledged message
 * stored once with the seq its ack gave, nothing stored that was not acknowledged, seqs
 * contiguous from 1 per channel, and with a receiver every message's `message.published` event
 * received (waiting a bounded time for retries and the catch-up). Resumes the publishers.
 */
export async function verifyOn(world: Checked, primary: PostgresNode, label: string): Promise<{ messages: number; deliveries: number; waitedMs: number }> {
  const { publishers, receiver } = world;
  await publishers.pause();
  const rows = await primary.query<{ channel_id: string; seq: string; id: string; key: string }>(
    `select c.id as channel_id, m.seq, m.id, m.content->>'key' as key from messages m join channels c on c.pk = m.channel_pk
     where c.environment_id = $1 order by c.id, m.seq`,
    [world.environmentId],
    DATABASE,
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  assert.equal(new Set(rows.map((r) => r.key)).size, rows.length, `${label}: no message stored twice (one row per idempotency key)`);
  const lost = publishers.acks.filter((ack) => !byId.has(ack.id));
  assert.deepEqual(
    lost.map((a) => `${a.key} ${a.id}`),
    [],
    `${label}: every acknowledged message (${publishers.acks.length}) is on ${primary.name}`,
  );
  for (const ack of publishers.acks) {
    const row = byId.get(ack.id)!;
    assert.equal(row.key, ack.key);
    assert.equal(Number(row.seq), ack.seq, `${label}: ${ack.id} has the seq its ack said`);
  }
  assert.equal(rows.length, publishers.acks.length, `${label}: every stored message was acknowledged once`);
  for (const channelId of world.channels) {
    const seqs = rows.filter((r) => r.channel_id === channelId).map((r) => Number(r.seq));
    assert.deepEqual(
      seqs,
      Array.from({ length: seqs.length }, (_, i) => i + 1),
      `${label}: ${channelId} seqs contiguous from 1`,
    );
  }
  if (!receiver) {
    publishers.resume();
    return { messages: rows.length, deliveries: 0, waitedMs: 0 };
  }
  const received = () => new Set(receiver.received.map((r) => JSON.parse(r.raw.toString('utf8')).id as string));
  const waitedMs = await until(
    `${label}: every message.published event received`,
    () => {
      const got = received();
      return rows.every((r) => got.has(r.id));
    },
    90_000,
  ).catch((error: Error) => {
    const got = received();
    throw new Error(`${error.message}: ${rows.filter((r) => !got.has(r.id)).length} of ${rows.length} missing`);
  });
  publishers.resume();
  return { messages: rows.length, deliveries: receiver.received.length, waitedMs };
}

/** The row count of every table of the service's database on `node` (schema.table → count). */
export async function rowCounts(node: PostgresNode): Promise<Record<string, number>> {
  const tables = await node.query<{ name: string }>(
    `select quote_ident(schemaname) || '.' || quote_ident(relname) as name from pg_stat_user_tables order by 1`,
    [],
    DATABASE,
  );
  const [row] = await node.query<Record<string, string>>(
    `select ${tables.map((t, i) => `(select count(*) from ${t.name}) as c${i}`).join(', ')}`,
    [],
    DATABASE,
  );
  return Object.fromEntries(tables.map((t, i) => [t.name, Number(row![`c${i}`])]));
}

/**
 * The sessions of the service's processes on `node`: client backends in its database, other than
 * the locators' probes (`rtm-probe`, which only ask the server what it is) and the test's own.
 */
export async function serviceSessions(node: PostgresNode): Promise<string[]> {
  const rows = await node.query<{ name: string }>(
    `select application_name as name from pg_stat_activity
     where datname = $1 and backend_type = 'client backend' and pid <> pg_backend_pid() and application_name not in ('', 'rtm-probe')`,
    [DATABASE],
  );
  return rows.map((r) => r.name);
}

/**
 * Polls `node` every 50 ms from now on for the service's sessions, until `stop()` (or the end of
 * the test): every application_name seen, and the number of probes that answered.
 */
export function watchSessions(t: TestContext, node: PostgresNode): { stop(): Promise<{ seen: string[]; probes: number }> } {
  const seen = new Set<string>();
  let probes = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const names = await serviceSessions(node).catch(() => undefined);
      if (names) {
        probes++;
        for (const name of names) seen.add(name);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  const stop = async () => {
    running = false;
    await loop;
    return { seen: [...seen], probes };
  };
  t.after(stop);
  return { stop };
}

/** The moment `node` first answers writable (polled every 50 ms). */
export async function firstWritable(node: FormationNode, limitMs: number): Promise<number> {
  await until(`${node.name} writable`, () => node.writable().catch(() => false), limitMs);
  return Date.now();
}

/** "503 unavailable: 12, 0 connection: 3": refusals in [from, to] by status and code. */
export function refusalCounts(publishers: Publishers, from = 0, to = Infinity): { line: string; kinds: string[] } {
  const counts = new Map<string, number>();
  for (const r of publishers.refusals) if (r.at >= from && r.at <= to) counts.set(`${r.status} ${r.code}`, (counts.get(`${r.status} ${r.code}`) ?? 0) + 1);
  const kinds = [...counts.keys()].sort();
  return { line: kinds.length ? kinds.map((k) => `${k}: ${counts.get(k)}`).join(', ') : 'none', kinds };
}

/** Every refusal a publisher may see through a gateway while Postgres fails over: 503 unavailable, or a connection error (status 0). */
export function assertOnlyUnavailable(publishers: Publishers, label: string): void {
  const wrong = publishers.refusals.filter((r) => !(r.status === 503 && r.code === 'unavailable') && !(r.status === 0 && r.code === 'connection'));
  assert.deepEqual(
    wrong.map((r) => `${r.status} ${r.code} ${r.reason}`),
    [],
    `${label}: every refusal was 503 unavailable or a connection error`,
  );
}
