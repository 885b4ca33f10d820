/**
 * Postgres fail-over under load, with a real orchestrator: a pg_auto_failover formation (primary
 * `a`, synchronous secondary `b`), 2 gateways, 2 channel-nodes and a dispatcher with DATABASE_URL
 * listing both nodes, 16 publishers on 40 channels (idempotency keys, re-sent after a 503 or a
 * connection error until acknowledged) and a webhook receiver.
 *
 * 1. kill -9 of the primary (postmaster and keeper); the monitor promotes the secondary. Timed:
 *    promotion (the new primary first answers writable) to the first acknowledged publish, and
 *    the kill to it. Checked on the new primary and the receiver: every acknowledged message
 *    stored once, seqs contiguous, every webhook event received; every refusal 503 `unavailable`
 *    or a connection error.
 * 2. Nothing is written to the old primary once it is back: (b) started alone (read-write, on the
 *    older timeline), first with the new primary out of the service's reach for 8 s (every
 *    process searches and finds only the old primary: refused by the timeline it remembers, 503),
 *    then with the new primary back and a gateway and a channel-node restarted (new processes:
 *    the newest timeline wins); (a) then handed back to its keeper, which makes it a secondary.
 *    (b) comes first: it needs the new primary up and the old one still on the older timeline.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sleep, until } from './fleet.ts';
import {
  assertOnlyUnavailable,
  firstWritable,
  refusalCounts,
  rowCounts,
  serviceSessions,
  setUpFailover,
  verifyOn,
  watchSessions,
  PUBLISHERS,
  CHANNELS,
} from './failover-world.ts';

/** Promotion to the first acknowledged publish: the goal is 5 s; bounded generously (2 busy cores). */
const FIRST_ACK_BOUND_MS = 15_000;
/** How long publishing goes on after the first acknowledged publish on the new primary. */
const AFTER_FIRST_ACK_MS = 10_000;

test('failover - kill -9 of the primary under load, pg_auto_failover promotes; nothing written to the old primary', { timeout: 420_000 }, async (t) => {
  const started = Date.now();
  const world = await setUpFailover(t);
  const { formation, fleet, publishers } = world;
  // a failure leaves them re-sending to processes about to be killed: stopped first
  t.after(() => publishers.stop().catch(() => {}));
  const [a, b] = [formation.node('a'), formation.node('b')];
  const figures: string[] = [];
  const report = (line: string) => {
    figures.push(line);
    t.diagnostic(line);
  };
  report(`formation, 2 gateways, 2 channel-nodes, a dispatcher up in ${Date.now() - started} ms; ${PUBLISHERS} publishers on ${CHANNELS.length} channels`);
  publishers.start();
  await until('publishes acknowledged', () => publishers.acks.length >= 100, 30_000);
  await sleep(1_000);
  publishers.check();

  // 1. kill -9 of the primary under load
  const oldTimeline = await a.timeline();
  const killedAt = Date.now();
  await a.kill();
  const promotedAt = await firstWritable(b, 60_000);
  const firstAck = await until('a publish acknowledged on the new primary', () => publishers.acks.some((ack) => ack.at >= promotedAt), 60_000)
    .then(() => publishers.acks.find((ack) => ack.at >= promotedAt)!)
    .catch((error: Error) => {
      throw new Error(`${error.message}; refusals since the promotion: ${refusalCounts(publishers, promotedAt).line}`);
    });
  await sleep(Math.max(0, firstAck.at + AFTER_FIRST_ACK_MS - Date.now()));
  publishers.check();
  const to = Date.now();
  assert.equal(await b.timeline(), oldTimeline + 1, 'the new primary is on the next timeline');
  const checked = await verifyOn(world, b, 'after the fail-over');
  const ackMs = firstAck.at - promotedAt;
  report(`1. kill -9 of the primary: the secondary writable ${promotedAt - killedAt} ms after the kill`);
  report(`   first acknowledged publish ${ackMs} ms after the promotion (goal 5000, bound ${FIRST_ACK_BOUND_MS}), ${firstAck.at - killedAt} ms after the kill`);
  report(`   longest publish gap ${publishers.longestGap(killedAt - 1_000, to)} ms; refusals ${refusalCounts(publishers, killedAt, to).line}`);
  report(
    `   ${checked.messages} messages acknowledged and stored once, seqs contiguous; ${checked.deliveries} webhook deliveries received (all events within ${checked.waitedMs} ms of the check)`,
  );
  assertOnlyUnavailable(publishers, 'the fail-over');
  assert.ok(ackMs <= FIRST_ACK_BOUND_MS, `first publish acknowledged ${ackMs} ms after the promotion (bound ${FIRST_ACK_BOUND_MS} ms)`);

  // 2(b). the old primary started alone, read-write on the older timeline, while processes reconnect
  await a.startAlone();
  assert.ok(await a.writable(), 'the old primary alone accepts writes');
  assert.equal(await a.timeline(), oldTimeline, 'the old primary alone is on the older timeline');
  const aloneAt = Date.now();
  const before = await rowCounts(a);
  const watch = watchSessions(t, a);
  // first the new primary out of the service's reach (its path cut: every connection reset, new
  // ones refused): every process searches, and only the old primary answers, read-write; each
  // has written on the newer timeline, so it must refuse it and answer 503
  const ended = world.pathToB.open(b.url());
  world.pathToB.refuse(true);
  world.pathToB.cut();
  const cutAt = Date.now();
  // longer than OWNER_TIMEOUT_MS (5 s): a publish waits that long for an owner before its 503
  await sleep(8_000);
  const cutTo = Date.now();
  world.pathToB.refuse(false);
  publishers.check();
  const acksWhileCut = publishers.acks.filter((ack) => ack.startedAt >= cutAt && ack.at <= cutTo).length;
  const refusedWhileCut = refusalCounts(publishers, cutAt, cutTo);
  // then new processes, which have seen no timeline yet: a gateway and a channel-node restarted
  const [gateway, channelNode] = [fleet.of('gateway')[1]!, fleet.of('channel-node')[1]!];
  for (const member of [gateway, channelNode]) {
    await fleet.stop(member);
    await fleet.start(member);
  }
  await sleep(5_000);
  publishers.check();
  const aloneTo = Date.now();
  const { seen, probes } = await watch.stop();
  const after = await rowCounts(a);
  const acksWhileAlone = publishers.acks.filter((ack) => ack.startedAt >= aloneTo - 3_000 && ack.at <= aloneTo).length;
  report(`2b. old primary started alone (timeline ${oldTimeline}, new primary's ${oldTimeline + 1})`);
  report(`   path to the new primary cut for ${cutTo - cutAt} ms (${ended} connections reset): refusals ${refusedWhileCut.line}, ${acksWhileCut} acknowledged`);
  report(`   then a gateway and a channel-node restarted; ${acksWhileAlone} publishes sent and acknowledged in the last 3 s`);
  report(
    `   on the old primary: service sessions seen ${JSON.stringify(seen)} in ${probes} probes; row counts ${JSON.stringify(before) === JSON.stringify(after) ? 'unchanged' : 'CHANGED'}`,
  );
  report(`   longest publish gap ${publishers.longestGap(aloneAt, aloneTo)} ms; refusals ${refusalCounts(publishers, aloneAt, aloneTo).line}`);
  assert.deepEqual(seen, [], 'no session of the service on the old primary');
  assert.deepEqual(after, before, 'no row written to the old primary');
  assert.equal(acksWhileCut, 0, 'nothing acknowledged while only the old primary answered');
  assert.ok(refusedWhileCut.kinds.length > 0, 'publishes were refused while only the old primary answered');
  const alone = await verifyOn(world, b, 'with the old primary alone');
  report(`   ${alone.messages} messages acknowledged and stored once on the new primary, ${alone.deliveries} webhook deliveries received`);
  assert.ok(acksWhileAlone > 0, 'publishing continued on the new primary');
  assertOnlyUnavailable(publishers, 'the old primary alone');
  await a.stop();

  // 2(a). the old primary handed back to its keeper: a secondary, never writable, no service session
  const backAt = Date.now();
  const watchBack = watchSessions(t, a);
  await a.start();
  let writableSeen = 0;
  const secondaryMs = await until(
    'the old primary a secondary again',
    async () => {
      if (await a.writable().catch(() => false)) writableSeen++;
      return (await formation.states()).some((s) => s.name === 'a' && s.goal === 'secondary' && s.reported === 'secondary');
    },
    60_000,
  );
  await sleep(3_000);
  publishers.check();
  const backTo = Date.now();
  const back = await watchBack.stop();
  const final = await verifyOn(world, b, 'with the old primary a secondary');
  // what the old primary holds now came from the new one: it reaches the new primary's count
  const [onB] = await b.query<{ n: number }>(`select count(*)::int as n from messages`, [], 'rtm');
  await until(
    'the secondary has every message of the primary',
    async () => (await a.query<{ n: number }>(`select count(*)::int as n from messages`, [], 'rtm'))[0]!.n >= onB!.n,
    20_000,
  );
  report(
    `2a. old primary's keeper started: a secondary after ${secondaryMs} ms (writable in ${writableSeen} probes); service sessions seen ${JSON.stringify(back.seen)} in ${back.probes} probes`,
  );
  report(`   longest publish gap ${publishers.longestGap(backAt, backTo)} ms; refusals ${refusalCounts(publishers, backAt, backTo).line}`);
  report(`   ${final.messages} messages acknowledged and stored once, ${final.deliveries} webhook deliveries received`);
  assert.equal(writableSeen, 0, 'the old primary never accepted writes on its way back');
  assert.deepEqual(back.seen, [], 'no session of the service on the old primary as a secondary');
  assert.equal(await a.role(), 'standby');
  assert.deepEqual(await serviceSessions(a), []);
  assertOnlyUnavailable(publishers, 'the old primary back as a secondary');

  await publishers.stop();
  process.stdout.write(`\n== failover test figures\n${figures.join('\n')}\n`);
});
