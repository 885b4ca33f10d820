import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { EDGE_LIMITS, EDGE_TOTAL_LIMIT, LocalWindow, MemoryCasStore, RateLimiter, grantLease, historyUnits, publishUnits } from '@rtm/limits';
import { DEFAULT_LIMITS, LIMIT_NAMES } from '@rtm/rules';

test('weights - a history read costs one unit per 50 messages asked for, at least one', () => {
  assert.equal(historyUnits(1), 1);
  assert.equal(historyUnits(50), 1);
  assert.equal(historyUnits(51), 2);
  assert.equal(historyUnits(200), 4);
  assert.equal(historyUnits(500), 10);
  assert.equal(historyUnits(0), 1);
  assert.equal(historyUnits(-3), 1);
  assert.equal(historyUnits(Number.NaN), 1);
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 1_000_000 }), (n) => {
      const units = historyUnits(n);
      assert.ok(units >= 1 && Number.isInteger(units));
      assert.ok(units * 50 >= n && (units - 1) * 50 < n);
    }),
  );
});

test('weights - a publish costs 1, plus one unit per started 10 mentions', () => {
  assert.equal(publishUnits(0), 1);
  assert.equal(publishUnits(1), 2);
  assert.equal(publishUnits(10), 2);
  assert.equal(publishUnits(11), 3);
  assert.equal(publishUnits(100), 11);
  assert.equal(publishUnits(-1), 1);
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }), (a, b) => {
      if (a <= b) assert.ok(publishUnits(a) <= publishUnits(b));
    }),
  );
});

test('weights - every edge operation has a limit in the table, and so has the total', () => {
  for (const name of [...Object.values(EDGE_LIMITS), EDGE_TOTAL_LIMIT, 'userSocketOpensPerSecond' as const]) {
    assert.ok(LIMIT_NAMES.includes(name), name);
    assert.ok(DEFAULT_LIMITS[name] >= 1, name);
  }
});

test('weights - a lease covers what one weighted event needs, never more than remains', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 0, max: 11_000 }), fc.integer({ min: 1, max: 10_000 }), (limit, handedOut, need) => {
      const granted = grantLease(handedOut, limit, need);
      const remaining = Math.max(0, limit - handedOut);
      assert.ok(granted <= remaining);
      assert.equal(granted === 0, remaining === 0);
      assert.ok(granted >= Math.min(need, remaining));
      assert.ok(granted >= grantLease(handedOut, limit));
    }),
  );
});

test('weights - a local window admits whole weights only', () => {
  const window = new LocalWindow(1);
  window.addLease(5);
  assert.equal(window.admit(3), true);
  assert.equal(window.admit(3), false);
  assert.equal(window.left, 2);
  assert.equal(window.admit(2), true);
  assert.equal(window.admit(), false);
});

test('weights - a limiter admits at most the limit in units per window, whatever the weights', async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 200 }), fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 200 }), async (limit, weights) => {
      const limiter = new RateLimiter({ store: new MemoryCasStore(), liveGateways: () => 1, now: () => 7_000 });
      let units = 0;
      let refused = false;
      for (const weight of weights) {
        const admitted = await limiter.take('rate', 'k', limit, weight);
        if (admitted) units += Math.min(weight, limit);
        // one gateway alone: a refusal means the window cannot hold this weight
        else refused = true;
        if (!admitted) assert.ok(units + Math.min(weight, limit) > limit, `refused ${weight} with ${units} of ${limit} used`);
      }
      assert.ok(units <= limit, `${units} units admitted of a limit of ${limit}`);
      if (!refused)
        assert.equal(
          units,
          weights.reduce((sum, w) => sum + Math.min(w, limit), 0),
        );
    }),
    { numRuns: 100 },
  );
});

test('weights - ten units cost ten single admissions; a weight over the limit still fits an empty window', async () => {
  const limiter = new RateLimiter({ store: new MemoryCasStore(), liveGateways: () => 1, now: () => 3_000 });
  assert.equal(await limiter.take('h', 'u', 100, 10), true);
  let singles = 0;
  while (await limiter.take('h', 'u', 100)) singles++;
  assert.equal(singles, 90);
  assert.equal(await limiter.take('big', 'u', 5, 10), true);
  assert.equal(await limiter.take('big', 'u', 5), false);
});

test('weights - gateways sharing one counter admit at most the limit in units per window, whatever the weights', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 120 }),
      fc.integer({ min: 2, max: 6 }),
      fc.array(fc.tuple(fc.nat({ max: 5 }), fc.integer({ min: 1, max: 30 })), { minLength: 1, maxLength: 150 }),
      fc.infiniteStream(fc.integer({ min: 0, max: 2 })),
      async (limit, gateways, arrivals, delays) => {
        const shared = new MemoryCasStore();
        const wait = () => new Promise<void>((resolve) => setTimeout(resolve, delays.next().value as number));
        const limiters = Array.from(
          { length: gateways },
          () =>
            new RateLimiter({
              store: {
                get: async (key) => (await wait(), shared.get(key)),
                swap: async (key, value, revision) => (await wait(), shared.swap(key, value, revision)),
              },
              liveGateways: () => gateways,
              now: () => 9_000,
            }),
        );
        const results = await Promise.all(arrivals.map(([g, weight]) => limiters[g % gateways]!.take('rate', 'k', limit, weight)));
        const units = arrivals.reduce((sum, [, weight], i) => sum + (results[i] ? Math.min(weight, limit) : 0), 0);
        assert.ok(units <= limit, `${gateways} gateways admitted ${units} units of a limit of ${limit}`);
      },
    ),
    { numRuns: 60 },
  );
});
