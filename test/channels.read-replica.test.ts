/**
 * Reads served by a streaming replica (DATABASE_READ_URL, docs/read-replicas.md), with a private
 * primary, its synchronous standby and an asynchronous replica (the read pool): a read goes to the
 * replica when it has replayed every change committed before the read, to the primary when it has
 * not (replay paused); no reader ever sees less than it was acknowledged, and no content retracted
 * or erased before a read comes back in it. Where a read went is shown two ways:
 * `postgres_reads_total` by pool, and rows the paused replica does not have yet (a replica's page
 * lacks them, the primary's has them).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { createEnvironment } from '@rtm/auth';
import { startCluster, type RunningProcess } from './helpers/cluster.ts';
import { client, mintToken } from './helpers/http.ts';
import { openSocket } from './helpers/ws.ts';
import { eventually } from './helpers/eventually.ts';
import { sampleValue } from './helpers/metrics-catalogue.ts';
import { ReplicatedPostgres } from './cluster/replicated-postgres.ts';

const reads = async (gateway: RunningProcess, labels: Record<string, string>) =>
  sampleValue(await (await fetch(`${gateway.internalUrl}/internal/metrics`)).text(), 'postgres_reads_total', labels) ?? 0;

const metric = async (gateway: RunningProcess, name: string) =>
  sampleValue(await (await fetch(`${gateway.internalUrl}/internal/metrics`)).text(), name, { pool: 'replica' });

const seqs = (body: { messages: { seq: number }[] }) => body.messages.map((m) => m.seq);

/** The read pool's server and its primary, as the test drives them. */
async function startServers(t: Parameters<typeof ReplicatedPostgres.start>[0]) {
  const set = await ReplicatedPostgres.start(t, { replica: true });
  const replica = set.replica!;
  await set.primary.query('create database rtm');
  return {
    primaryUrl: set.primary.url('rtm'),
    replicaUrl: replica.url('rtm'),
    onReplica: <T extends object>(sql: string, params: unknown[] = []) => replica.query<T>(sql, params, 'rtm'),
    pause: () => replica.pauseReplay(),
    resume: () => replica.resumeReplay(),
    caughtUp: () => set.caughtUp(replica),
    stopReplica: () => replica.stop(),
  };
}

test('read replica - reads go to the replica when it is current, to the primary when it lags, never showing less than told', async (t) => {
  const servers = await startServers(t);
  // a dispatcher runs erasures
  const cluster = await startCluster(t, { channelNodes: 1, dispatchers: 1, env: { DATABASE_URL: servers.primaryUrl, DATABASE_READ_URL: servers.replicaUrl } });
  const gateway = cluster.gateways[0]!;
  t.after(() => {
    if (process.env.SHOW_GATEWAY_LOG) console.log(gateway.output.slice(-80).join('\n'));
  });
  const primary = new pg.Pool({ connectionString: servers.primaryUrl, max: 2 });
  // the servers stop when the test ends, maybe before this pool does
  primary.on('error', () => {});
  t.after(() => primary.end());
  const env = await createEnvironment(primary, { organization: 'org', project: 'project', environment: 'replica' });
  const api = client(gateway.controlUrl, env.secretKey);
  const publish = async (channel: string, text: string) => {
    const res = await api.post(`/v1/channels/${channel}/messages`, { content: { text } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.seq as number;
  };

  await t.test('the read pool is a session on the replica', async () => {
    await api.get('/v1/channels/none/history');
    const [row] = await servers.onReplica<{ n: number }>("select count(*)::int as n from pg_stat_activity where application_name like '% reads'");
    assert.ok(row!.n >= 1, 'the gateway holds a read session on the replica');
    assert.equal(await metric(gateway, 'postgres_replica_lag_seconds'), 0);
  });

  for (let i = 1; i <= 3; i++) await publish('room', `m${i}`);
  await servers.caughtUp();

  await t.test('a current replica answers history', async () => {
    const before = await reads(gateway, { read: 'history', pool: 'replica' });
    assert.deepEqual(seqs((await api.get('/v1/channels/room/history')).body), [1, 2, 3]);
    assert.deepEqual(seqs((await api.get('/v1/channels/room/history?after=1')).body), [2, 3]);
    assert.equal(await reads(gateway, { read: 'history', pool: 'replica' }), before + 2);
    assert.equal(await reads(gateway, { read: 'history', pool: 'primary' }), 0);
  });

  await t.test("replay paused: reads after a commit the replica has not replayed are the primary's", async (paused) => {
    await servers.pause();
    // resumed when this part ends, whatever happens in it
    paused.after(() => servers.resume().catch(() => {}));
    const newest = await publish('room', 'm4');
    assert.equal(newest, 4);
    const [replicaRow] = await servers.onReplica<{ last_seq: number }>("select last_seq from channels where id = 'room'");
    assert.equal(replicaRow!.last_seq, 3, 'the paused replica does not have seq 4');

    // everything committed before the request, so 4 too: the primary answers (after one wait),
    // whatever page is asked for
    assert.deepEqual(seqs((await api.get('/v1/channels/room/history')).body), [1, 2, 3, 4]);
    assert.deepEqual(seqs((await api.get('/v1/channels/room/history?after=3')).body), [4]);
    assert.deepEqual(seqs((await api.get('/v1/channels/room/history?before=3')).body), [1, 2]);
    assert.equal(await reads(gateway, { read: 'history', pool: 'primary', reason: 'behind' }), 3);

    // a socket resuming from 0: the replay hands over to the feed at seq 4, committed before it
    const token = await mintToken(gateway.controlUrl, env.secretKey, 'alice');
    const socket = openSocket(gateway.realtimeUrl, `/v1/channels/room?token=${token}&since=0`);
    await socket.waitFor('ready', (f) => f.op === 'ready');
    assert.deepEqual(
      socket.frames.filter((f) => f.op === undefined && typeof f.seq === 'number').map((f) => f.seq),
      [1, 2, 3, 4],
    );
    await socket.close();
    assert.equal(await reads(gateway, { read: 'replay', pool: 'primary', reason: 'behind' }), 1);

    // a roster after a membership change: every change committed before the request
    assert.equal((await api.put('/v1/channels/room/members/bob', {})).status, 200);
    const roster = await api.get('/v1/channels/room/members');
    assert.ok(
      roster.body.members.some((m: { userId: string }) => m.userId === 'bob'),
      JSON.stringify(roster.body),
    );
    assert.equal(await reads(gateway, { read: 'roster', pool: 'primary', reason: 'behind' }), 1);

    await eventually(
      'the lag metrics see the paused replay',
      async () => ((await metric(gateway, 'postgres_replica_lag_bytes')) ?? 0) > 0 && ((await metric(gateway, 'postgres_replica_lag_seconds')) ?? 0) > 0,
    );
    await servers.resume();
    await servers.caughtUp();
  });

  await t.test('replay paused: content retracted or erased before a read never comes back in it', async (paused) => {
    // the replica has every message and its content; replay stops before they are taken back
    const alice = client(gateway.realtimeUrl, await mintToken(gateway.controlUrl, env.secretKey, 'alice'));
    const retracted = await api.post('/v1/channels/secrets/messages', { content: { text: 'RETRACTED-TEXT' } });
    assert.equal(retracted.status, 201, JSON.stringify(retracted.body));
    const erased = await alice.post('/v1/channels/secrets/messages', { content: { text: 'ERASED-TEXT' } });
    assert.equal(erased.status, 201, JSON.stringify(erased.body));
    await servers.caughtUp();
    await servers.pause();
    // resumed when this part ends, whatever happens in it
    paused.after(() => servers.resume().catch(() => {}));
    const onReplica = async () => {
      const rows = await servers.onReplica<{ text: string }>(
        "select coalesce(m.content::text, '') as text from messages m join channels c on c.pk = m.channel_pk where c.id = 'secrets'",
      );
      return rows.map((r) => r.text).join();
    };
    const shown = (body: unknown) => JSON.stringify(body);
    const behind = () => reads(gateway, { read: 'history', pool: 'primary', reason: 'behind' });

    // a retraction, acknowledged: no page read after it shows the content, though the replica still has it
    const retraction = await api.delete(`/v1/channels/secrets/messages/${retracted.body.id}`);
    assert.equal(retraction.status, 200, JSON.stringify(retraction.body));
    assert.match(await onReplica(), /RETRACTED-TEXT/, 'the paused replica still holds the retracted content');
    const fellBack = await behind();
    for (const query of ['', `?after=${retracted.body.seq - 1}`, `?before=${erased.body.seq + 1}`]) {
      const page = await api.get(`/v1/channels/secrets/history${query}`);
      assert.equal(page.status, 200);
      assert.ok(!shown(page.body).includes('RETRACTED-TEXT'), `history${query} after the retraction: ${shown(page.body)}`);
      assert.ok(
        page.body.messages.some((m: { seq: number; retracted?: boolean }) => m.seq === retracted.body.seq && m.retracted),
        shown(page.body),
      );
    }
    assert.equal(await behind(), fellBack + 3);

    // an erasure of alice's messages, done: the same for history and for a socket's replay
    const erasure = await api.delete('/v1/users/alice/messages');
    assert.equal(erasure.status, 202, JSON.stringify(erasure.body));
    await eventually('the erasure is done', async () => (await api.get(`/v1/erasures/${erasure.body.id}`)).body.status === 'done', 60_000);
    assert.match(await onReplica(), /ERASED-TEXT/, 'the paused replica still holds the erased content');
    const page = await api.get('/v1/channels/secrets/history');
    assert.ok(!shown(page.body).includes('ERASED-TEXT'), `history after the erasure: ${shown(page.body)}`);
    assert.deepEqual(
      page.body.messages.map((m: { retracted?: boolean }) => m.retracted === true),
      [true, true],
    );
    const socket = openSocket(gateway.realtimeUrl, `/v1/channels/secrets?token=${await mintToken(gateway.controlUrl, env.secretKey, 'bob')}&since=0`);
    await socket.waitFor('ready', (f) => f.op === 'ready');
    await socket.close();
    const replayed = socket.frames.filter((f) => f.op === undefined && typeof f.seq === 'number');
    assert.deepEqual(
      replayed.map((f) => f.seq),
      [retracted.body.seq, erased.body.seq],
    );
    assert.ok(!shown(replayed).includes('RETRACTED-TEXT') && !shown(replayed).includes('ERASED-TEXT'), `replayed: ${shown(replayed)}`);

    await servers.resume();
    await servers.caughtUp();
  });

  await t.test("caught up again: replay and rosters are the replica's", async () => {
    const token = await mintToken(gateway.controlUrl, env.secretKey, 'alice');
    const socket = openSocket(gateway.realtimeUrl, `/v1/channels/room?token=${token}&since=2`);
    await socket.waitFor('ready', (f) => f.op === 'ready');
    await socket.close();
    assert.ok((await reads(gateway, { read: 'replay', pool: 'replica' })) >= 1);
    const roster = await api.get('/v1/channels/room/members');
    assert.ok(roster.body.members.some((m: { userId: string }) => m.userId === 'bob'));
    assert.equal(await reads(gateway, { read: 'roster', pool: 'replica' }), 1);
  });

  await t.test('no reader sees less than it was acknowledged, while replay stops and starts', async () => {
    let paused = false;
    const toggles = (async () => {
      for (let i = 0; i < 12; i++) {
        paused = !paused;
        await (paused ? servers.pause() : servers.resume());
        await new Promise((resolve) => setTimeout(resolve, 40 + Math.random() * 80));
      }
      if (paused) await servers.resume();
    })();
    const readers = Array.from({ length: 3 }, async (_, r) => {
      for (let i = 0; i < 15; i++) {
        const seq = await publish(`busy-${r}`, `n${i}`);
        const page = await api.get(`/v1/channels/busy-${r}/history?limit=500`);
        assert.equal(page.status, 200);
        assert.ok(seqs(page.body).includes(seq), `reader ${r} was acknowledged seq ${seq} and got ${JSON.stringify(seqs(page.body))}`);
        const after = await api.get(`/v1/channels/busy-${r}/history?after=${seq - 1}`);
        assert.deepEqual(seqs(after.body), [seq], `reader ${r} was acknowledged seq ${seq} and got ${JSON.stringify(seqs(after.body))} after ${seq - 1}`);
      }
    });
    const outcomes = await Promise.allSettled([toggles, ...readers]);
    for (const outcome of outcomes) if (outcome.status === 'rejected') throw outcome.reason;
    // both servers answered some of them
    assert.ok((await reads(gateway, { pool: 'replica' })) > 0);
    assert.ok((await reads(gateway, { pool: 'primary', reason: 'behind' })) > 0);
  });

  await t.test('a replica that is gone hands its reads to the primary', async () => {
    await servers.stopReplica();
    const before = await reads(gateway, { pool: 'primary', reason: 'failed' });
    assert.deepEqual(seqs((await api.get('/v1/channels/room/history')).body), [1, 2, 3, 4]);
    assert.equal((await api.get('/v1/channels/room/members')).status, 200);
    assert.equal(await reads(gateway, { pool: 'primary', reason: 'failed' }), before + 2);
  });
});
