/**
 * The pure pieces of a channel deletion: how the route reads the erasure's row (answer 200 with
 * the counts, 404, or a failure), the pauses of its bounded wait, and the job each erasure kind
 * gets (a channel deletion must never be run by the user erasure's task, nor the other way round).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { channelDeletionOutcome, pollDelays } from '../../libs/db/src/channel-deletion.ts';
import { DELETE_CHANNEL_TASK, ERASE_TASK, eraseJobSql } from '../../libs/db/src/erasure-jobs.ts';

const counts = { messages: 12, members: 2, bans: 1 };

test('channel deletion outcome: running until the job ends; then the counts, 404 or the failure', () => {
  assert.deepEqual(channelDeletionOutcome({ status: 'running', channelFound: true, deleted: counts, lastError: 'boom' }), { state: 'running' });
  assert.deepEqual(channelDeletionOutcome({ status: 'running', channelFound: null, deleted: counts, lastError: null }), { state: 'running' });
  assert.deepEqual(channelDeletionOutcome({ status: 'done', channelFound: true, deleted: counts, lastError: null }), { state: 'deleted', deleted: counts });
  assert.deepEqual(channelDeletionOutcome({ status: 'done', channelFound: false, deleted: { messages: 0, members: 0, bans: 0 }, lastError: null }), {
    state: 'not_found',
  });
  assert.deepEqual(channelDeletionOutcome({ status: 'failed', channelFound: true, deleted: counts, lastError: 'unavailable' }), {
    state: 'failed',
    error: 'unavailable',
  });
  assert.deepEqual(channelDeletionOutcome({ status: 'failed', channelFound: null, deleted: counts, lastError: null }), { state: 'failed', error: 'gave up' });
});

test("channel deletion outcome: the counts are a copy, not the job's object", () => {
  const job = { status: 'done' as const, channelFound: true, deleted: { ...counts }, lastError: null };
  const outcome = channelDeletionOutcome(job);
  assert.ok(outcome.state === 'deleted');
  outcome.deleted.messages = 0;
  assert.equal(job.deleted.messages, 12);
});

test('poll delays: short first, doubling up to the cap, summing to exactly the budget', () => {
  const delays = pollDelays(30_000);
  assert.deepEqual(delays.slice(0, 6), [25, 50, 100, 200, 400, 500]);
  assert.equal(
    delays.reduce((a, b) => a + b, 0),
    30_000,
  );
  assert.ok(delays.every((d) => d > 0 && d <= 500));
  assert.deepEqual(pollDelays(100), [25, 50, 25]);
  assert.deepEqual(pollDelays(0), []);
  assert.deepEqual(pollDelays(1_000, 100, 300), [100, 200, 300, 300, 100]);
});

test('erasure jobs: each kind gets its own task under the key erasure:<id>', () => {
  const sql = eraseJobSql('e.id', 'e.kind');
  assert.match(sql, new RegExp(`case e\\.kind when 'channel' then '${DELETE_CHANNEL_TASK}' else '${ERASE_TASK}' end`));
  assert.match(sql, /job_key := 'erasure:' \|\| e\.id/);
  assert.notEqual(DELETE_CHANNEL_TASK, ERASE_TASK);
});
