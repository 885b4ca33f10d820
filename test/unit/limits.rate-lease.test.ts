import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MemoryCasStore, RateLimiter, grantLease, localShare, type CasStore } from '@rtm/limits';

/** A store whose operations interleave in an order chosen by the test (awaits yield in turn). */
function jittery(store: CasStore, delays: () => number): CasStore {
  const wait = () => new Promise<void>((resolve) => setTimeout(resolve, delays()));
  return {
    get: async (key) => {
      await wait();
      return store.get(key);
    },
    swap: async (key, value, revision) => {
      await wait();
      return store.swap(key, value, revision);
    },
  };
}

test('limits - a lease is at least one while any remain, never more than what remains', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 0, max: 1_100_000 }), (limit, handedOut) => {
      const granted = grantLease(handedOut, limit);
      const remaining = Math.max(0, limit - handedOut);
      assert.ok(granted <= remaining);
      assert.equal(granted === 0, remaining === 0);
      assert.ok(granted <= Math.max(1, Math.ceil(limit / 10)));
    }),
  );
});

test('limits - a local share is whole, at least one, and N shares stay within the limit when limit >= N', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 64 }), (limit, n) => {
      const share = localShare(limit, n);
      assert.ok(share >= 1);
      if (limit >= n) assert.ok(share * n <= limit);
    }),
  );
});

test('limits - any number of gateways sharing one counter admit at most the limit per window; one alone admits all of it', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 200 }),
      fc.integer({ min: 1, max: 8 }),
      fc.array(fc.nat({ max: 7 }), { minLength: 1, maxLength: 600 }),
      fc.infiniteStream(fc.integer({ min: 0, max: 2 })),
      async (limit, gateways, arrivals, delays) => {
        const shared = new MemoryCasStore();
        const now = () => 5_000; // one window throughout
        const limiters = Array.from({ length: gateways }, () => {
          const store = jittery(shared, () => delays.next().value as number);
          return new RateLimiter({ store, liveGateways: () => gateways, now });
        });
        const results = await Promise.all(arrivals.map((g) => limiters[g % gateways]!.take('rate', 'k', limit)));
        const admitted = results.filter(Boolean).length;
        assert.ok(admitted <= limit, `${gateways} gateways admitted ${admitted} of a limit of ${limit}`);
        if (gateways === 1) assert.equal(admitted, Math.min(limit, arrivals.length));
      },
    ),
    { numRuns: 60 },
  );
});

test('limits - a new window starts a new count, and an exhausted window costs no store operation', async () => {
  let clock = 10_000;
  let operations = 0;
  const shared = new MemoryCasStore();
  const counting: CasStore = {
    get: (key) => (operations++, shared.get(key)),
    swap: (key, value, revision) => (operations++, shared.swap(key, value, revision)),
  };
  const limiter = new RateLimiter({ store: counting, liveGateways: () => 1, now: () => clock });
  let admitted = 0;
  for (let i = 0; i < 30; i++) if (await limiter.take('rate', 'k', 20)) admitted++;
  assert.equal(admitted, 20);
  const before = operations;
  for (let i = 0; i < 100; i++) assert.equal(await limiter.take('rate', 'k', 20), false);
  assert.equal(operations, before);
  clock += 1_000;
  assert.equal(await limiter.take('rate', 'k', 20), true);
});

test('limits - with the store down a gateway admits its share of the limit by live gateways', async () => {
  const down: CasStore = {
    get: async () => {
      throw new Error('down');
    },
    swap: async () => {
      throw new Error('down');
    },
  };
  const limiter = new RateLimiter({ store: down, liveGateways: () => 4, now: () => 1_000 });
  let admitted = 0;
  for (let i = 0; i < 100; i++) if (await limiter.take('rate', 'k', 40)) admitted++;
  assert.equal(admitted, 10);
});

test('limits - callers waiting on a lease when the window ends are admitted in the next window, not refused', async () => {
  // a store that answers only when the test says, and a clock the test moves
  let clock = 10_000 - 5; // 5 ms before a window boundary
  const memory = new MemoryCasStore();
  const held: (() => void)[] = [];
  const slow: CasStore = {
    get: async (key) => {
      await new Promise<void>((resolve) => held.push(resolve));
      return memory.get(key);
    },
    swap: (key, value, revision) => memory.swap(key, value, revision),
  };
  const limiter = new RateLimiter({ store: slow, liveGateways: () => 1, now: () => clock });
  // 20 callers in the last milliseconds of a window; the lease goes to a slow store
  const answers = Array.from({ length: 20 }, () => limiter.take('publishes', 'user', 50));
  // the window ends while the lease is on its way; a newcomer opens the next window
  clock += 10;
  const newcomer = limiter.take('publishes', 'user', 50);
  const release = async () => {
    for (let i = 0; i < 20 && held.length === 0; i++) await new Promise((resolve) => setImmediate(resolve));
    while (held.length > 0) {
      held.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const releasing = (async () => {
    for (let round = 0; round < 50; round++) await release();
  })();
  const results = await Promise.all([...answers, newcomer]);
  await releasing;
  assert.deepEqual(results.filter((ok) => !ok).length, 0, '21 events, a limit of 50 a window: none refused');
});

test('limits - the first lease of a key new to this gateway creates the window counter in one store operation', async () => {
  const shared = new MemoryCasStore();
  let operations = 0;
  const store: CasStore = {
    get: async (key) => (operations++, shared.get(key)),
    swap: async (key, value, revision) => (operations++, shared.swap(key, value, revision)),
  };
  const now = () => 5_000;
  const a = new RateLimiter({ store, liveGateways: () => 2, now });
  const b = new RateLimiter({ store, liveGateways: () => 2, now });
  for (let user = 0; user < 50; user++) assert.equal(await a.take('opens', `u${user}`, 30), true);
  assert.equal(operations, 50, 'one create per new key');
  // another gateway meets the same key in the same window: its create fails, it reads and leases the rest
  let admitted = 0;
  for (let i = 0; i < 40; i++) if (await b.take('opens', 'u0', 30)) admitted++;
  for (let i = 0; i < 40; i++) if (await a.take('opens', 'u0', 30)) admitted++;
  assert.equal(admitted, 29, 'the window still admits 30 in all across both gateways');
});
