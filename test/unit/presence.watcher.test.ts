/**
 * Presence decides arrivals and departures from its one watcher of the bucket, without listing
 * keys (apps/gateway/src/presence/presence.ts, key-index.ts); when the watcher ends it lists the
 * bucket for each decision meanwhile and opens a new watcher a second later.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { subjects } from '@rtm/bus';
import type { GatewayDeps } from '../../apps/gateway/src/deps.ts';
import { Presence } from '../../apps/gateway/src/presence/presence.ts';
import type { ChannelSocketHandle } from '../../apps/gateway/src/socket-events.ts';

interface Entry {
  key: string;
  revision: number;
  operation: 'PUT' | 'DEL' | 'PURGE';
  created: Date;
}

/** A KV bucket in memory: puts, purges, listings and watchers, counted. */
function fakeBucket() {
  let revision = 0;
  const live = new Map<string, Entry>();
  const watchers = new Set<{ push: (e: Entry) => void; end: () => void }>();
  const counts = { listings: 0, watches: 0 };
  const write = (key: string, operation: Entry['operation']) => {
    const entry = { key, revision: ++revision, operation, created: new Date() };
    if (operation === 'PUT') live.set(key, entry);
    else live.delete(key);
    // delivered a little later, as a watcher would
    setTimeout(() => watchers.forEach((w) => w.push(entry)), 5);
    return entry.revision;
  };
  const kv = {
    put: async (key: string) => write(key, 'PUT'),
    purge: async (key: string) => void write(key, 'PURGE'),
    get: async (key: string) => live.get(key) ?? null,
    keys: async (filter: string) => {
      counts.listings++;
      const prefix = filter.replace(/\.[*>]$/, '.');
      const found = [...live.keys()].filter((k) => k.startsWith(prefix));
      return Object.assign((async function* () { yield* found; })(), { stop() {} });
    },
    watch: async () => {
      counts.watches++;
      const queue: Entry[] = [];
      let wake: (() => void) | undefined;
      let ended = false;
      const w = { push: (e: Entry) => (queue.push(e), wake?.()), end: () => ((ended = true), wake?.()) };
      watchers.add(w);
      for (const entry of live.values()) queue.push(entry);
      const iterator = (async function* () {
        while (true) {
          while (queue.length > 0) yield queue.shift()!;
          if (ended) return;
          await new Promise<void>((resolve) => (wake = resolve));
        }
      })();
      return Object.assign(iterator, { stop: () => w.end() });
    },
  };
  return { kv, counts, endWatchers: () => { for (const w of watchers) w.end(); watchers.clear(); } };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('presence - arrivals and departures are decided from the watcher; while it is gone the bucket is listed, and it comes back', async () => {
  const bucket = fakeBucket();
  const published: { online: boolean; userId: string }[] = [];
  const deps = {
    config: { NATS_PREFIX: 'rtm', PRESENCE_TTL_MS: 15_000 },
    nc: {
      jetstream: () => ({ views: { kv: async () => bucket.kv } }),
      publish: (_subject: string, data: Uint8Array) => {
        const frame = JSON.parse(new TextDecoder().decode(data)) as { op: string; changes?: { userId: string; online: boolean }[] };
        if (frame.op === 'presence') published.push(...frame.changes!);
      },
    },
    subjects: subjects('rtm'),
    sessionMetrics: { presenceEntries: { set() {} } },
    log: { warn() {}, error() {} },
  } as unknown as GatewayDeps;
  const presence = new Presence(deps);
  const handle = (socketId: string, userId: string): ChannelSocketHandle =>
    ({ socketId, environmentId: 'env', userId, anon: false, channelId: 'room', send() {}, close() {}, revoke() {} }) as ChannelSocketHandle;
  const settle = async (until: () => boolean) => {
    for (let i = 0; i < 200 && !until(); i++) await sleep(10);
  };

  presence.join(handle('s1', 'ann'));
  await settle(() => published.length === 1);
  assert.deepEqual(published.map(({ userId, online }) => ({ userId, online })), [{ userId: 'ann', online: true }]);
  presence.leave(handle('s1', 'ann'));
  await settle(() => published.length === 2);
  assert.equal(published[1]!.online, false);
  assert.equal(bucket.counts.listings, 0, 'decided from the watcher, no key listing');
  assert.equal(bucket.counts.watches, 1);

  // the watcher ends (NATS lost it): decisions list the bucket meanwhile
  bucket.endWatchers();
  await sleep(20);
  presence.join(handle('s2', 'bob'));
  await settle(() => published.length === 3);
  assert.equal(published[2]!.userId, 'bob');
  assert.ok(bucket.counts.listings >= 1, 'listed while the watcher was gone');

  // and a new watcher is opened a second later: decisions are local again
  await settle(() => bucket.counts.watches === 2);
  assert.equal(bucket.counts.watches, 2);
  await sleep(50);
  const listed = bucket.counts.listings;
  presence.leave(handle('s2', 'bob'));
  await settle(() => published.length === 4);
  assert.equal(published[3]!.online, false);
  assert.equal(bucket.counts.listings, listed, 'decided from the new watcher');
  await presence.stop(100);
});
