import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SendBudget, pickOverShares, pickSheddable } from '../../libs/edge/src/sessions/send-budget.ts';

test('sessions - send budget: under budget nothing is shed; over it the largest go first', () => {
  assert.deepEqual(pickSheddable([10, 20, 30], 60), []);
  assert.deepEqual(pickSheddable([10, 50, 30], 40), [1]);
  assert.deepEqual(pickSheddable([10, 50, 30], 5), [1, 2, 0]);
});

test('sessions - send budget: the rest fit, no more than needed is shed, and every shed one is at least as large as any kept', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 1_000_000 }), { maxLength: 200 }), fc.integer({ min: 0, max: 5_000_000 }), (queued, budget) => {
      const picked = pickSheddable(queued, budget);
      const shed = new Set(picked);
      const kept = queued.filter((_, i) => !shed.has(i));
      const rest = kept.reduce((a, b) => a + b, 0);
      assert.ok(rest <= budget);
      if (picked.length > 0) {
        // without the last one picked, the rest would not have fit
        assert.ok(rest + queued[picked.at(-1)!]! > budget);
        const smallestShed = Math.min(...picked.map((i) => queued[i]!));
        assert.ok(kept.every((bytes) => bytes <= smallestShed));
      }
    }),
    { numRuns: 300 },
  );
});

test('sessions - send budget: check() sheds registered sockets once and stops counting them', () => {
  const shed: string[] = [];
  const budget = new SendBudget(100, { intervalMs: 60_000 });
  const member = (name: string, queued: number) => ({ queued, shed: () => shed.push(name) });
  const a = member('a', 80);
  budget.add(a);
  budget.add(member('b', 50));
  budget.add(member('c', 10));
  budget.check();
  assert.deepEqual(shed, ['a']);
  budget.check();
  assert.deepEqual(shed, ['a']);
  budget.remove(a);
});

test('sessions - send budget: an environment over its share loses its own largest sockets, even while the whole budget has room', () => {
  assert.deepEqual(pickOverShares([30, 50, 10, 40], ['a', 'a', 'b', 'a'], 60), [1, 3]);
  // no share for sockets not yet authenticated
  assert.deepEqual(pickOverShares([500, 10], ['', 'b'], 60), []);
  const shed: string[] = [];
  const budget = new SendBudget(1_000, { intervalMs: 60_000, share: 100 });
  const member = (name: string, environmentId: string, queued: number) => ({ queued, environmentId, shed: () => shed.push(name) });
  budget.add(member('a1', 'env_a', 60));
  budget.add(member('a2', 'env_a', 70));
  budget.add(member('b1', 'env_b', 90));
  budget.check();
  assert.deepEqual(shed, ['a2']);
});

test('sessions - send budget: after the shares, every group fits its share and the rest fits the budget', () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ queued: fc.integer({ min: 0, max: 100_000 }), group: fc.constantFrom('', 'a', 'b', 'c') }), { maxLength: 100 }),
      fc.integer({ min: 0, max: 300_000 }),
      (entries, share) => {
        const picked = new Set(
          pickOverShares(
            entries.map((e) => e.queued),
            entries.map((e) => e.group),
            share,
          ),
        );
        for (const group of ['a', 'b', 'c']) {
          const kept = entries.filter((e, i) => e.group === group && !picked.has(i)).reduce((sum, e) => sum + e.queued, 0);
          assert.ok(kept <= share);
        }
        for (const index of picked) assert.notEqual(entries[index]!.group, '');
      },
    ),
    { numRuns: 300 },
  );
});
