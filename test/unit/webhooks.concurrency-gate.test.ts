import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ConcurrencyGate } from '../../apps/dispatcher/src/delivery/concurrency-gate.ts';

test('concurrency gate - refuses over the per-environment limit; other environments go', () => {
  const gate = new ConcurrencyGate({ perEnvironment: 2, perHost: 100 });
  const a1 = gate.tryAcquire('A', 'a.example');
  const a2 = gate.tryAcquire('A', 'b.example');
  assert.ok(a1 && a2);
  assert.equal(gate.tryAcquire('A', 'c.example'), null, 'a third send of A is refused');
  assert.ok(gate.tryAcquire('B', 'a.example'), 'B is not held back by A');
  a1();
  assert.ok(gate.tryAcquire('A', 'c.example'), 'a released place is free again');
});

test('concurrency gate - refuses over the per-host limit across environments', () => {
  const gate = new ConcurrencyGate({ perEnvironment: 100, perHost: 2 });
  assert.ok(gate.tryAcquire('A', 'shared.example'));
  assert.ok(gate.tryAcquire('B', 'shared.example'));
  assert.equal(gate.tryAcquire('C', 'shared.example'), null);
  assert.ok(gate.tryAcquire('C', 'other.example'));
});

test('concurrency gate - release is idempotent and a refusal takes nothing', () => {
  const gate = new ConcurrencyGate({ perEnvironment: 1, perHost: 1 });
  const release = gate.tryAcquire('A', 'h')!;
  assert.equal(gate.tryAcquire('B', 'h'), null);
  assert.equal(gate.tryAcquire('A', 'g'), null);
  release();
  release();
  assert.deepEqual(gate.inFlight(), { environments: 0, hosts: 0, sends: 0 });
});

test('concurrency gate - property: in-flight counts never exceed the limits and return to zero', () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ env: fc.constantFrom('A', 'B', 'C'), host: fc.constantFrom('x', 'y'), release: fc.boolean() }), { maxLength: 100 }),
      (ops) => {
        const limits = { perEnvironment: 3, perHost: 4 };
        const gate = new ConcurrencyGate(limits);
        const held: { env: string; host: string; release: () => void }[] = [];
        for (const op of ops) {
          if (op.release && held.length) held.shift()!.release();
          const release = gate.tryAcquire(op.env, op.host);
          if (release) held.push({ env: op.env, host: op.host, release });
          for (const env of ['A', 'B', 'C']) assert.ok(held.filter((h) => h.env === env).length <= limits.perEnvironment);
          for (const host of ['x', 'y']) assert.ok(held.filter((h) => h.host === host).length <= limits.perHost);
        }
        for (const h of held) h.release();
        assert.deepEqual(gate.inFlight(), { environments: 0, hosts: 0, sends: 0 });
      },
    ),
    { numRuns: 300 },
  );
});

test('concurrency gate - acquire waits for a place that turns over, first come first served', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  const gate = new ConcurrencyGate({ perEnvironment: 10, perHost: 1 });
  const first = gate.tryAcquire('A', 'h')!;
  const order: string[] = [];
  const w1 = gate.acquire('A', 'h', 250).then((release) => (order.push('w1'), release));
  const w2 = gate.acquire('B', 'h', 250).then((release) => (order.push('w2'), release));
  t.mock.timers.tick(10);
  first();
  const r1 = await w1;
  assert.ok(r1, 'the first waiter gets the place given back');
  assert.deepEqual(order, ['w1']);
  r1!();
  assert.ok(await w2, 'then the second');
  assert.deepEqual(order, ['w1', 'w2']);
});

test('concurrency gate - acquire gives up after its wait, and does not wait at all for a host whose places do not turn over', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  const gate = new ConcurrencyGate({ perEnvironment: 10, perHost: 1 });
  const held = gate.tryAcquire('A', 'hung')!;
  const waiting = gate.acquire('A', 'hung', 250);
  t.mock.timers.tick(250);
  assert.equal(await waiting, null, 'no place within the wait');
  // the place has now been held longer than the wait without turning over: refused at once
  t.mock.timers.tick(1);
  let settled = false;
  const immediate = gate.acquire('B', 'hung', 250).then((release) => ((settled = true), release));
  await Promise.resolve();
  await Promise.resolve();
  assert.equal(settled, true, 'answered without waiting');
  assert.equal(await immediate, null);
  held();
  assert.ok(await gate.acquire('B', 'hung', 250), 'once a place comes back it goes at once');
});

test("concurrency gate - inFlightOf counts one environment's places, whatever their hosts", () => {
  const gate = new ConcurrencyGate({ perEnvironment: 5, perHost: 5 });
  assert.equal(gate.inFlightOf('A'), 0);
  const a1 = gate.tryAcquire('A', 'a.example')!;
  gate.tryAcquire('A', 'b.example');
  gate.tryAcquire('B', 'a.example');
  assert.equal(gate.inFlightOf('A'), 2);
  a1();
  a1();
  assert.equal(gate.inFlightOf('A'), 1, 'a place given back once, however often released');
  assert.equal(gate.inFlightOf('B'), 1);
});

test("concurrency gate - a place that comes back serves its own environment's and host's waiters in arrival order, and no others' places are taken", async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  const gate = new ConcurrencyGate({ perEnvironment: 2, perHost: 2 });
  const a1 = gate.tryAcquire('A', 'ha')!;
  gate.tryAcquire('A', 'hb')!;
  const b = gate.tryAcquire('B', 'ha')!;
  const c = gate.tryAcquire('C', 'hc')!;
  gate.tryAcquire('C', 'hc')!;
  const order: string[] = [];
  const waits = [
    gate.acquire('A', 'hb', 250).then((release) => (order.push('A/hb'), release)),
    gate.acquire('B', 'ha', 250).then((release) => (order.push('B/ha'), release)),
    gate.acquire('C', 'hc', 250).then((release) => (order.push('C/hc'), release)),
  ];
  assert.equal(gate.acquireNow('A', 'hz'), null, 'no jumping ahead of a waiter of the same environment');
  t.mock.timers.tick(10);
  // A's place on host ha comes back: A's waiter (its host hb has room) goes, and so does B's,
  // which waited for host ha: both in arrival order; C's is not served by places not its own
  a1();
  await Promise.all(waits.slice(0, 2));
  assert.deepEqual(order, ['A/hb', 'B/ha']);
  await Promise.resolve();
  assert.deepEqual(order, ['A/hb', 'B/ha'], 'C waits');
  b();
  await Promise.resolve();
  assert.deepEqual(order, ['A/hb', 'B/ha'], "a place of host ha is not C's");
  c();
  await waits[2];
  assert.deepEqual(order, ['A/hb', 'B/ha', 'C/hc']);
  assert.deepEqual(gate.inFlight(), { environments: 3, hosts: 3, sends: 5 });
});
