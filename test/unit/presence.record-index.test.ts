import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PresenceRecordIndex, decodeRecord, encodeRecord, type IndexedRecord } from '@rtm/presence';

const at = new Date(1_000_000);
const now = at.getTime();
const put = (key: string, revision: number, users: Record<string, number>, created = at): IndexedRecord => ({
  key,
  revision,
  operation: 'PUT',
  created,
  value: encodeRecord(new Map(Object.entries(users))),
});
const purge = (key: string, revision: number): IndexedRecord => ({ key, revision, operation: 'PURGE', created: at, value: new Uint8Array() });

test('records: encoded as a JSON object of socket counts; anything malformed reads as nobody', () => {
  const users = new Map([
    ['ann', 2],
    ['b"o\\b', 1],
  ]);
  assert.deepEqual(decodeRecord(encodeRecord(users)), users);
  assert.deepEqual(JSON.parse(new TextDecoder().decode(encodeRecord(users))), { ann: 2, 'b"o\\b': 1 });
  assert.equal(decodeRecord(encodeRecord(new Map())).size, 0);
  for (const bad of ['gw_123', '[1,2]', 'null', '{"a":"x","b":0}', '{']) assert.equal(decodeRecord(new TextEncoder().encode(bad)).size, 0, bad);
});

test('PresenceRecordIndex: another gateway holds a user since the write that first held them, kept across rewrites', () => {
  const index = new PresenceRecordIndex(15_000);
  index.apply(put('env.chan.gw-other.3', 3, { ann: 1 }));
  index.apply(put('env.chan.gw-me.3', 4, { ann: 1 }));
  index.apply(put('env.chan.gw-other.3', 6, { ann: 2, bob: 1 })); // a refresh or another socket: ann still since 3
  assert.equal(index.heldElsewhere('env.chan', 'ann', 'gw-me', 4, now), true, 'held elsewhere since revision 3 < 4');
  assert.equal(index.heldElsewhere('env.chan', 'bob', 'gw-me', 4, now), false, 'bob only since 6: our write at 4 came first');
  assert.equal(index.heldElsewhere('env.chan', 'bob', 'gw-me', undefined, now), true, 'a departure asks whether anyone holds them at all');
  assert.equal(index.heldElsewhere('env.chan', 'ann', 'gw-other', undefined, now), true, 'our own record counts for the other gateway');
  assert.equal(index.heldElsewhere('env.other', 'ann', 'gw-me', undefined, now), false, 'per channel');
  index.apply(put('env.chan.gw-other.3', 7, { bob: 1 }));
  assert.equal(index.heldElsewhere('env.chan', 'ann', 'gw-me', undefined, now), false, 'dropped by the rewrite');
  index.apply(put('env.chan.gw-other.3', 8, { ann: 1, bob: 1 }));
  assert.equal(index.heldElsewhere('env.chan', 'ann', 'gw-me', 8, now), false, 'back since 8, not since 3');
  index.apply(purge('env.chan.gw-other.3', 9));
  assert.equal(index.heldElsewhere('env.chan', 'bob', 'gw-me', undefined, now), false);
  assert.equal(index.revision, 9);
});

test('PresenceRecordIndex: online users and occupancy over gateways and shards, overlapping users counted once', () => {
  const index = new PresenceRecordIndex(15_000);
  index.apply(put('env.chan.gw-a.1', 1, { ann: 2, bob: 1 }));
  index.apply(put('env.chan.gw-a.2', 2, { cid: 1 }));
  assert.deepEqual(index.occupancy('env.chan', now), { connections: 4, users: 3 });
  index.apply(put('env.chan.gw-b.1', 3, { ann: 1, dan: 3 }));
  assert.deepEqual(index.occupancy('env.chan', now), { connections: 8, users: 4 });
  assert.deepEqual([...index.online('env.chan', now)].sort(), ['ann', 'bob', 'cid', 'dan']);
  index.apply(put('env.chan.gw-a.2', 4, {})); // emptied: as good as gone
  assert.deepEqual(index.occupancy('env.chan', now), { connections: 7, users: 3 });
  assert.equal(index.size, 2);
  assert.deepEqual(index.occupancy('env.none', now), { connections: 0, users: 0 });
});

test('PresenceRecordIndex: a record older than the TTL has aged out of the bucket and is not counted; a sweep forgets it', () => {
  const index = new PresenceRecordIndex(2_000);
  index.apply(put('env.chan.gw-dead.0', 1, { ann: 1 }, new Date(now - 2_001)));
  index.apply(put('env.chan.gw-alive.0', 2, { bob: 1 }, new Date(now - 1_999)));
  index.apply(put('env.quiet.gw-dead.0', 3, { cid: 1 }, new Date(now - 5_000)));
  assert.equal(index.heldElsewhere('env.chan', 'ann', 'gw-me', undefined, now), false);
  assert.deepEqual([...index.online('env.chan', now)], ['bob']);
  assert.deepEqual(index.occupancy('env.quiet', now), { connections: 0, users: 0 });
  assert.equal(index.size, 3);
  index.sweep(now);
  assert.equal(index.size, 1);
});

test('PresenceRecordIndex: caughtUp waits for the watcher to deliver the revision written', async () => {
  const index = new PresenceRecordIndex(15_000);
  let done = false;
  const waiting = index.caughtUp(3, 10_000).then((caught) => void (done = caught));
  index.apply(put('env.a.gw-x.0', 1, { u: 1 }));
  index.apply(put('env.a.gw-y.0', 2, { u: 1 }));
  await Promise.resolve();
  assert.equal(done, false, 'revision 3 not delivered yet');
  index.apply(put('env.a.gw-me.0', 3, { u: 1 }));
  await waiting;
  assert.equal(done, true);
  assert.equal(await index.caughtUp(2, 10_000), true); // already delivered: at once
});

test('PresenceRecordIndex: an abandoned index releases its waiters; a stalled one releases them after the limit', async () => {
  const index = new PresenceRecordIndex(15_000);
  assert.equal(await index.caughtUp(2, 50), false, 'not delivered within the limit: the caller reads the bucket');
  index.apply(put('env.a.gw-x.0', 2, { v: 1 }));
  assert.equal(await index.caughtUp(2, 50), true, 'a late delivery is seen by a new wait');
  const waiting = index.caughtUp(10, 10_000);
  index.abandon();
  assert.equal(await waiting, false);
  assert.equal(index.live, false);
  assert.equal(await index.caughtUp(20, 10_000), false);
});
