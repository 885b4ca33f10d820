import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Deadline, Deadlines } from '../../libs/edge/src/sessions/deadlines.ts';

/** Deadlines on a hand-driven clock: `runDue` fires what is due at `clock.now`. */
function harness() {
  const clock = { now: 0 };
  const fired: [string, number, number][] = [];
  const deadlines = new Deadlines<string>(
    (item, kind) => fired.push([item, kind, clock.now]),
    () => clock.now,
  );
  return { clock, fired, deadlines };
}

test('sessions - deadlines: entries fire once, in time order, only when due', () => {
  const { clock, fired, deadlines } = harness();
  const a = new Deadline('a', 0);
  const b = new Deadline('b', 1);
  const c = new Deadline('c', 2);
  deadlines.set(a, 30);
  deadlines.set(b, 10);
  deadlines.set(c, 20);
  clock.now = 5;
  deadlines.runDue();
  assert.equal(fired.length, 0);
  clock.now = 25;
  deadlines.runDue();
  assert.deepEqual(fired, [
    ['b', 1, 25],
    ['c', 2, 25],
  ]);
  assert.equal(b.scheduled, false);
  assert.equal(deadlines.size, 1);
  clock.now = 100;
  deadlines.runDue();
  deadlines.runDue();
  assert.deepEqual(
    fired.map(([item]) => item),
    ['b', 'c', 'a'],
  );
  assert.equal(deadlines.size, 0);
});

test('sessions - deadlines: a cleared entry never fires, a moved one fires at its new time', () => {
  const { clock, fired, deadlines } = harness();
  const a = new Deadline('a', 0);
  const b = new Deadline('b', 0);
  deadlines.set(a, 10);
  deadlines.set(b, 20);
  deadlines.clear(a);
  deadlines.clear(a);
  deadlines.set(b, 50);
  clock.now = 40;
  deadlines.runDue();
  assert.equal(fired.length, 0);
  clock.now = 50;
  deadlines.runDue();
  assert.deepEqual(fired, [['b', 0, 50]]);
});

test('sessions - deadlines: an entry set again from its own firing (a heartbeat) fires again later', () => {
  const clock = { now: 0 };
  const beats: number[] = [];
  const entry = new Deadline('beat', 0);
  const deadlines: Deadlines<string> = new Deadlines<string>(
    () => {
      beats.push(clock.now);
      deadlines.set(entry, clock.now + 10);
    },
    () => clock.now,
  );
  deadlines.set(entry, 10);
  for (clock.now = 0; clock.now <= 45; clock.now += 5) deadlines.runDue();
  assert.deepEqual(beats, [10, 20, 30, 40]);
});

test('sessions - deadlines: any sequence of sets and clears fires exactly the entries left, in order', () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ entry: fc.integer({ min: 0, max: 15 }), at: fc.option(fc.integer({ min: 0, max: 1_000 }), { nil: undefined }) }), {
        maxLength: 200,
      }),
      (steps) => {
        const { clock, fired, deadlines } = harness();
        const entries = Array.from({ length: 16 }, (_, i) => new Deadline(String(i), i));
        const expected = new Map<number, number>();
        for (const { entry, at } of steps) {
          if (at === undefined) {
            deadlines.clear(entries[entry]!);
            expected.delete(entry);
          } else {
            deadlines.set(entries[entry]!, at);
            expected.set(entry, at);
          }
        }
        assert.equal(deadlines.size, expected.size);
        clock.now = 1_000;
        deadlines.runDue();
        assert.deepEqual(
          fired.map(([item]) => Number(item)).sort((x, y) => x - y),
          [...expected.keys()].sort((x, y) => x - y),
        );
        const times = fired.map(([item]) => expected.get(Number(item))!);
        assert.deepEqual(
          times,
          [...times].sort((x, y) => x - y),
          'fired in time order',
        );
        assert.equal(deadlines.size, 0);
      },
    ),
    { numRuns: 300 },
  );
});

test('sessions - deadlines: the one timer fires due entries in real time', async () => {
  const fired: string[] = [];
  const deadlines = new Deadlines<string>((item) => fired.push(item));
  deadlines.set(new Deadline('late', 0), Date.now() + 60);
  deadlines.set(new Deadline('soon', 0), Date.now() + 10);
  const never = new Deadline('never', 0);
  deadlines.set(never, Date.now() + 30);
  deadlines.clear(never);
  await new Promise((resolve) => setTimeout(resolve, 120));
  assert.deepEqual(fired, ['soon', 'late']);
});
