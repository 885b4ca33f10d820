import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { PresenceWindow, changesOf, type PresenceBatch } from '../../apps/gateway/src/presence/coalesce.ts';

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

test('PresenceWindow: churn within one window nets out to nothing; an odd number of flips is one change', () => {
  const window = new PresenceWindow();
  for (let i = 0; i < 200; i++) window.add({ userId: 'churner', online: i % 2 === 0, at: i });
  window.add({ userId: 'stable', online: true, at: 5 });
  assert.deepEqual(window.drain(300), { joined: ['stable'], left: [], changes: [{ userId: 'stable', online: true, at: 5 }] });

  // online before the window (a leave first): leave + come back = nothing
  window.add({ userId: 'stable', online: false, at: 400 });
  window.add({ userId: 'stable', online: true, at: 401 });
  assert.equal(window.drain(500), undefined);

  for (let i = 0; i < 7; i++) window.add({ userId: 'churner', online: i % 2 === 0, at: 600 + i });
  assert.deepEqual(window.drain(700)?.joined, ['churner']);
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
  // a newer one is compared against the remembered state
  window.add({ userId: 'u', online: false, at: 40 });
  assert.equal(window.drain(850), undefined, 'already offline: nothing to announce');
  window.add({ userId: 'u', online: true, at: 50 });
  assert.deepEqual(window.drain(1_100)?.joined, ['u']);

  // nothing remembered: the earliest decision (not the first to arrive) tells the state before
  const fresh = new PresenceWindow();
  fresh.add({ userId: 'v', online: true, at: 20 });
  fresh.add({ userId: 'v', online: false, at: 10 });
  assert.equal(fresh.drain(100), undefined, 'online before (it went offline at 10), online after');
  fresh.add({ userId: 'w', online: false, at: 20 });
  fresh.add({ userId: 'w', online: true, at: 10 });
  assert.equal(fresh.drain(100), undefined, 'offline before, offline after');
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
      fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 200 }),
      fc.array(fc.integer({ min: 0, max: 199 }), { maxLength: 20 }),
      fc.integer(),
      (decided, cuts, seed) => {
        // decisions at increasing times, each a real transition of its user (who starts offline);
        // each window's messages arrive shuffled
        const now = new Set<string>();
        const changes = decided.map((user, at) => {
          const userId = `u${user}`;
          const online = !now.has(userId);
          if (online) now.add(userId);
          else now.delete(userId);
          return { userId, online, at };
        });
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
        changes: [{ userId: 'a', online: true, at: 5 }, { userId: 'b', online: 'yes', at: 5 }, null, { userId: 'c', online: false, at: Number.NaN }, { userId: 'd', online: false, at: 7 }],
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
