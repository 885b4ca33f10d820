/**
 * When the read pool (a streaming replica) may answer: once it has replayed the primary's WAL
 * position read when the read starts (every change committed before, retractions included); a
 * replica behind gets one short wait, then the primary answers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { afterBehind, lagSeconds, lsnBytes, replayedTo } from '../../libs/db/src/read-freshness.ts';
import { Reads, type ReadServed } from '../../libs/db/src/reads.ts';

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

test("reads: without a read pool every read is the primary's, asking nothing more", async () => {
  const log: string[] = [];
  const served: ReadServed[] = [];
  const reads = new Reads(fakePool('primary', log), undefined, (_, s) => served.push(s));
  assert.equal(await reads.current('history', async (db) => (await db.query('x'), 'history page')), 'history page');
  assert.equal(await reads.current('ledger', async (db) => (await db.query('x'), 'ledger page')), 'ledger page');
  assert.deepEqual(log, ['primary', 'primary']);
  assert.deepEqual(served, [
    { pool: 'primary', reason: 'no_replica' },
    { pool: 'primary', reason: 'no_replica' },
  ]);
});

/**
 * A primary at WAL position `lsn` and a replica whose replay reaches the positions of `replayed`,
 * one per look (the last one stays); `down` makes the replica refuse sessions.
 */
function servers(lsn: string, replayed: string[], options: { down?: boolean } = {}) {
  const log: string[] = [];
  let looks = 0;
  const primary = {
    query: async (sql: string) => {
      if (sql.includes('pg_current_wal_lsn')) return { rows: [{ lsn }] };
      log.push('primary');
      return { rows: [] };
    },
  } as never;
  const client = {
    query: async (sql: string) => {
      if (sql.includes('pg_last_wal_replay_lsn')) return { rows: [{ standby: true, replayed: replayed[Math.min(looks++, replayed.length - 1)] }] };
      log.push('replica');
      return { rows: [] };
    },
    release: () => {},
  };
  const replica = {
    connect: async () => {
      if (options.down) throw Object.assign(new Error('gone'), { code: 'ECONNREFUSED' });
      return client;
    },
  } as never;
  return { primary, replica, log, looks: () => looks };
}

test("reads: the replica answers once it has replayed the primary's position, waits once, then the primary", async () => {
  const served: ReadServed[] = [];
  const page = async (db: { query(sql: string): Promise<unknown> }) => (await db.query('page'), 'page');
  const read = async (lsn: string, replayed: string[], options: { down?: boolean } = {}) => {
    const set = servers(lsn, replayed, options);
    const answer = await new Reads(set.primary, set.replica, (_, s) => served.push(s), 5).current('history', page);
    return { answer, log: set.log, looks: set.looks() };
  };
  // replayed exactly to the primary's position: current at once
  assert.deepEqual(await read('0/3000100', ['0/3000100']), { answer: 'page', log: ['replica'], looks: 1 });
  // behind, then caught up after the wait
  assert.deepEqual(await read('0/3000100', ['0/3000060', '0/3000200']), { answer: 'page', log: ['replica'], looks: 2 });
  // still behind after the wait (one byte short): the primary
  assert.deepEqual(await read('0/3000100', ['0/30000FF']), { answer: 'page', log: ['primary'], looks: 2 });
  // the replica refuses sessions: the primary
  assert.deepEqual(await read('0/3000100', ['0/3000100'], { down: true }), { answer: 'page', log: ['primary'], looks: 0 });
  assert.deepEqual(served, [
    { pool: 'replica', reason: 'current' },
    { pool: 'replica', reason: 'waited' },
    { pool: 'primary', reason: 'behind' },
    { pool: 'primary', reason: 'failed' },
  ]);
});
