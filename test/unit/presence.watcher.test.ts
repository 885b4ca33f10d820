/**
 * Presence writes one record per (channel, gateway, shard) and decides arrivals and departures
 * from its one watcher of the bucket, without listing it (libs/edge/src/presence/presence.ts
 * over @rtm/presence's store and record index); when the watcher ends it reads the bucket for
 * each decision meanwhile and opens a new watcher a second later.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { subjects } from '@rtm/bus';
import { RECORD_SHARDS } from '@rtm/presence';
import { memoryBucket } from './memory-kv.ts';
import { Presence, type PresenceDeps } from '../../libs/edge/src/presence/presence.ts';
import type { ChannelSocketHandle } from '../../libs/edge/src/socket-events.ts';

const fakeBucket = () => memoryBucket({ deliveryMs: 5 });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const settle = async (until: () => boolean) => {
  for (let i = 0; i < 300 && !until(); i++) await sleep(10);
};

function presenceOn(bucket: ReturnType<typeof fakeBucket>, options: { joinLeave?: boolean } = {}) {
  const published: { online: boolean; userId: string }[] = [];
  const deps: PresenceDeps = {
    config: { NATS_PREFIX: 'rtm', PRESENCE_TTL_MS: 15_000, PRESENCE_OCCUPANCY_WEBHOOK_MS: 15_000 },
    nc: {
      jetstream: () => ({ views: { kv: async () => bucket.kv } }),
      publish: (_subject: string, data: Uint8Array) => {
        const frame = JSON.parse(new TextDecoder().decode(data)) as { op: string; changes?: { userId: string; online: boolean }[] };
        if (frame.op === 'presence') published.push(...frame.changes!);
      },
    } as unknown as PresenceDeps['nc'],
    subjects: subjects('rtm'),
    entries: { set() {} } as unknown as PresenceDeps['entries'],
    log: { warn() {}, error() {} } as unknown as PresenceDeps['log'],
    joinLeave: async () => options.joinLeave ?? true,
  };
  return { presence: new Presence(deps), published };
}

const handle = (socketId: string, userId: string, channelId = 'room', presence?: boolean): ChannelSocketHandle =>
  ({ socketId, environmentId: 'env', userId, anon: false, channelId, presence, send() {}, close() {}, revoke() {} }) as ChannelSocketHandle;

// these tests wait on real timers (the watcher, its re-opening a second later) and share nothing:
// run side by side, the unit suite waits for the longest, not their sum
describe('presence watcher', { concurrency: true }, () => {
  test('presence - arrivals and departures are decided from the watcher; while it is gone the bucket is read, and it comes back', async () => {
    const bucket = fakeBucket();
    const { presence, published } = presenceOn(bucket);
    const ann = handle('s1', 'ann');
    presence.join(ann);
    await settle(() => published.length === 1);
    assert.deepEqual(
      published.map(({ userId, online }) => ({ userId, online })),
      [{ userId: 'ann', online: true }],
    );
    presence.leave(ann);
    presence.leave(ann); // a second close changes nothing
    await settle(() => published.length === 2);
    assert.equal(published[1]!.online, false);
    assert.equal(bucket.counts.listings, 0, 'decided from the watcher, no listing');
    assert.equal(bucket.counts.watches, 1);

    // the watcher ends (NATS lost it): decisions read the bucket meanwhile
    bucket.endWatchers();
    await sleep(20);
    const bob = handle('s2', 'bob');
    presence.join(bob);
    await settle(() => published.length === 3);
    assert.equal(published[2]!.userId, 'bob');
    assert.ok(bucket.counts.listings >= 1, 'listed while the watcher was gone');
    assert.deepEqual([...(await presence.online('env', 'room'))], ['bob'], 'the roster reads the bucket too');

    // and a new watcher is opened a second later: decisions are local again
    await settle(() => bucket.counts.watches === 2);
    assert.equal(bucket.counts.watches, 2);
    await sleep(50);
    const listed = bucket.counts.listings;
    presence.leave(bob);
    await settle(() => published.length === 4);
    assert.equal(published[3]!.online, false);
    assert.equal(bucket.counts.listings, listed, 'decided from the new watcher');
    await presence.stop(100);
  });

  test('presence - a burst of arrivals costs a few writes per shard, no listing; occupancy counts sockets and users', async () => {
    const bucket = fakeBucket();
    const { presence, published } = presenceOn(bucket);
    const handles = Array.from({ length: 500 }, (_, i) => handle(`s${i}`, `user-${i % 400}`));
    for (const h of handles) presence.join(h);
    await settle(() => published.length === 400);
    assert.equal(published.length, 400, 'every user announced once');
    assert.ok(bucket.counts.puts <= RECORD_SHARDS, `${bucket.counts.puts} writes for 500 arrivals, at most one per shard`);
    assert.equal(bucket.counts.listings, 0);
    assert.deepEqual(await presence.occupancy('env', 'room'), { connections: 500, users: 400 });
    assert.deepEqual(presence.occupancyNow('env', 'room'), { connections: 500, users: 400 });
    for (const h of handles.slice(0, 450)) presence.leave(h);
    await settle(() => presence.occupancyNow('env', 'room')?.connections === 50);
    assert.deepEqual(presence.occupancyNow('env', 'room'), { connections: 50, users: 50 });
    assert.equal((await presence.online('env', 'room')).size, 50);
    await presence.stop(500);
    assert.deepEqual(await presence.occupancy('env', 'room'), { connections: 0, users: 0 }, 'a drain empties its records at once');
  });

  test('presence - two gateways: one user on both is announced once, and leaves only when gone from both', async () => {
    const bucket = fakeBucket();
    const a = presenceOn(bucket);
    const b = presenceOn(bucket);
    const all = () => [...a.published, ...b.published];
    const onA = handle('a1', 'ann');
    const onB = handle('b1', 'ann');
    a.presence.join(onA);
    await settle(() => all().length === 1);
    b.presence.join(onB);
    await sleep(400);
    assert.deepEqual(
      all().map((c) => c.online),
      [true],
      'the second gateway sees ann held elsewhere since before',
    );
    a.presence.leave(onA);
    await sleep(400);
    assert.equal(all().length, 1, 'still held on b');
    b.presence.leave(onB);
    await settle(() => all().length === 2);
    assert.deepEqual(
      all().map((c) => c.online),
      [true, false],
    );
    await Promise.all([a.presence.stop(100), b.presence.stop(100)]);
  });

  test('presence - joinLeave off: records are written (rosters, occupancy) but nothing is announced; presence off: nothing is written', async () => {
    const bucket = fakeBucket();
    const { presence, published } = presenceOn(bucket, { joinLeave: false });
    presence.join(handle('s1', 'ann'));
    presence.join(handle('s2', 'bob', 'quiet', false));
    await settle(() => bucket.counts.puts === 1);
    await sleep(300);
    assert.equal(published.length, 0);
    assert.deepEqual([...(await presence.online('env', 'room'))], ['ann']);
    assert.equal(bucket.counts.puts, 1, 'the untracked subscription wrote nothing');
    assert.deepEqual(await presence.occupancy('env', 'quiet'), { connections: 0, users: 0 });
    await presence.stop(100);
  });
});
