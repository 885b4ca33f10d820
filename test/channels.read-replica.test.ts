/**
 * Reads served by a streaming replica (DATABASE_READ_URL, docs/read-replicas.md), with a private
 * primary and replica: a read goes to the replica when it holds what the reader was told, to the
 * primary when it does not (replay paused), and no reader ever sees less than it was
 * acknowledged. Where a read went is shown two ways: `postgres_reads_total` by pool, and rows the
 * paused replica does not have yet (a replica's page lacks them, the primary's has them).
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
import { startStreamingPair } from './helpers/streaming-replica.ts';

const reads = async (gateway: RunningProcess, labels: Record<string, string>) =>
  sampleValue(await (await fetch(`${gateway.internalUrl}/internal/metrics`)).text(), 'postgres_reads_total', labels) ?? 0;

const metric = async (gateway: RunningProcess, name: string) =>
  sampleValue(await (await fetch(`${gateway.internalUrl}/internal/metrics`)).text(), name, { pool: 'replica' });

const seqs = (body: { messages: { seq: number }[] }) => body.messages.map((m) => m.seq);

test('read replica - reads go to the replica when it is current, to the primary when it lags, never showing less than told', async (t) => {
  const servers = await startStreamingPair(t);
  const cluster = await startCluster(t, { channelNodes: 1, env: { DATABASE_URL: servers.primaryUrl, DATABASE_READ_URL: servers.replicaUrl } });
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
    await api.get('/v1/channels/none/history?minSeq=0');
    const [row] = await servers.onReplica<{ n: number }>("select count(*)::int as n from pg_stat_activity where application_name like '% reads'");
    assert.ok(row!.n >= 1, 'the gateway holds a read session on the replica');
    assert.equal(await metric(gateway, 'postgres_replica_lag_seconds'), 0);
  });

  for (let i = 1; i <= 3; i++) await publish('room', `m${i}`);
  await servers.caughtUp();

  await t.test('a current replica answers history, with minSeq and without', async () => {
    const before = await reads(gateway, { read: 'history', pool: 'replica' });
    const withMin = await api.get('/v1/channels/room/history?minSeq=3');
    assert.deepEqual(seqs(withMin.body), [1, 2, 3]);
    const without = await api.get('/v1/channels/room/history');
    assert.deepEqual(seqs(without.body), [1, 2, 3]);
    assert.equal(await reads(gateway, { read: 'history', pool: 'replica' }), before + 2);
    assert.equal(await reads(gateway, { read: 'history', pool: 'primary' }), 0);
  });

  await t.test('replay paused: a reader told of the newest seq gets it from the primary; one told less is served by the replica', async () => {
    await servers.pause();
    t.after(() => servers.resume().catch(() => {}));
    const newest = await publish('room', 'm4');
    assert.equal(newest, 4);
    const [replicaRow] = await servers.onReplica<{ last_seq: number }>("select last_seq from channels where id = 'room'");
    assert.equal(replicaRow!.last_seq, 3, 'the paused replica does not have seq 4');

    // told only up to 3: the replica holds that, so it answers, and its page ends at 3
    const fromReplica = await reads(gateway, { read: 'history', pool: 'replica' });
    assert.deepEqual(seqs((await api.get('/v1/channels/room/history?minSeq=3')).body), [1, 2, 3]);
    assert.equal(await reads(gateway, { read: 'history', pool: 'replica' }), fromReplica + 1);

    // acknowledged 4: the page must hold it, so the primary answers (after one wait)
    assert.deepEqual(seqs((await api.get(`/v1/channels/room/history?minSeq=${newest}`)).body), [1, 2, 3, 4]);
    // without minSeq: everything committed before the request, so 4 too
    assert.deepEqual(seqs((await api.get('/v1/channels/room/history')).body), [1, 2, 3, 4]);
    assert.equal(await reads(gateway, { read: 'history', pool: 'primary', reason: 'behind' }), 2);
    // a page cursor is what the reader holds too: after 3 needs 3 (the replica's empty page is
    // all there is for a reader told of 3); before 5 needs 4 (the primary's)
    assert.deepEqual(seqs((await api.get('/v1/channels/room/history?minSeq=0&after=3')).body), []);
    assert.equal(await reads(gateway, { read: 'history', pool: 'replica' }), fromReplica + 2);
    assert.deepEqual(seqs((await api.get('/v1/channels/room/history?minSeq=0&before=5')).body), [1, 2, 3, 4]);
    assert.equal(await reads(gateway, { read: 'history', pool: 'primary', reason: 'behind' }), 3);

    // a socket resuming from 0: the replay hands over to the feed at seq 4, so it needs 4
    const token = await mintToken(gateway.controlUrl, env.secretKey, 'alice');
    const socket = openSocket(gateway.realtimeUrl, `/v1/channels/room?token=${token}&since=0`);
    await socket.waitFor('ready', (f) => f.op === 'ready');
    assert.deepEqual(socket.frames.filter((f) => f.op === undefined && typeof f.seq === 'number').map((f) => f.seq), [1, 2, 3, 4]);
    await socket.close();
    assert.equal(await reads(gateway, { read: 'replay', pool: 'primary', reason: 'behind' }), 1);

    // a roster after a membership change: every change committed before the request
    assert.equal((await api.put('/v1/channels/room/members/bob', {})).status, 200);
    const roster = await api.get('/v1/channels/room/members');
    assert.ok(roster.body.members.some((m: { userId: string }) => m.userId === 'bob'), JSON.stringify(roster.body));
    assert.equal(await reads(gateway, { read: 'roster', pool: 'primary', reason: 'behind' }), 1);

    await eventually('the lag metrics see the paused replay', async () => ((await metric(gateway, 'postgres_replica_lag_bytes')) ?? 0) > 0 && ((await metric(gateway, 'postgres_replica_lag_seconds')) ?? 0) > 0);
    await servers.resume();
    await servers.caughtUp();
  });

  await t.test('caught up again: replay and rosters are the replica\'s', async () => {
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
        const page = await api.get(`/v1/channels/busy-${r}/history?minSeq=${seq}&limit=500`);
        assert.equal(page.status, 200);
        assert.ok(seqs(page.body).includes(seq), `reader ${r} was acknowledged seq ${seq} and got ${JSON.stringify(seqs(page.body))}`);
        const plain = await api.get(`/v1/channels/busy-${r}/history?limit=500`);
        assert.ok(seqs(plain.body).includes(seq), `reader ${r} (no minSeq) was acknowledged seq ${seq} and got ${JSON.stringify(seqs(plain.body))}`);
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
    assert.deepEqual(seqs((await api.get('/v1/channels/room/history?minSeq=1')).body), [1, 2, 3, 4]);
    assert.equal((await api.get('/v1/channels/room/members')).status, 200);
    assert.equal(await reads(gateway, { pool: 'primary', reason: 'failed' }), before + 2);
  });
});
