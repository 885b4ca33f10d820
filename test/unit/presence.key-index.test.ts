import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PresenceKeyIndex, type IndexedEntry } from '../../apps/gateway/src/presence/key-index.ts';

const at = new Date(1_000_000);
const put = (key: string, revision: number, created = at): IndexedEntry => ({ key, revision, operation: 'PUT', created });
const purge = (key: string, revision: number): IndexedEntry => ({ key, revision, operation: 'PURGE', created: at });

test('PresenceKeyIndex: other gateways of the same user and channel, with their latest revision', () => {
  const index = new PresenceKeyIndex(15_000, 'gw-me');
  index.apply(put('env.chan.user.gw-other', 3));
  index.apply(put('env.chan.user.gw-me', 4));
  index.apply(put('env.chan.someone.gw-third', 5));
  index.apply(put('env.chan.user.gw-other', 6));
  assert.deepEqual(index.others('env.chan.user.gw-me', at.getTime()), [{ key: 'env.chan.user.gw-other', revision: 6 }]);
  index.apply(purge('env.chan.user.gw-other', 7));
  assert.deepEqual(index.others('env.chan.user.gw-me', at.getTime()), []);
  assert.equal(index.revision, 7);
});

test('PresenceKeyIndex: a key older than the TTL has aged out of the bucket and is not counted', () => {
  const index = new PresenceKeyIndex(2_000, 'gw-me');
  index.apply(put('env.chan.user.gw-dead', 1, new Date(at.getTime() - 2_001)));
  index.apply(put('env.chan.user.gw-alive', 2, new Date(at.getTime() - 1_999)));
  assert.deepEqual(index.others('env.chan.user.gw-me', at.getTime()), [{ key: 'env.chan.user.gw-alive', revision: 2 }]);
});

test('PresenceKeyIndex: caughtUp waits for the watcher to deliver the revision written', async () => {
  const index = new PresenceKeyIndex(15_000, 'gw-me');
  let done = false;
  const waiting = index.caughtUp(3, 10_000).then((caught) => void (done = caught));
  index.apply(put('env.a.u.gw-x', 1));
  index.apply(put('env.a.u.gw-y', 2));
  await Promise.resolve();
  assert.equal(done, false, 'revision 3 not delivered yet');
  index.apply(put('env.a.u.gw-me', 3));
  await waiting;
  assert.equal(done, true);
  assert.equal(await index.caughtUp(2, 10_000), true); // already delivered: at once
});

test('PresenceKeyIndex: a purge waits for its own removal, not an earlier one', async () => {
  const index = new PresenceKeyIndex(15_000, 'gw-me');
  const key = 'env.a.u.gw-me';
  index.apply(put(key, 1));
  index.apply(purge(key, 2));
  const mark = index.removalsOf(key);
  assert.equal(mark, 1, 'an earlier removal was delivered');
  let done = false;
  let revision: number | undefined;
  const waiting = index.removed(key, mark, 10_000).then((at) => {
    done = true;
    revision = at;
  });
  index.apply(put('env.a.other.gw-me', 3));
  index.apply(purge('env.a.u.gw-other', 4));
  await Promise.resolve();
  assert.equal(done, false, 'neither another key of ours nor another gateway’s removal counts');
  index.apply(purge(key, 5));
  await waiting;
  assert.equal(revision, 5, 'the removal’s own revision, which orders the departure among every gateway’s decisions');
  assert.equal(index.removalsOf(key), 0, 'the count is dropped once waited for');
});

test('PresenceKeyIndex: an abandoned index releases its waiters and reports itself not live', async () => {
  const index = new PresenceKeyIndex(15_000, 'gw-me');
  const waiting = index.caughtUp(10, 10_000);
  index.abandon();
  assert.equal(await waiting, false);
  assert.equal(index.live, false);
  assert.equal(await index.caughtUp(20, 10_000), false);
});

test('PresenceKeyIndex: a watcher that stalls without ending releases its waiters after the limit, not caught up', async () => {
  const index = new PresenceKeyIndex(15_000, 'gw-me');
  const key = 'env.a.u.gw-me';
  index.apply(put(key, 1));
  const [caught, purged] = await Promise.all([index.caughtUp(2, 50), index.removed(key, index.removalsOf(key), 50)]);
  assert.deepEqual([caught, purged], [false, undefined], 'neither the write nor the purge was delivered: the caller looks in the bucket');
  // a late delivery wakes nobody who gave up, and a new wait sees it at once
  index.apply(put('env.a.v.gw-x', 2));
  assert.equal(await index.caughtUp(2, 50), true);
});

test('PresenceKeyIndex: a sweep forgets aged-out keys of channels nobody asks about again', () => {
  const index = new PresenceKeyIndex(2_000, 'gw-me');
  index.apply(put('env.quiet.user.gw-dead', 1, new Date(at.getTime() - 2_001)));
  index.apply(put('env.other.user.gw-dead', 2, new Date(at.getTime() - 5_000)));
  index.apply(put('env.chan.user.gw-alive', 3, new Date(at.getTime() - 1_999)));
  assert.equal(index.size, 3);
  index.sweep(at.getTime());
  assert.equal(index.size, 1);
  assert.deepEqual(index.others('env.chan.user.gw-me', at.getTime()), [{ key: 'env.chan.user.gw-alive', revision: 3 }]);
});
