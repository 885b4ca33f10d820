import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { PresenceWindow, changesOf, type PresenceBatch } from '@rtm/presence';

const apply = (state: Set<string>, batch: PresenceBatch | undefined) => {
  for (const userId of batch?.joined ?? []) state.add(userId);
  for (const userId of batch?.left ?? []) state.delete(userId);
};

test('PresenceWindow: a burst of joins goes out as one batch carrying all of them', () => {
  const window = new PresenceWindow();
  const users = Array.from({ length: 500 }, (_, i) => `u${i}`);
  users.forEach((userId, i) => window.add({ userId, online: true, at: 1_000 + i }));
  const batch = window.drain(2_000)!;
  assert.deepEqual(batch.joined, users);
  assert.deepEqual(batch.left, []);
  assert.equal(batch.changes.length, 500);
  assert.equal(window.drain(2_250), undefined, 'a drained window is empty');
});

test('PresenceWindow: churn within one window costs at most its latest state, once per user', () => {
  // the publishing gateway remembers nothing: each window gives its latest decision per user
  const publisher = new PresenceWindow();
  for (let i = 0; i < 200; i++) publisher.add({ userId: 'churner', online: i % 2 === 0, at: i });
  publisher.add({ userId: 'stable', online: true, at: 5 });
  assert.deepEqual(publisher.drain(300), {
    joined: ['stable'],
    left: ['churner'],
    changes: [
      { userId: 'churner', online: false, at: 199 },
      { userId: 'stable', online: true, at: 5 },
    ],
  });
  assert.equal(publisher.rememberedSize, 0);

  // a feed too: whatever a window's churn, one entry per user, its latest state
  const feed = new PresenceWindow({ rememberMs: 60_000 });
  feed.add({ userId: 'churner', online: false, at: 199 });
  feed.add({ userId: 'stable', online: true, at: 5 });
  feed.drain(300);
  for (let round = 0; round < 10; round++) {
    for (let i = 0; i < 20; i++) feed.add({ userId: 'churner', online: i % 2 === 0, at: 1_000 * (round + 1) + i });
    assert.deepEqual(
      feed.drain(1_000 * (round + 1) + 250),
      { joined: [], left: ['churner'], changes: [{ userId: 'churner', online: false, at: 1_000 * (round + 1) + 19 }] },
      `round ${round}`,
    );
  }
  // an odd number of flips ends online
  for (let i = 0; i < 7; i++) feed.add({ userId: 'churner', online: i % 2 === 0, at: 30_000 + i });
  assert.deepEqual(feed.drain(30_250)?.joined, ['churner']);
  assert.equal(feed.drain(30_500), undefined, 'a window without decisions gives out nothing');
});

test('PresenceWindow: a leave and return within one window still goes out, though it restates what was given out', () => {
  // A listener read the roster while the user was away (the key purged, not yet written again):
  // its roster says offline, and only this restated join tells it the user is back.
  const feed = new PresenceWindow({ rememberMs: 60_000 });
  feed.add({ userId: 'roamer', online: true, at: 10 });
  assert.deepEqual(feed.drain(250)?.joined, ['roamer']);
  feed.add({ userId: 'roamer', online: false, at: 1_000 });
  feed.add({ userId: 'roamer', online: true, at: 1_020 });
  assert.deepEqual(feed.drain(1_250), { joined: ['roamer'], left: [], changes: [{ userId: 'roamer', online: true, at: 1_020 }] });
  // the same when the publishing gateway's window already netted the leave away: a bare repeat
  feed.add({ userId: 'roamer', online: true, at: 2_000 });
  assert.deepEqual(feed.drain(2_250)?.joined, ['roamer']);
  // and for a leave and return the other way round
  feed.add({ userId: 'roamer', online: false, at: 3_000 });
  feed.drain(3_250);
  feed.add({ userId: 'roamer', online: true, at: 4_000 });
  feed.add({ userId: 'roamer', online: false, at: 4_010 });
  assert.deepEqual(feed.drain(4_250)?.left, ['roamer']);
});

test('PresenceWindow: the latest decision wins whatever the arrival order, and a late older one is dropped', () => {
  const window = new PresenceWindow({ rememberMs: 5_000 });
  window.add({ userId: 'u', online: true, at: 5 });
  assert.deepEqual(window.drain(100)?.joined, ['u']);
  // gateways decided offline at 10, online at 20, offline at 30; the bus brought them newest first
  assert.equal(window.add({ userId: 'u', online: false, at: 30 }), true);
  assert.equal(window.add({ userId: 'u', online: true, at: 20 }), false);
  assert.equal(window.add({ userId: 'u', online: false, at: 10 }), false);
  assert.deepEqual(window.drain(350), { joined: [], left: ['u'], changes: [{ userId: 'u', online: false, at: 30 }] });
  // a change older than what was given out, arriving a window late: dropped
  assert.equal(window.add({ userId: 'u', online: true, at: 25 }), false);
  assert.equal(window.drain(600), undefined);
  // a newer one goes out, even when it restates the state given out
  window.add({ userId: 'u', online: false, at: 40 });
  assert.deepEqual(window.drain(850)?.left, ['u']);
  window.add({ userId: 'u', online: true, at: 50 });
  assert.deepEqual(window.drain(1_100)?.joined, ['u']);

  // nothing remembered: the latest decision goes out, whichever arrived first
  const fresh = new PresenceWindow();
  fresh.add({ userId: 'v', online: true, at: 20 });
  fresh.add({ userId: 'v', online: false, at: 10 });
  fresh.add({ userId: 'w', online: false, at: 20 });
  fresh.add({ userId: 'w', online: true, at: 10 });
  assert.deepEqual(fresh.drain(100), {
    joined: ['v'],
    left: ['w'],
    changes: [
      { userId: 'v', online: true, at: 20 },
      { userId: 'w', online: false, at: 20 },
    ],
  });
});

test('PresenceWindow: remembered states are forgotten after rememberMs', () => {
  const window = new PresenceWindow({ rememberMs: 1_000 });
  window.add({ userId: 'a', online: true, at: 1 });
  window.drain(0);
  window.add({ userId: 'b', online: true, at: 2 });
  window.drain(600);
  assert.equal(window.rememberedSize, 2);
  window.forget(1_200);
  assert.equal(window.rememberedSize, 1, 'a (given out at 0) is forgotten, b (at 600) kept');
  window.forget(1_600);
  assert.equal(window.rememberedSize, 0);
  // without memory an old change is taken at face value again
  assert.equal(window.add({ userId: 'a', online: false, at: 0 }), true);
  assert.deepEqual(window.drain(2_000)?.left, ['a']);
});

test('PresenceWindow: any split into windows and any arrival order within them ends in the latest state, each user once per batch', () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ user: fc.integer({ min: 0, max: 5 }), online: fc.boolean() }), { minLength: 1, maxLength: 200 }),
      fc.array(fc.integer({ min: 0, max: 199 }), { maxLength: 20 }),
      fc.integer(),
      (decided, cuts, seed) => {
        // decisions at increasing times (repeats included, as racing gateways make them); each
        // window's messages arrive shuffled
        const changes = decided.map(({ user, online }, at) => ({ userId: `u${user}`, online, at }));
        const bounds = [...new Set([0, ...cuts.filter((c) => c < changes.length), changes.length])].sort((a, b) => a - b);
        const window = new PresenceWindow({ rememberMs: 60_000 });
        const state = new Set<string>();
        let rnd = seed;
        for (let i = 1; i < bounds.length; i++) {
          const slice = changes.slice(bounds[i - 1], bounds[i]);
          for (let j = slice.length - 1; j > 0; j--) {
            rnd = (rnd * 1103515245 + 12345) & 0x7fffffff;
            const k = rnd % (j + 1);
            [slice[j], slice[k]] = [slice[k]!, slice[j]!];
          }
          for (const c of slice) window.add(c);
          const batch = window.drain(i);
          if (batch) {
            const users = [...batch.joined, ...batch.left];
            assert.equal(new Set(users).size, users.length, 'a user appears once per batch');
          }
          apply(state, batch);
        }
        const latest = new Map<string, boolean>();
        for (const c of changes) latest.set(c.userId, c.online);
        for (const [userId, online] of latest) assert.equal(state.has(userId), online, userId);
      },
    ),
  );
});

test('changesOf: the coalesced form, the single-change form of the previous release, malformed entries skipped', () => {
  assert.deepEqual(
    changesOf(
      {
        op: 'presence',
        changes: [
          { userId: 'a', online: true, at: 5 },
          { userId: 'b', online: 'yes', at: 5 },
          null,
          { userId: 'c', online: false, at: Number.NaN },
          { userId: 'd', online: false, at: 7 },
        ],
      },
      100,
    ),
    [
      { userId: 'a', online: true, at: 5 },
      { userId: 'd', online: false, at: 7 },
    ],
  );
  assert.deepEqual(changesOf({ op: 'presence', userId: 'a', online: false }, 100), [{ userId: 'a', online: false, at: 100 }]);
  assert.deepEqual(changesOf({ op: 'presence', userId: 7, online: true }, 100), []);
  assert.deepEqual(changesOf({ op: 'presence' }, 100), []);
});
