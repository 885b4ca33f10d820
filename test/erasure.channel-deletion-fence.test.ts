import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createChannelDeletion,
  deleteMessageBatch,
  endChannelDeletion,
  finishChannelRows,
  getErasureJob,
  LOST,
  markChannel,
  reconcileErasureJobs,
  releaseChannelDeletion,
  takeChannelDeletion,
  type ErasureJob,
} from '@rtm/db';
import { createTestDatabase } from './helpers/database.ts';
import { writeUserMessages } from './helpers/stored-messages.ts';

/**
 * The steps of a channel deletion (libs/db channel-deletion.ts) against Postgres, two runs of one
 * job interleaved by hand: once the newer run has taken the deletion, every step of the older
 * one (a batch, its count, the last transaction, lifting the mark, ending it) changes nothing,
 * while the newer run's steps go on; the counts are those of the batches that deleted.
 */
test("erasure - a channel deletion's steps are fenced by the run's token", { timeout: 120_000 }, async (t) => {
  const db = await createTestDatabase(t);
  const pool = db.pool;
  await pool.query(`insert into organizations (id, name) values ('org_f', 'o')`);
  await pool.query(`insert into projects (id, organization_id, name) values ('prj_f', 'org_f', 'p')`);
  await pool.query(`insert into environments (id, project_id, name) values ('env_f', 'prj_f', 'e')`);
  await writeUserMessages(pool, { environmentId: 'env_f', userId: 'alice', channels: 1, perChannel: 100, tag: 'fence' });
  await pool.query(`insert into memberships (environment_id, channel_id, user_id) values ('env_f', 'room-0', 'bob')`);
  await pool.query(`insert into bans (environment_id, channel_id, user_id) values ('env_f', 'room-0', 'mallory')`);
  const markOf = async () =>
    (await pool.query(`select coalesce(deleting_until > now(), false) as marked from channels where id = 'room-0'`)).rows[0].marked as boolean;

  const created = await createChannelDeletion(pool, 'env_f', 'room-0');
  assert.equal(created.kind, 'channel');
  assert.equal(created.channelId, 'room-0');
  const job = await pool.query(`select task_identifier from graphile_worker.jobs where key = $1`, [`erasure:${created.id}`]);
  assert.equal(job.rows[0].task_identifier, 'delete_channel', 'the deletion has its job, of its own task');
  // a job lost meanwhile is given back under the same task
  await pool.query(`select graphile_worker.remove_job($1)`, [`erasure:${created.id}`]);
  assert.deepEqual(await reconcileErasureJobs(pool), { given: 1, failed: 0 });
  assert.equal(
    (await pool.query(`select task_identifier from graphile_worker.jobs where key = $1`, [`erasure:${created.id}`])).rows[0].task_identifier,
    'delete_channel',
  );

  const older = (await takeChannelDeletion(pool, created.id, '1:1')) as ErasureJob;
  const marked = await markChannel(pool, older);
  assert.ok(marked && marked !== LOST && marked.pk !== null);
  assert.equal(await markOf(), true);
  assert.equal(await deleteMessageBatch(pool, older, marked.pk!, 30), 30);

  // the job runs again elsewhere (its dispatcher was taken for dead): the newer run takes the deletion
  const newer = (await takeChannelDeletion(pool, created.id, '1:2')) as ErasureJob;
  assert.equal(newer.deleted.messages, 30, "the older run's batch was counted");
  assert.equal(await deleteMessageBatch(pool, older, marked.pk!, 30), LOST);
  assert.equal(await markChannel(pool, older), LOST);
  assert.equal(await finishChannelRows(pool, older, marked.pk!), LOST);
  assert.equal(await releaseChannelDeletion(pool, older, 'late'), false);
  assert.equal(await markOf(), true, "the older run did not lift the newer run's mark");
  assert.equal(await endChannelDeletion(pool, older), false);
  const left = await pool.query(`select count(*)::int as n from messages m join channels c on c.pk = m.channel_pk where c.id = 'room-0'`);
  assert.equal(left.rows[0].n, 70, 'the older run deleted nothing more');

  // the newer run goes on and ends it
  assert.deepEqual(await markChannel(pool, newer), { pk: marked.pk });
  assert.equal(await deleteMessageBatch(pool, newer, marked.pk!, 50), 50);
  assert.equal(await deleteMessageBatch(pool, newer, marked.pk!, 50), 20);
  const finished = await finishChannelRows(pool, newer, marked.pk!);
  assert.ok(finished !== LOST);
  assert.deepEqual(finished.deleted, { messages: 100, members: 1, bans: 1 });
  assert.equal(finished.channelClosing, true);
  assert.equal(await markOf(), false, 'the mark is lifted in the last transaction');
  assert.equal((await getErasureJob(pool, 'env_f', created.id))!.status, 'running', 'running until the sockets are closed again');
  assert.equal(await endChannelDeletion(pool, newer), true);
  const done = (await getErasureJob(pool, 'env_f', created.id))!;
  assert.equal(done.status, 'done');
  assert.equal(done.channelFound, true);
  assert.deepEqual(done.deleted, { messages: 100, members: 1, bans: 1 });
  assert.equal(await takeChannelDeletion(pool, created.id, '1:3'), 'gone');

  // nothing to delete: the deletion ends at its first step, found nothing
  const nothing = await createChannelDeletion(pool, 'env_f', 'never-was');
  const run = (await takeChannelDeletion(pool, nothing.id, '2:1')) as ErasureJob;
  assert.equal(await markChannel(pool, run), null);
  const ended = (await getErasureJob(pool, 'env_f', nothing.id))!;
  assert.deepEqual([ended.status, ended.channelFound], ['done', false]);
});
