import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BELIEVED_MS, MemoryCasStore, SocketQuota, othersTotal, withCount, type CasStore } from '@rtm/limits';

test('limits - gateways sharing a quota never hold more sockets than the limit together', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 20 }),
      fc.integer({ min: 1, max: 5 }),
      fc.array(fc.tuple(fc.nat({ max: 4 }), fc.boolean()), { minLength: 1, maxLength: 120 }),
      fc.infiniteStream(fc.integer({ min: 0, max: 2 })),
      async (limit, gateways, steps, delays) => {
        const shared = new MemoryCasStore();
        const wait = () => new Promise<void>((resolve) => setTimeout(resolve, delays.next().value as number));
        const store: CasStore = {
          get: async (key) => (await wait(), shared.get(key)),
          swap: async (key, value, revision) => (await wait(), shared.swap(key, value, revision)),
        };
        const quotas = Array.from({ length: gateways }, (_, i) => new SocketQuota({ store, gatewayId: `g${i}`, liveGateways: () => gateways }));
        const held = quotas.map(() => 0);
        let peak = 0;
        // opens run concurrently in batches; closes release sockets already held
        for (let i = 0; i < steps.length; i += 10) {
          await Promise.all(
            steps.slice(i, i + 10).map(async ([g, open]) => {
              const at = g % gateways;
              if (!open && held[at]! > 0) {
                held[at]!--;
                quotas[at]!.release('q');
                return;
              }
              if (await quotas[at]!.acquire('q', limit)) {
                held[at]!++;
                peak = Math.max(
                  peak,
                  held.reduce((a, b) => a + b, 0),
                );
              }
            }),
          );
        }
        assert.ok(peak <= limit, `peak ${peak} over a limit of ${limit}`);
      },
    ),
    { numRuns: 40 },
  );
});

test('limits - a gateway that stops refreshing stops counting after BELIEVED_MS', () => {
  const doc = withCount({}, 'dead', 7, 1_000);
  assert.equal(othersTotal(doc, 'alive', 1_000), 7);
  assert.equal(othersTotal(doc, 'alive', 1_000 + BELIEVED_MS), 0);
  assert.deepEqual(withCount(doc, 'alive', 1, 1_000 + BELIEVED_MS), { alive: { n: 1, until: 1_000 + 2 * BELIEVED_MS } });
});

test('limits - one gateway alone can take every place of a quota and a released place is taken again', async () => {
  const quota = new SocketQuota({ store: new MemoryCasStore(), gatewayId: 'g', liveGateways: () => 1 });
  for (let i = 0; i < 5; i++) assert.equal(await quota.acquire('q', 5), true);
  assert.equal(await quota.acquire('q', 5), false);
  quota.release('q');
  assert.equal(await quota.acquire('q', 5), true);
});

test('limits - a storm of acquires on one key is admitted in a few store rounds, first come first, up to the limit', async () => {
  const shared = new MemoryCasStore();
  let operations = 0;
  const store: CasStore = {
    get: async (key) => (operations++, await new Promise((resolve) => setTimeout(resolve, 1)), shared.get(key)),
    swap: async (key, value, revision) => (operations++, await new Promise((resolve) => setTimeout(resolve, 1)), shared.swap(key, value, revision)),
  };
  const quota = new SocketQuota({ store, gatewayId: 'g0', liveGateways: () => 1 });
  const answers = await Promise.all(Array.from({ length: 1_000 }, () => quota.acquire('env', 900)));
  assert.equal(answers.filter(Boolean).length, 900);
  assert.deepEqual(answers.indexOf(false), 900, 'the first 900 are the ones admitted');
  assert.equal(quota.count('env'), 900);
  assert.ok(operations <= 6, `${operations} store operations for 1,000 acquires`);
  const doc = JSON.parse((await shared.get('env'))!.value);
  assert.equal(doc.g0.n, 900, 'the count written is the count held');
});

test('limits - a key nobody holds is taken in one store operation; a key another gateway holds still counts its sockets', async () => {
  const shared = new MemoryCasStore();
  let operations = 0;
  const store: CasStore = {
    get: async (key) => (operations++, shared.get(key)),
    swap: async (key, value, revision) => (operations++, shared.swap(key, value, revision)),
  };
  const a = new SocketQuota({ store, gatewayId: 'a', liveGateways: () => 2 });
  const b = new SocketQuota({ store, gatewayId: 'b', liveGateways: () => 2 });
  for (let user = 0; user < 50; user++) assert.equal(await a.acquire(`u${user}`, 2), true);
  assert.equal(operations, 50, 'one create per new user');
  assert.equal(await b.acquire('u0', 2), true, 'the create fails, then the usual read and swap');
  assert.equal(await b.acquire('u0', 2), false, "a's socket and b's fill the limit of 2");
  assert.equal(await a.acquire('u0', 2), false);
});

test('limits - an entry is believed past BELIEVED_MS while its gateway is heard alive, and dropped once it is not', () => {
  const doc = withCount({}, 'other', 3, 1_000);
  const later = 1_000 + BELIEVED_MS + 1;
  assert.equal(othersTotal(doc, 'me', later), 0, 'not heard: believed only for BELIEVED_MS');
  assert.equal(
    othersTotal(doc, 'me', later, (gateway) => gateway === 'other'),
    3,
    'alive: still counted',
  );
  assert.deepEqual(
    withCount(doc, 'me', 1, later, (gateway) => gateway === 'other'),
    { other: doc.other, me: { n: 1, until: later + BELIEVED_MS } },
  );
  assert.deepEqual(withCount(doc, 'me', 1, later), { me: { n: 1, until: later + BELIEVED_MS } });
});
