import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken } from './helpers/http.ts';
import { openSocket } from './helpers/ws.ts';
import { eventually } from './helpers/eventually.ts';
import { startReceiver } from './helpers/webhook-receiver.ts';

const retractedIds = (received: { raw: Buffer }[]) =>
  new Set(
    received
      .map((r) => JSON.parse(r.raw.toString('utf8')))
      .filter((event) => event.type === 'message.retracted')
      .map((event) => event.data.id as string),
  );

test('erasure - every message of a user is retracted in batches, with a webhook each, and the job can be followed', { timeout: 240_000 }, async (t) => {
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 1, dispatchers: 1 });
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const receiver = await startReceiver(t);
  const env = await cluster.createEnvironment();
  const control = client(gwA.controlUrl, env.secretKey);
  assert.equal((await control.put('/v1/config', { webhooks: { url: receiver.url }, limits: { userPublishesPerSecond: 10_000 } })).status, 200);
  const alice = client(gwB.realtimeUrl, await mintToken(gwA.controlUrl, env.secretKey, 'alice'));
  const bob = client(gwB.realtimeUrl, await mintToken(gwA.controlUrl, env.secretKey, 'bob'));

  // 230 messages of alice (over two batches and a half) in three channels, and some of bob's
  const aliceIds: string[] = [];
  for (let i = 0; i < 230; i++) {
    const res = await alice.post(`/v1/channels/room-${i % 3}/messages`, { content: { n: i } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    aliceIds.push(res.body.id);
  }
  const bobIds: string[] = [];
  for (let i = 0; i < 5; i++) bobIds.push((await bob.post(`/v1/channels/room-${i % 3}/messages`, { content: { bob: i } })).body.id);
  // the server's own messages on alice's behalf are not hers
  assert.equal((await control.post('/v1/channels/room-0/messages', { content: { server: true } })).status, 201);
  await receiver.waitFor((r) => r.length >= 236, 'the published events');
  // alice edited one of hers, and reacted to bob's: an erasure leaves neither her words nor her name
  assert.equal((await alice.patch(`/v1/channels/room-0/messages/${aliceIds[0]}`, { content: { n: 0, secret: 'edited' } })).status, 200);
  for (const type of ['heart', 'clap']) {
    assert.equal((await alice.post(`/v1/channels/room-${0}/messages/${bobIds[0]}/reactions`, { type })).status, 200);
  }
  assert.equal((await bob.post(`/v1/channels/room-0/messages/${bobIds[0]}/reactions`, { type: 'heart' })).status, 200);

  const watcher = openSocket(gwA.realtimeUrl, `/v1/channels/room-1?token=${await mintToken(gwA.controlUrl, env.secretKey, 'carol')}`);
  await watcher.waitFor('ready', (f) => f.op === 'ready');

  const started = await client(gwB.controlUrl, env.secretKey).delete('/v1/users/alice/messages');
  assert.equal(started.status, 202);
  assert.match(started.body.id, /^erj_/);
  assert.equal(started.body.userId, 'alice');
  assert.equal(started.headers.get('location'), `/v1/erasures/${started.body.id}`);

  await eventually('the job is done', async () => (await control.get(`/v1/erasures/${started.body.id}`)).body.status === 'done', 60_000);
  const job = (await control.get(`/v1/erasures/${started.body.id}`)).body;
  assert.equal(job.retracted, 230);
  assert.equal(job.lastError, null);
  assert.ok(job.finishedAt);

  for (let c = 0; c < 3; c++) {
    const history = (await control.get(`/v1/channels/room-${c}/history?limit=500`)).body.messages as any[];
    for (const message of history) {
      const isAlice = message.sender.id === 'alice' && message.kind === 'user';
      assert.equal(message.retracted, isAlice, `message ${message.id} of ${message.sender.id}`);
      if (isAlice) assert.equal(message.content, null);
    }
  }
  // her reactions are gone from bob's message and its summary; her versions with her message
  const bobs = (await control.get('/v1/channels/room-0/history?limit=500')).body.messages.find((m: any) => m.id === bobIds[0]);
  assert.deepEqual(bobs.reactions, { heart: { count: 1, users: ['bob'], clipped: false } });
  assert.deepEqual((await control.get(`/v1/channels/room-0/messages/${aliceIds[0]}/versions`)).body, { versions: [] });
  // one webhook per retracted message, none for anyone else's
  await receiver.waitFor((r) => retractedIds(r).size >= 230, 'the retraction events');
  assert.deepEqual([...retractedIds(receiver.received)].sort(), [...aliceIds].sort());
  for (const id of bobIds) assert.equal(retractedIds(receiver.received).has(id), false);
  // sockets were told, with the reason
  const frame = await watcher.waitFor('a retract frame', (f) => f.op === 'retract');
  assert.equal(frame.reason, 'erased');
  await watcher.close();

  // another environment cannot see the job; bad ids are 400
  const other = await cluster.createEnvironment('other');
  assert.equal(errorCode(await client(gwA.controlUrl, other.secretKey).get(`/v1/erasures/${started.body.id}`)), 'not_found');
  assert.equal(errorCode(await control.get('/v1/erasures/nope')), 'invalid_request');
  // erasing a user with nothing left finishes with nothing retracted
  const again = await control.delete('/v1/users/alice/messages');
  await eventually('the second job is done', async () => (await control.get(`/v1/erasures/${again.body.id}`)).body.status === 'done', 60_000);
  assert.equal((await control.get(`/v1/erasures/${again.body.id}`)).body.retracted, 0);
});

test('erasure - a job whose dispatcher died after its first batch is resumed at its cursor; one without a job gets one', { timeout: 240_000 }, async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const gw = cluster.gateways[0]!;
  const pool = cluster.db.pool;
  const env = await cluster.createEnvironment();
  const control = client(gw.controlUrl, env.secretKey);
  assert.equal((await control.put('/v1/config', { limits: { userPublishesPerSecond: 10_000 } })).status, 200);
  const dave = client(gw.realtimeUrl, await mintToken(gw.controlUrl, env.secretKey, 'dave'));
  const erin = client(gw.realtimeUrl, await mintToken(gw.controlUrl, env.secretKey, 'erin'));
  const seqs: number[] = [];
  for (let i = 0; i < 150; i++) seqs.push((await dave.post('/v1/channels/log/messages', { content: { n: i } })).body.seq);
  for (let i = 0; i < 20; i++) assert.equal((await erin.post('/v1/channels/log/messages', { content: { n: i } })).status, 201);
  const { rows } = await pool.query<{ pk: string }>('select pk from channels where environment_id = $1 and id = $2', [env.environmentId, 'log']);
  // the rows a dispatcher leaves when it dies after its first batch of 60: cursor at the 60th message, 60 counted, and its
  // job still locked by a worker pool that is gone (no liveness lock: worker-recovery.ts unlocks it)
  const crashed = 'erj_00000000000000000000000000';
  await pool.query(
    `insert into erasure_jobs (id, environment_id, kind, user_id, cursor_channel_pk, cursor_seq, retracted, lease_token)
     values ($1, $2, 'user_messages', 'dave', $3, $4, 60, 'the-dead-run')`,
    [crashed, env.environmentId, rows[0]!.pk, seqs[59]],
  );
  await pool.query(`select graphile_worker.add_job('erase_user_messages', json_build_object('erasureId', $1::text), job_key := 'erasure:' || $1)`, [crashed]);
  await pool.query(
    `update graphile_worker._private_jobs set locked_by = 'worker-pool-that-died', locked_at = now() - interval '1 minute', attempts = 1 where key = $1`,
    [`erasure:${crashed}`],
  );
  // an erasure accepted by a gateway of the previous release: a row and no job
  const orphan = 'erj_00000000000000000000000001';
  await pool.query(`insert into erasure_jobs (id, environment_id, kind, user_id) values ($1, $2, 'user_messages', 'erin')`, [orphan, env.environmentId]);

  await cluster.start('dispatcher');
  await eventually('the crashed job is resumed and done', async () => (await control.get(`/v1/erasures/${crashed}`)).body.status === 'done', 60_000);
  assert.equal((await control.get(`/v1/erasures/${crashed}`)).body.retracted, 150);
  await eventually('the job without a job is done', async () => (await control.get(`/v1/erasures/${orphan}`)).body.status === 'done', 90_000);
  assert.equal((await control.get(`/v1/erasures/${orphan}`)).body.retracted, 20);
  const history = (await control.get('/v1/channels/log/history?limit=500')).body.messages as any[];
  // the first 60 were the dead run's batch (not retracted in this simulation): the job resumed after them
  assert.deepEqual(
    history.slice(0, 150).map((m) => m.retracted),
    [...Array(60).fill(false), ...Array(90).fill(true)],
  );
  assert.ok(history.slice(150).every((m) => m.retracted && m.sender.id === 'erin'));
  // a finished erasure's job is gone
  await eventually('no erasure job is left', async () => (await pool.query(`select 1 from graphile_worker.jobs where key like 'erasure:%'`)).rowCount === 0);
});
