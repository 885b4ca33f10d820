import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, mintToken } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';

/**
 * No dispatcher runs the deletion within the request's wait (30 s): the request is answered 202
 * with the erasure job and its `Location`, and `GET /v1/erasures/{id}` shows it running. A
 * dispatcher started later runs it; the job then shows the counts the 200 would have had. A
 * second request for the channel meanwhile joins the running deletion instead of starting another.
 */
test('erasure - a channel deletion not finished within the wait: 202 with the job, finished by a later dispatcher', { timeout: 240_000 }, async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const gateway = cluster.gateways[0]!;
  const control = client(gateway.controlUrl, env.secretKey);
  const alice = client(gateway.realtimeUrl, await mintToken(gateway.controlUrl, env.secretKey, 'alice'));
  for (let i = 0; i < 3; i++) assert.equal((await alice.post('/v1/channels/slow/messages', { content: { n: i } })).status, 201);
  assert.equal((await control.put('/v1/channels/slow/members/bob')).status, 200);

  const started = Date.now();
  // a second request for the same channel while the first waits joins its deletion: one job
  const [accepted, joined] = await Promise.all([
    control.delete('/v1/channels/slow'),
    new Promise((resolve) => setTimeout(resolve, 1_000)).then(() => control.delete('/v1/channels/slow')),
  ]);
  assert.equal(accepted.status, 202, JSON.stringify(accepted.body));
  assert.equal(joined.status, 202, JSON.stringify(joined.body));
  assert.equal(joined.body.id, accepted.body.id, 'the second request waited on the same erasure');
  const deletions = await cluster.db.pool.query(`select id from erasure_jobs where environment_id = $1 and channel_id = 'slow'`, [env.environmentId]);
  assert.equal(deletions.rowCount, 1);
  assert.ok(Date.now() - started >= 29_000, 'the request waited for the deletion first');
  const job = accepted.body;
  assert.equal(accepted.headers.get('location'), `/v1/erasures/${job.id}`);
  assert.equal(job.kind, 'channel');
  assert.equal(job.channelId, 'slow');
  assert.equal(job.userId, null);
  assert.equal(job.status, 'running');
  assert.deepEqual(job.deleted, { messages: 0, members: 0, bans: 0 });
  assert.equal((await control.get(`/v1/erasures/${job.id}`)).body.status, 'running');

  await cluster.start('dispatcher');
  const done = await eventually(
    'a dispatcher finishes the deletion',
    async () => {
      const read = (await control.get(`/v1/erasures/${job.id}`)).body;
      return read.status === 'done' ? read : undefined;
    },
    60_000,
  );
  assert.deepEqual(done.deleted, { messages: 3, members: 1, bans: 0 });
  assert.ok(done.finishedAt);
  assert.deepEqual((await control.get('/v1/channels/slow/history')).body.messages, []);
  assert.deepEqual((await control.get('/v1/channels/slow/members')).body.members, []);

  // a channel the environment never had: 404 at once, and no erasure or job is left behind
  const none = await control.delete('/v1/channels/never-was');
  assert.equal(none.status, 404);
  const { rows } = await cluster.db.pool.query(`select id from erasure_jobs where environment_id = $1 and channel_id = 'never-was'`, [env.environmentId]);
  assert.deepEqual(rows, []);
});
