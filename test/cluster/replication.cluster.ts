/**
 * The replicated Postgres helpers of the failover tests, proved on their own (no service
 * processes): a synchronous standby holds every acknowledged commit when the primary is killed,
 * a paused replica lags, an old primary started alone is on the older timeline; and a
 * pg_auto_failover formation promotes its secondary by itself and takes the old primary back as
 * a secondary (pg_rewind), never writable on the way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { AutoFailover } from './auto-failover.ts';
import { ReplicatedPostgres } from './replicated-postgres.ts';
import { postmasterPid, sleep, until, type PostgresNode } from './postgres-node.ts';

/** Bound on kill -9 to writable under pg_auto_failover (measured 3-4 s; the machine is busy). */
const AUTO_FAILOVER_BOUND_MS = 15_000;

/**
 * Writers inserting ids into `acked` on their own connections until the server goes; `acked` holds
 * the ids whose commit was acknowledged.
 */
function startWriters(node: PostgresNode, count: number) {
  const acked = new Set<number>();
  let next = 1;
  const writer = async () => {
    const client = new pg.Client({ connectionString: node.url() });
    client.on('error', () => {});
    await client.connect();
    try {
      for (;;) {
        const id = next++;
        await client.query('insert into acked (id) values ($1)', [id]);
        acked.add(id);
      }
    } catch {
      // the server is gone
    } finally {
      await client.end().catch(() => {});
    }
  };
  const done = Promise.all(Array.from({ length: count }, writer));
  return { acked, done };
}

async function storedIds(node: PostgresNode): Promise<Set<number>> {
  return new Set((await node.query<{ id: number }>('select id from acked')).map((r) => r.id));
}

const settled = <T>(promise: Promise<T>, ms: number) => Promise.race([promise.then(() => 'committed' as const), sleep(ms).then(() => 'waiting' as const)]);

test('replication - synchronous standby promoted after kill -9, paused replica lags, old primary alone on the older timeline', {
  timeout: 180_000,
}, async (t) => {
  const started = Date.now();
  const set = await ReplicatedPostgres.start(t, { replica: true });
  const { primary, standby, replica } = set;
  t.diagnostic(`primary, synchronous standby and replica up in ${Date.now() - started} ms`);
  assert.equal(await primary.role(), 'primary');
  assert.equal(await standby.role(), 'standby');
  assert.equal(await replica!.role(), 'standby');
  const streams = await primary.query<{ name: string; sync: string }>(
    'select application_name as name, sync_state as sync from pg_stat_replication order by 1',
  );
  assert.deepEqual(streams, [
    { name: 'replica', sync: 'async' },
    { name: 'standby', sync: 'sync' },
  ]);
  await primary.query('create table acked (id int primary key)');

  // synchronous: with its standby down, a commit on the primary waits for it
  await standby.stop();
  const pending = primary.query('insert into acked values (-1)');
  assert.equal(await settled(pending, 1_500), 'waiting', 'a commit waits while the synchronous standby is down');
  await standby.start();
  await pending;

  // a paused replica receives and does not replay: it lags
  await replica!.pauseReplay();
  await primary.query('insert into acked select generate_series(100000, 100999)');
  await until('the replica received the rows it does not replay', async () => (await replica!.replayLag()).bytes > 0, 10_000);
  assert.equal((await replica!.query('select 1 from acked where id >= 100000')).length, 0, 'a paused replica does not show new rows');
  const lag = await replica!.replayLag();
  await replica!.resumeReplay();
  await until(
    'the replica caught up',
    async () => (await replica!.query('select 1 from acked where id >= 100000')).length === 1_000 && (await replica!.replayLag()).bytes === 0,
    10_000,
  );
  t.diagnostic(`paused replica: ${lag.bytes} bytes behind, caught up once resumed`);

  // kill -9 of the primary under concurrent writes; promoted, the standby holds every acknowledged commit
  const writers = startWriters(primary, 4);
  await until('writes acknowledged', () => writers.acked.size >= 300, 20_000);
  const oldTimeline = await primary.timeline();
  await primary.kill();
  await writers.done;
  const promoteMs = await set.promote();
  assert.equal(set.primary, standby);
  assert.equal(set.standby, primary, "the old primary is the pair's other server now");
  const stored = await storedIds(standby);
  const lost = [...writers.acked].filter((id) => !stored.has(id));
  assert.deepEqual(lost, [], `every acknowledged commit (${writers.acked.size}) is on the promoted standby`);
  assert.equal(await standby.timeline(), oldTimeline + 1, 'the promoted standby is on the next timeline');
  assert.equal(await settled(standby.query('insert into acked values (-2)'), 5_000), 'committed', 'the new primary commits without a synchronous standby');
  t.diagnostic(`kill -9 with ${writers.acked.size} commits acknowledged, all on the standby; promoted and writable in ${promoteMs} ms`);

  // the replica follows the new primary onto its timeline
  await set.follow(replica!, standby);
  await until("the replica has the new primary's row", async () => (await replica!.query('select 1 from acked where id = -2')).length === 1, 20_000);
  assert.equal(await replica!.timeline(), oldTimeline + 1);

  // the worst case: the old primary started alone accepts writes, on the older timeline
  await primary.startAlone();
  assert.equal(await primary.role(), 'primary');
  assert.ok(await primary.writable(), 'the old primary started alone accepts writes');
  assert.equal(await primary.timeline(), oldTimeline, 'the old primary alone is on the older timeline');
  await primary.query('insert into acked values (-3)');
  assert.equal((await standby.query('select 1 from acked where id = -3')).length, 0, 'what the old primary took is not on the new one');

  // clean-up ends every server and removes the directory
  const pids = set.nodes().map((n) => postmasterPid(n.dataDir));
  assert.equal(pids.filter((pid) => pid !== undefined).length, 3);
  await set.close();
  assert.equal(existsSync(set.dir), false, 'the directory is removed');
  for (const pid of pids) assert.throws(() => process.kill(pid!, 0), `postmaster ${pid} is gone`);
});

test('replication - pg_auto_failover promotes the secondary after kill -9 and takes the old primary back', { timeout: 180_000 }, async (t) => {
  const started = Date.now();
  const formation = await AutoFailover.start(t, { replica: true });
  const [a, b, c] = [formation.node('a'), formation.node('b'), formation.node('c')];
  t.diagnostic(`monitor, primary, secondary and replica up in ${Date.now() - started} ms`);
  assert.equal(await a.role(), 'primary');
  assert.equal(await b.role(), 'standby');
  assert.equal(await c.role(), 'standby');
  assert.match(
    (await a.query<{ s: string }>(`select current_setting('synchronous_standby_names') as s`))[0]!.s,
    /^ANY 1 \(pgautofailover_standby_\d+\)$/,
    'one synchronous secondary',
  );
  const streams = await a.query<{ sync: string }>('select sync_state as sync from pg_stat_replication order by sync_state');
  assert.deepEqual(
    streams.map((s) => s.sync),
    ['async', 'quorum'],
    'the secondary synchronous, the replica not',
  );
  await a.query('create table acked (id int primary key)');

  const writers = startWriters(a, 4);
  await until('writes acknowledged', () => writers.acked.size >= 300, 20_000);
  const oldTimeline = await a.timeline();
  await a.kill();
  await writers.done;
  const { node, ms } = await formation.waitForNewPrimary(a, 90_000);
  assert.equal(node, b);
  t.diagnostic(`kill -9 of the primary (keeper, postmaster, backends): the secondary writable ${ms} ms later`);
  assert.ok(ms < AUTO_FAILOVER_BOUND_MS, `promoted within ${AUTO_FAILOVER_BOUND_MS} ms (took ${ms})`);
  const stored = await storedIds(b);
  assert.deepEqual(
    [...writers.acked].filter((id) => !stored.has(id)),
    [],
    `every acknowledged commit (${writers.acked.size}) is on the new primary`,
  );
  assert.equal(await b.timeline(), oldTimeline + 1);
  assert.equal(await settled(b.query('insert into acked values (-2)'), 5_000), 'committed', 'the new primary commits with no secondary left');
  await until('the replica follows the new primary', async () => (await c.query('select 1 from acked where id = -2')).length === 1, 30_000);

  // the worst case, on purpose: the old primary's Postgres without its keeper accepts writes, on the older timeline
  await a.startAlone();
  assert.ok(await a.writable());
  assert.equal(await a.timeline(), oldTimeline);
  await a.query('insert into acked values (-3)');
  await a.stop();

  // its keeper again: rewound onto the new primary's timeline as a secondary, never writable meanwhile
  const back = Date.now();
  await a.start();
  let writableSeen = 0;
  let probes = 0;
  await until(
    'a secondary again',
    async () => {
      probes++;
      if (await a.writable().catch(() => false)) writableSeen++;
      return (await formation.states()).some((s) => s.name === 'a' && s.goal === 'secondary' && s.reported === 'secondary');
    },
    60_000,
  );
  t.diagnostic(`old primary's keeper started: secondary after ${Date.now() - back} ms (${probes} probes, writable in ${writableSeen})`);
  assert.equal(writableSeen, 0, 'the old primary never accepted writes on its way back');
  assert.equal(await a.role(), 'standby');
  await until(
    "a on the new timeline, with the new primary's rows",
    async () => (await a.timeline()) === oldTimeline + 1 && (await a.query('select 1 from acked where id = -2')).length === 1,
    20_000,
  );
  assert.equal((await a.query('select 1 from acked where id = -3')).length, 0, 'what it took alone was rewound away');
  const aStored = await storedIds(a);
  assert.deepEqual(
    [...writers.acked].filter((id) => !aStored.has(id)),
    [],
  );
  assert.match(formation.logs('a'), /pg_rewind/);
});
