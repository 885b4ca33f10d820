import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AccessCache } from '../../libs/edge/src/access/access-cache.ts';

/** The cache's dependencies: a TTL and a bus whose subscriptions deliver what the test publishes. */
function cacheWithBus(ttlMs = 60_000) {
  const callbacks = new Map<string, (error: unknown, msg: { data: Uint8Array }) => void>();
  const cache = new AccessCache({
    ttlMs,
    subjects: { accessChanged: 'access', invalidate: 'invalidate' },
    nc: {
      subscribe: (subject: string, options: { callback: (error: unknown, msg: { data: Uint8Array }) => void }) => {
        callbacks.set(subject, options.callback);
        return { unsubscribe() {} };
      },
    },
  });
  cache.start();
  const changed = (environmentId: string) => callbacks.get('access')!(null, { data: new TextEncoder().encode(JSON.stringify({ environmentId })) });
  return { cache, changed };
}

test('access cache: concurrent misses of one key share one read; a failed read is not kept', async () => {
  const { cache } = cacheWithBus();
  let reads = 0;
  let release: (value: string) => void = () => {};
  const load = () => {
    reads++;
    return new Promise<string>((resolve) => (release = resolve));
  };
  const waiting = Array.from({ length: 100 }, () => cache.lookup('env_1', 'room', 'alice', load));
  release('granted');
  assert.deepEqual(new Set(await Promise.all(waiting)), new Set(['granted']));
  assert.equal(reads, 1);
  assert.equal(await cache.lookup('env_1', 'room', 'alice', load), 'granted', 'then served from the cache');
  assert.equal(reads, 1);

  // another key, another read
  const other = cache.lookup('env_1', 'room', 'bob', load);
  release('bob');
  assert.equal(await other, 'bob');
  assert.equal(reads, 2);

  const failing = () => Promise.reject(new Error('db down'));
  await Promise.all(Array.from({ length: 3 }, () => assert.rejects(cache.lookup('env_2', 'x', 'y', failing), /db down/)));
  const retried = cache.lookup('env_2', 'x', 'y', load);
  release('after');
  assert.equal(await retried, 'after');
});

test('access cache: a read that started before a change is neither kept nor shared with lookups after it', async () => {
  const { cache, changed } = cacheWithBus();
  const releases: ((value: string) => void)[] = [];
  let reads = 0;
  const load = () => {
    reads++;
    return new Promise<string>((resolve) => releases.push(resolve));
  };
  const before = cache.lookup('env_1', 'room', 'alice', load);
  changed('env_1');
  const after = cache.lookup('env_1', 'room', 'alice', load);
  assert.equal(reads, 2, 'a lookup after the change does not wait for the stale read');
  releases[0]!('stale');
  releases[1]!('fresh');
  assert.equal(await before, 'stale');
  assert.equal(await after, 'fresh');
  assert.equal(await cache.lookup('env_1', 'room', 'alice', load), 'fresh');
  assert.equal(reads, 2);
});
