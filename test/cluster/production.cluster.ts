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
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { balancerServers, gatewaysUp, partitionHolders, sleep, until } from './fleet.ts';
import { PARTITIONS, PUBLISHERS, SUBSCRIBERS, connectedCount, report, resumeFigures, setUp, verify } from './world.ts';
import type { NatsNode } from './infra.ts';

/** CLUSTER_SCENARIOS=bd runs only scenarios b and d (each on the cluster the earlier ones left). */
const SCENARIOS = process.env.CLUSTER_SCENARIOS ?? 'abcd';
const scenario = (letter: string) => ({ skip: !SCENARIOS.includes(letter) && `not in CLUSTER_SCENARIOS=${SCENARIOS}` });
/** Behaviour bounds of the recovery mechanisms (scenario outcomes, not benchmarks). */
const NATS_RESUME_BOUND_MS = 5_000;
const POSTGRES_FULL_SERVICE_BOUND_MS = 10_000;

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
    report(
      world,
      t,
      `   longest publish gap ${publishers.longestGap(from, to)} ms; refused/failed attempts re-sent ${publishers.refusals.filter((r) => r.at >= from && r.at <= to).length}`,
    );
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
    const resumed = await until('publishing resumed after the NATS server died', () => publishers.resumedAfter(killedAt) !== undefined, 30_000).then(
      () => publishers.resumedAfter(killedAt)!,
    );
    await sleep(3_000);
    publishers.check();
    const to = Date.now();
    const gap = publishers.longestGap(from, to);
    await victim.start();
    await world.infra.natsHealthy(world.nats);
    const { messages, deliveries } = await verify(world, 'NATS server killed');
    report(
      world,
      t,
      `b. kill -9 of ${victim.name} (${Math.max(...counts)} gateway connections on it): every publisher acknowledged again ${resumed} ms after the kill (bound ${NATS_RESUME_BOUND_MS} ms)`,
    );
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
    report(
      world,
      t,
      `   while down: ${whileDown.length} refusals (${codes}; ${fromBalancer} from HAProxy with no gateway ready, ${whileDown.length - fromBalancer} from a gateway), ${acksWhileDown.length} acks`,
    );
    report(world, t, `   full service ${fullService} ms after it was back (bound ${POSTGRES_FULL_SERVICE_BOUND_MS} ms)`);
    report(world, t, `   longest publish gap ${publishers.longestGap(from, to)} ms`);
    report(world, t, `   ${resumeFigures(world, from)}`);
    report(world, t, `   ${messages} messages stored and acknowledged, ${deliveries} webhook deliveries received`);
    assert.ok(whileDown.length > 0, 'publishes were refused while Postgres was down');
    assert.deepEqual(codes, '503 unavailable', 'every publish while Postgres was down was refused with 503 unavailable');
    assert.equal(acksWhileDown.length, 0, 'nothing acknowledged while Postgres was down');
    assert.ok(
      fullService <= POSTGRES_FULL_SERVICE_BOUND_MS,
      `full service ${fullService} ms after Postgres was back (bound ${POSTGRES_FULL_SERVICE_BOUND_MS} ms)`,
    );
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
    report(
      world,
      t,
      `d. 3 → 5 channel-nodes: partitions per node ${at5.perHolder.join('/')} ${spread5} ms after the new ones were ready (${Date.now() - grownAt} ms incl. start)`,
    );
    report(
      world,
      t,
      `   5 → 2 (SIGTERM one at a time): partitions per node ${at2.perHolder.join('/')}, all held ${spread2} ms after the last stop (${Date.now() - shrunkAt} ms incl. drains)`,
    );
    report(
      world,
      t,
      `   longest publish gap ${publishers.longestGap(from, to)} ms; re-sent attempts ${publishers.refusals.filter((r) => r.at >= from && r.at <= to).length}`,
    );
    report(world, t, `   ${messages} messages stored and acknowledged, ${deliveries} webhook deliveries received`);
  });

  await publishers.stop();
  process.stdout.write(`\n== cluster test figures\n${world.figures.join('\n')}\n`);
});
