import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FairGate, type Release } from '../../libs/edge/src/sessions/fair-gate.ts';

const gate = (concurrency: number, perKey: number, maxWaitingPerKey = 1_000) =>
  new FairGate({ concurrency, perKey, maxWaitingPerKey, full: (key) => new Error(`full: ${key}`) });

/** Lets granted acquisitions resolve (grants are promise resolutions). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

test('sessions - fair gate: under its limits a unit runs at once; past them it waits', async () => {
  const g = gate(2, 2);
  const order: string[] = [];
  const a1 = await g.acquire('a');
  const a2 = await g.acquire('a');
  void g.acquire('a').then((release) => {
    order.push('a3');
    release();
  });
  await settle();
  assert.deepEqual(order, []);
  assert.equal(g.running, 2);
  assert.equal(g.waiting, 1);
  a1();
  await settle();
  assert.deepEqual(order, ['a3']);
  a2();
  assert.equal(g.running, 0);
  assert.equal(g.waiting, 0);
});

test("sessions - fair gate: a freed slot goes to the next environment in turn, not to the first environment's queue", async () => {
  const g = gate(1, 1);
  const done: string[] = [];
  const first = await g.acquire('a');
  const queue = (key: string, name: string) =>
    g.acquire(key).then((release) => {
      done.push(name);
      release();
    });
  // a's storm is queued first; b's single unit comes after all of it
  const all = [queue('a', 'a1'), queue('a', 'a2'), queue('a', 'a3'), queue('b', 'b1'), queue('a', 'a4'), queue('c', 'c1')];
  first();
  await Promise.all(all);
  assert.deepEqual(done, ['a1', 'b1', 'c1', 'a2', 'a3', 'a4']);
});

test('sessions - fair gate: an environment at its own limit does not hold slots another can use', async () => {
  const g = gate(4, 2);
  const a = [await g.acquire('a'), await g.acquire('a')];
  let aGranted = false;
  void g.acquire('a').then((release) => {
    aGranted = true;
    release();
  });
  // b is admitted at once although a has work waiting: a is at its own limit
  const b = await g.acquire('b');
  assert.equal(g.runningOf('b'), 1);
  await settle();
  assert.equal(aGranted, false);
  b();
  a[0]!();
  await settle();
  assert.equal(aGranted, true);
  a[1]!();
});

test("sessions - fair gate: past an environment's queue the unit is refused at once; others are not", async () => {
  const g = gate(1, 1, 2);
  const held = await g.acquire('a');
  const waiting = [g.acquire('a'), g.acquire('a')];
  await assert.rejects(g.acquire('a'), /full: a/);
  const b = g.acquire('b');
  held();
  // one slot: a's first waiter, then b (its turn), then a's second
  (await waiting[0]!)();
  (await b)();
  (await waiting[1]!)();
  assert.equal(g.running, 0);
});

test('sessions - fair gate: run() releases when the work fails; release is idempotent', async () => {
  const g = gate(1, 1);
  await assert.rejects(
    g.run('a', async () => Promise.reject(new Error('boom'))),
    /boom/,
  );
  assert.equal(g.running, 0);
  const release = await g.acquire('a');
  release();
  release();
  assert.equal(g.running, 0);
  assert.equal(await g.run('a', async () => 7), 7);
});

test('sessions - fair gate: work that never settles gives its slot back after holdMs', async () => {
  const g = new FairGate({ concurrency: 1, perKey: 1, maxWaitingPerKey: 10, holdMs: 20, full: () => new Error('full') });
  void g.run('a', () => new Promise<never>(() => {}));
  await settle();
  assert.equal(g.running, 1);
  const b = g.run('b', async () => 'b ran');
  // the hold's timer does not keep a process alive by itself: this test's wait does
  await new Promise((resolve) => setTimeout(resolve, 60));
  // admitted once the stuck unit's hold ran out
  assert.equal(await b, 'b ran');
  assert.equal(g.running, 0);
});

test('sessions - fair gate: the limits always hold and every unit is granted in the end', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 6 }),
      fc.integer({ min: 1, max: 4 }),
      fc.array(fc.record({ key: fc.constantFrom('a', 'b', 'c', 'd'), releaseAfter: fc.integer({ min: 0, max: 5 }) }), { minLength: 1, maxLength: 60 }),
      async (concurrency, perKey, units) => {
        const g = gate(concurrency, perKey);
        const held: Release[] = [];
        const granted: string[] = [];
        let maxTotal = 0;
        const maxOf = new Map<string, number>();
        const acquisitions = units.map(({ key }) =>
          g.acquire(key).then((release) => {
            granted.push(key);
            maxTotal = Math.max(maxTotal, g.running);
            maxOf.set(key, Math.max(maxOf.get(key) ?? 0, g.runningOf(key)));
            held.push(release);
          }),
        );
        // release units in a shuffled-but-deterministic order until all have run
        let step = 0;
        while (granted.length < units.length || held.length > 0) {
          await settle();
          const at = held.length > 0 ? units[step % units.length]!.releaseAfter % held.length : -1;
          if (at >= 0) held.splice(at, 1)[0]!();
          step++;
          if (step > 10_000) throw new Error('units were never granted');
        }
        await Promise.all(acquisitions);
        assert.ok(maxTotal <= concurrency);
        for (const max of maxOf.values()) assert.ok(max <= perKey);
        assert.equal(granted.length, units.length);
        assert.equal(g.running, 0);
        assert.equal(g.waiting, 0);
      },
    ),
    { numRuns: 200 },
  );
});
