/**
 * When the read pool (a streaming replica) may answer: a history page must hold every message up
 * to what its reader says it has (`minSeq`, its cursor), else everything committed before the
 * request (the WAL rule); a replica behind gets one short wait, then the primary answers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { afterBehind, historyNeed, lagSeconds, lsnBytes, replayedTo, replicaHolds } from '../../libs/db/src/read-freshness.ts';
import { Reads, type ReadServed } from '../../libs/db/src/reads.ts';

test('read freshness: the seq a history page needs is the most its reader holds', () => {
  // no minSeq: the request does not say what its reader has (the WAL rule decides)
  assert.equal(historyNeed({}), undefined);
  assert.equal(historyNeed({ after: 40, before: 90 }), undefined);
  assert.equal(historyNeed({ minSeq: 0 }), 0);
  assert.equal(historyNeed({ minSeq: 17 }), 17);
  // a cursor is held too: `after` itself, and everything below `before`
  assert.equal(historyNeed({ minSeq: 17, after: 30 }), 30);
  assert.equal(historyNeed({ minSeq: 17, before: 51 }), 50);
  assert.equal(historyNeed({ minSeq: 80, after: 30, before: 51 }), 80);
});

test('read freshness: a replica answers when its last_seq reaches the need', () => {
  assert.equal(replicaHolds(10, 10), true);
  assert.equal(replicaHolds(11, 10), true);
  assert.equal(replicaHolds(9, 10), false);
  // a channel the replica has not seen yet reads as 0: enough only for a reader who holds nothing
  assert.equal(replicaHolds(0, 0), true);
  assert.equal(replicaHolds(0, 1), false);
});

test('read freshness: behind once, wait; behind twice (or no wait), the primary', () => {
  assert.equal(afterBehind(1, 20), 'wait');
  assert.equal(afterBehind(2, 20), 'primary');
  assert.equal(afterBehind(1, 0), 'primary');
});

test('read freshness: WAL positions compare as numbers, not text', () => {
  assert.equal(lsnBytes('0/0'), 0n);
  assert.equal(lsnBytes('1/0'), 1n << 32n);
  assert.ok(lsnBytes('0/A0000000') > lsnBytes('0/9FFFFFFF'));
  assert.ok(lsnBytes('10/0') > lsnBytes('F/FFFFFFFF'));
  assert.throws(() => lsnBytes('nonsense'));
  assert.equal(replayedTo({ standby: true, replayed: '0/3000060' }, '0/3000060'), true);
  assert.equal(replayedTo({ standby: true, replayed: '0/3000060' }, '0/3000100'), false);
  assert.equal(replayedTo({ standby: true, replayed: null }, '0/1'), false);
  // a primary in the read pool (prefer-standby found no standby) has its own commits
  assert.equal(replayedTo({ standby: false, replayed: null }, 'FF/0'), true);
});

test('read freshness: lag is 0 for an idle primary, the replay age otherwise', () => {
  // streaming and everything received replayed: current, however old the last transaction
  assert.equal(lagSeconds({ standby: true, streaming: true, unreplayedBytes: 0, sinceReplay: 600 }), 0);
  // WAL waiting to be replayed (replay paused or slow): the age of the last replayed transaction
  assert.equal(lagSeconds({ standby: true, streaming: true, unreplayedBytes: 8192, sinceReplay: 12.5 }), 12.5);
  // not streaming: nothing says the primary is idle
  assert.equal(lagSeconds({ standby: true, streaming: false, unreplayedBytes: 0, sinceReplay: 40 }), 40);
  assert.equal(lagSeconds({ standby: true, streaming: false, unreplayedBytes: 0, sinceReplay: null }), 0);
  assert.equal(lagSeconds({ standby: false, streaming: false, unreplayedBytes: 0, sinceReplay: null }), 0);
});

/** A pool that answers as told and records where queries went. */
function fakePool(name: string, log: string[]) {
  return {
    query: async () => {
      log.push(name);
      return { rows: [] };
    },
  } as never;
}

test('reads: without a read pool every read is the primary\'s, asking nothing more', async () => {
  const log: string[] = [];
  const served: ReadServed[] = [];
  const reads = new Reads(fakePool('primary', log), undefined, (_, s) => served.push(s));
  const answer = await reads.ofChannel('history', 5, async () => assert.fail('no replica'), async (pool) => (await pool.query('x'), 'primary page'));
  assert.equal(answer, 'primary page');
  assert.equal(await reads.current('ledger', async (db) => (await db.query('x'), 'ledger page')), 'ledger page');
  assert.deepEqual(log, ['primary', 'primary']);
  assert.deepEqual(served, [{ pool: 'primary', reason: 'no_replica' }, { pool: 'primary', reason: 'no_replica' }]);
});

test('reads: a channel read goes to the replica when current, waits once, then the primary', async () => {
  const served: ReadServed[] = [];
  const reads = new Reads(fakePool('primary', []), fakePool('replica', []), (_, s) => served.push(s), 5);
  const onPrimary = async () => 'from primary';
  // current at once
  assert.equal(await reads.ofChannel('history', 7, async () => ({ lastSeq: 7, answer: 'from replica' }), onPrimary), 'from replica');
  // behind, then caught up after the wait
  let looks = 0;
  assert.equal(await reads.ofChannel('replay', 7, async () => (++looks === 1 ? { lastSeq: 6, answer: undefined } : { lastSeq: 8, answer: 'caught up' }), onPrimary), 'caught up');
  // still behind after the wait: the primary
  looks = 0;
  assert.equal(await reads.ofChannel('history', 7, async () => (looks++, { lastSeq: 6, answer: undefined }), onPrimary), 'from primary');
  assert.equal(looks, 2);
  // the replica fails: the primary
  assert.equal(await reads.ofChannel('history', 7, async () => { throw Object.assign(new Error('gone'), { code: 'ECONNREFUSED' }); }, onPrimary), 'from primary');
  assert.deepEqual(served, [
    { pool: 'replica', reason: 'current' },
    { pool: 'replica', reason: 'waited' },
    { pool: 'primary', reason: 'behind' },
    { pool: 'primary', reason: 'failed' },
  ]);
});
