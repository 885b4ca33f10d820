import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { erasureRunner, writeUserMessages } from './helpers/stored-messages.ts';
import { client, mintToken } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';

const MESSAGES = 60_000;
const BATCH = 50;

/**
 * The dispatcher running a channel deletion dies (SIGKILL) between two of its batches: the other
 * dispatcher's recovery pass unlocks the job, and its run takes the deletion (a new token), marks
 * the channel again and finishes it. Nothing of the channel is left, the mark is lifted, and the
 * counts are exact: each message counted once, by the run that deleted it.
 */
test('erasure - a dispatcher killed mid channel deletion: the other one finishes it, counts exact', { timeout: 300_000 }, async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1, dispatchers: 2, env: { CHANNEL_DELETION_BATCH: String(BATCH) } });
  const env = await cluster.createEnvironment();
  const pool = cluster.db.pool;
  await writeUserMessages(pool, { environmentId: env.environmentId, userId: 'alice', channels: 1, perChannel: MESSAGES, tag: 'doomed' });
  const control = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  assert.equal((await control.put('/v1/channels/room-0/members/alice')).status, 200);
  assert.equal((await control.put('/v1/channels/room-0/members/bob')).status, 200);
  assert.equal((await control.put('/v1/channels/room-0/bans/mallory', { reason: 'spam' })).status, 200);

  // the request waits for the deletion (up to 30 s), which outlives the dispatcher that started it
  const answer = control.delete('/v1/channels/room-0');
  const erasure = await eventually('the deletion is accepted', async () => {
    const { rows } = await pool.query<{ id: string }>(`select id from erasure_jobs where environment_id = $1 and channel_id = 'room-0'`, [env.environmentId]);
    return rows[0];
  });
  const key = `erasure:${erasure.id}`;

  // mid-deletion: some batches done, the job locked by a worker pool; whose, by its liveness lock's connection
  const holder = await eventually(
    'the deletion is under way on a dispatcher',
    async () => {
      const row = await erasureRunner(pool, erasure.id);
      return row && row.deleted >= 5 * BATCH && row.deleted < MESSAGES / 2 ? row : undefined;
    },
    120_000,
  );
  const victim = cluster.dispatchers.find((d) => d.name === holder.name);
  assert.ok(victim, `the job's holder ${holder.name} is one of the dispatchers`);
  const survivor = cluster.dispatchers.find((d) => d !== victim)!;
  await victim.kill();
  const atKill = await pool.query<{ deleted: string; lease_token: string; locked_by: string | null; marked: boolean }>(
    `select e.deleted_messages as deleted, e.lease_token, j.locked_by,
       (select deleting_until > now() from channels where environment_id = $3 and id = 'room-0') as marked
     from erasure_jobs e left join graphile_worker.jobs j on j.key = $2 where e.id = $1`,
    [erasure.id, key, env.environmentId],
  );
  assert.equal(atKill.rows[0]!.locked_by, holder.lockedBy, 'the dead dispatcher still held the job when it died');
  assert.ok(Number(atKill.rows[0]!.deleted) < MESSAGES, 'killed mid-deletion');
  assert.equal(atKill.rows[0]!.marked, true, 'the channel was marked when its deleter died');

  const done = await eventually(
    'the deletion finishes on the other dispatcher',
    async () => {
      const job = (await control.get(`/v1/erasures/${erasure.id}`)).body;
      return job.status === 'done' ? job : undefined;
    },
    180_000,
  );
  assert.equal(done.kind, 'channel');
  assert.equal(done.channelId, 'room-0');
  assert.equal(done.userId, null);
  assert.deepEqual(done.deleted, { messages: MESSAGES, members: 2, bans: 1 }, 'each message counted exactly once');
  assert.equal(done.lastError, null);

  // the request's answer: the counts if the deletion ended within its wait, else the job to follow
  const response = await answer;
  t.diagnostic(`killed after ${atKill.rows[0]!.deleted} of ${MESSAGES} messages; the request was answered ${response.status}`);
  if (response.status === 200) assert.deepEqual(response.body, { channelId: 'room-0', deleted: { messages: MESSAGES, members: 2, bans: 1 } });
  else {
    assert.equal(response.status, 202, JSON.stringify(response.body));
    assert.equal(response.headers.get('location'), `/v1/erasures/${erasure.id}`);
  }

  // nothing of the channel is left, and it is no longer marked
  const left = await pool.query<{ messages: string; members: string; bans: string; deleting_until: Date | null; access: unknown }>(
    `select (select count(*) from messages where channel_pk = c.pk) as messages,
       (select count(*) from memberships where environment_id = c.environment_id and channel_id = c.id) as members,
       (select count(*) from bans where environment_id = c.environment_id and channel_id = c.id) as bans,
       c.deleting_until, c.access
     from channels c where c.environment_id = $1 and c.id = 'room-0'`,
    [env.environmentId],
  );
  assert.deepEqual(
    { messages: Number(left.rows[0]!.messages), members: Number(left.rows[0]!.members), bans: Number(left.rows[0]!.bans) },
    { messages: 0, members: 0, bans: 0 },
  );
  assert.equal(left.rows[0]!.deleting_until, null, 'the mark is lifted');
  const after = await pool.query<{ lease_token: string }>('select lease_token from erasure_jobs where id = $1', [erasure.id]);
  assert.notEqual(after.rows[0]!.lease_token, atKill.rows[0]!.lease_token, 'another run took the deletion');
  assert.equal(survivor.child.exitCode, null, 'the other dispatcher is still running');

  // the channel lives on: a publish after the deletion continues after its last seq
  const aliceToken = await mintToken(cluster.gateways[0]!.controlUrl, env.secretKey, 'alice');
  const published = await client(cluster.gateways[0]!.realtimeUrl, aliceToken).post('/v1/channels/room-0/messages', { content: { after: true } });
  assert.equal(published.status, 201, JSON.stringify(published.body));
  assert.equal(published.body.seq, MESSAGES + 1);
});
