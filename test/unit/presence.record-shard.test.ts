import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RECORD_BURST, RECORD_SPACING_MS, RETRY_MS, RecordShard, decodeRecord } from '@rtm/presence';

const T0 = 1_000_000;
const shardAt = (now = T0) => new RecordShard('env.chan.gw.3', 'env.chan', 'env', 'chan', now);

test('RecordShard: a user comes with their first socket and goes with their last', () => {
  const shard = shardAt();
  assert.equal(shard.add('ann'), true);
  assert.equal(shard.add('ann'), false, 'a second socket: no change');
  assert.equal(shard.remove('ann'), false, 'one socket left');
  assert.equal(shard.users.get('ann'), 1);
  assert.equal(shard.remove('ann'), true);
  assert.equal(shard.users.size, 0);
  assert.equal(shard.remove('ann'), false, 'a user with no socket here changes nothing');
});

test('RecordShard: a write carries the users as they are and changes only what the bucket lacks', () => {
  const shard = shardAt();
  shard.add('ann');
  shard.add('bob');
  shard.add('bob');
  const first = shard.begin(T0);
  assert.equal(shard.writing, true);
  assert.deepEqual(
    decodeRecord(first.value),
    new Map([
      ['ann', 1],
      ['bob', 2],
    ]),
  );
  assert.deepEqual([first.arrived.sort(), first.departed], [['ann', 'bob'], []]);
  shard.succeeded(first);
  assert.equal(shard.writing, false);

  // cid comes and goes between two writes: never written, never announced; ann goes
  shard.add('cid');
  shard.remove('cid');
  shard.remove('ann');
  const second = shard.begin(T0 + 1_000);
  assert.deepEqual([second.arrived, second.departed], [[], ['ann']]);
  assert.deepEqual(decodeRecord(second.value), new Map([['bob', 2]]));
  shard.succeeded(second);

  // ann goes and comes back between two writes: the bucket holds her all along, nothing changes
  shard.add('ann');
  shard.succeeded(shard.begin(T0 + 2_000));
  shard.remove('ann');
  shard.add('ann');
  const third = shard.begin(T0 + 3_000);
  assert.deepEqual([third.arrived, third.departed], [[], []]);
});

test('RecordShard: a failed write puts its changes back for the next one, after RETRY_MS', () => {
  const shard = shardAt();
  shard.add('ann');
  const failed = shard.begin(T0);
  shard.failed(failed, T0);
  assert.equal(shard.dirty, true);
  assert.equal(shard.writing, false);
  assert.equal(shard.wait(T0), RETRY_MS, 'backs off');
  assert.equal(shard.wait(T0 + RETRY_MS), 0);
  shard.add('bob');
  const retry = shard.begin(T0 + RETRY_MS);
  assert.deepEqual(retry.arrived.sort(), ['ann', 'bob'], 'the failed arrival is decided with the retry');
});

test('RecordShard: RECORD_BURST writes at once, then one per RECORD_SPACING_MS; a drain writes at once', () => {
  assert.equal(RECORD_BURST, 2);
  const shard = shardAt();
  assert.equal(shard.wait(T0), 0);
  for (let i = 0; i < RECORD_BURST; i++) shard.succeeded(shard.begin(T0));
  assert.equal(shard.wait(T0), RECORD_SPACING_MS, 'tokens spent: the next waits a spacing');
  assert.equal(shard.wait(T0 + RECORD_SPACING_MS / 2), RECORD_SPACING_MS / 2, 'half a token refilled');
  shard.succeeded(shard.begin(T0 + RECORD_SPACING_MS));
  assert.equal(shard.wait(T0 + RECORD_SPACING_MS), RECORD_SPACING_MS);
  assert.equal(shard.wait(T0 + 10 * RECORD_SPACING_MS), 0, 'a quiet shard refills');
  shard.succeeded(shard.begin(T0 + 10 * RECORD_SPACING_MS));
  shard.succeeded(shard.begin(T0 + 10 * RECORD_SPACING_MS));
  assert.equal(shard.wait(T0 + 10 * RECORD_SPACING_MS), RECORD_SPACING_MS, 'the bucket holds RECORD_BURST tokens at most');

  shard.add('ann');
  shard.failed(shard.begin(T0 + 10 * RECORD_SPACING_MS), T0 + 10 * RECORD_SPACING_MS);
  shard.clear();
  assert.equal(shard.wait(T0 + 10 * RECORD_SPACING_MS), 0, 'neither spacing nor back-off hold a drain');
  assert.equal(shard.users.size, 0);
});

test('RecordShard: a drain departs every user the bucket holds', () => {
  const shard = shardAt();
  shard.add('ann');
  shard.add('bob');
  shard.succeeded(shard.begin(T0));
  shard.add('cid');
  shard.clear();
  const drain = shard.begin(T0 + 1_000);
  assert.deepEqual([drain.arrived, drain.departed.sort()], [[], ['ann', 'bob']]);
  assert.equal(decodeRecord(drain.value).size, 0, 'written empty');
});
