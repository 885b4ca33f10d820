/**
 * PresenceStore over a KV bucket in memory: writes, reads from the watcher's index, the bucket
 * itself while no watcher is live, and a stop that ends the watcher for good.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { memoryBucket } from './memory-kv.ts';
import { HookTracker, PresenceStore, encodeRecord, recordChannel, recordKey, type HookTransition, type PresenceStoreOptions } from '@rtm/presence';

const storeOn = (bucket: ReturnType<typeof memoryBucket>, hooks?: HookTracker) => {
  const warnings: string[] = [];
  const options: PresenceStoreOptions = {
    ...(hooks && { hooks }),
    nc: { jetstream: () => ({ views: { kv: async () => bucket.kv } }) } as unknown as PresenceStoreOptions['nc'],
    name: 'rtm_presence_records',
    ttlMs: 15_000,
    log: { warn: (_: unknown, message: string) => warnings.push(message), error() {} } as unknown as PresenceStoreOptions['log'],
  };
  return { store: new PresenceStore(options), warnings };
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const channel = recordChannel('env', 'room');
const users = (entries: Record<string, number>) => encodeRecord(new Map(Object.entries(entries)));

test('PresenceStore: writes are read back from the index, decisions too, without listing the bucket', async () => {
  const bucket = memoryBucket();
  const { store } = storeOn(bucket);
  assert.equal(store.occupancyNow(channel), undefined, 'no index before the bucket opens');
  await store.open();
  await sleep(5);
  await store.put(recordKey('env', 'room', 'gw-a', 'ann'), users({ ann: 2 }));
  const ours = await store.put(recordKey('env', 'room', 'gw-b', 'bob'), users({ bob: 1, ann: 1 }));
  assert.deepEqual(await store.occupancy(channel), { connections: 4, users: 2 });
  assert.deepEqual(store.occupancyNow(channel), { connections: 4, users: 2 });
  assert.deepEqual([...(await store.online(channel))].sort(), ['ann', 'bob']);
  assert.deepEqual(await store.decide(channel, 'gw-b', { arrived: ['ann', 'bob'], departed: [], revision: ours }), [{ userId: 'bob', online: true }]);
  assert.equal(bucket.counts.listings, 0);
  store.stop();
  assert.equal(store.stopped, true);
});

test('PresenceStore: with no live watcher, reads and decisions list the bucket', async () => {
  const bucket = memoryBucket();
  bucket.refuseWatchers();
  const { store, warnings } = storeOn(bucket);
  await store.open();
  await store.put(recordKey('env', 'room', 'gw-a', 'ann'), users({ ann: 1 }));
  const ours = await store.put(recordKey('env', 'room', 'gw-b', 'ann'), users({ ann: 1, cid: 3 }));
  assert.equal(store.occupancyNow(channel), undefined, 'no index to read on a timer');
  assert.deepEqual(await store.occupancy(channel), { connections: 5, users: 2 });
  assert.deepEqual(await store.decide(channel, 'gw-b', { arrived: ['ann', 'cid'], departed: [], revision: ours }), [{ userId: 'cid', online: true }]);
  assert.ok(bucket.counts.listings >= 2);
  assert.ok(warnings.some((w) => w.startsWith('presence watcher ended')));
  store.stop();
  await sleep(1_100);
  assert.equal(bucket.counts.watches, 1, 'a stopped store opens no new watcher');
});

test("PresenceStore: the webhook tracker takes the watcher's first values as they are, and each change after as a transition", async () => {
  const bucket = memoryBucket();
  await bucket.kv.put(recordKey('env', 'room', 'gw-me', 'ann'), users({ ann: 1 })); // our own record, before a watcher reopened
  const reported: HookTransition[] = [];
  const tracker = new HookTracker({
    self: 'gw-me',
    ttlMs: 15_000,
    interest: () => ({ channel: true, occupancy: false, entries: false }),
    version: () => 1,
    anyWanted: () => true,
    emit: (list) => reported.push(...list),
  });
  const { store } = storeOn(bucket, tracker);
  await store.open();
  await sleep(5);
  assert.equal(tracker.armed, true);
  await store.put(recordKey('env', 'room', 'gw-me', 'bob'), users({ bob: 1 }));
  await store.put(recordKey('env', 'hall', 'gw-me', 'bob'), users({ bob: 1 }));
  await sleep(5);
  assert.deepEqual(
    reported.map((t) => `${t.kind} ${t.channel} ${t.source}`),
    [`occupied ${recordChannel('env', 'hall')} own`],
    'room was occupied before: not a transition',
  );
  bucket.endWatchers();
  await sleep(5);
  assert.equal(tracker.armed, false, 'no watcher: nothing is a transition');
  store.stop();
});
