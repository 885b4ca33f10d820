import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CheckTimes, HashGate, HashingBusyError } from '@rtm/accounts';

/** A job the test finishes by hand, recording when it started. */
function held(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    run: async () => {
      log.push(name);
      await done;
      return name;
    },
    finish,
  };
}

test('hash gate - a check from a clean address goes before every ordinary one waiting', async () => {
  const gate = new HashGate(1, 3);
  const log: string[] = [];
  const a = held(log, 'running');
  const o1 = held(log, 'ordinary-1');
  const o2 = held(log, 'ordinary-2');
  const f = held(log, 'first');
  const runs = [gate.run(a.run), gate.run(o1.run, 'ordinary'), gate.run(o2.run, 'ordinary'), gate.run(f.run, 'first')];
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(log, ['running']);
  a.finish();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(log, ['running', 'first'], 'the clean address jumps the ordinary queue');
  f.finish();
  await new Promise((resolve) => setImmediate(resolve));
  o1.finish();
  await new Promise((resolve) => setImmediate(resolve));
  o2.finish();
  assert.deepEqual(await Promise.all(runs), ['running', 'ordinary-1', 'ordinary-2', 'first']);
  assert.deepEqual(log, ['running', 'first', 'ordinary-1', 'ordinary-2']);
});

test('hash gate - each lane has its own bounded queue: a full ordinary queue refuses ordinary checks only', async () => {
  const gate = new HashGate(1, 2);
  const log: string[] = [];
  const jobs = ['a', 'b', 'c'].map((name) => held(log, name));
  const runs = jobs.map((job) => gate.run(job.run, 'ordinary'));
  assert.equal(gate.full('ordinary'), true);
  assert.equal(gate.full('first'), false);
  await assert.rejects(
    gate.run(async () => 'refused', 'ordinary'),
    HashingBusyError,
  );
  const first = held(log, 'first');
  const firstRun = gate.run(first.run, 'first');
  for (const job of [...jobs, first]) job.finish();
  assert.deepEqual(await Promise.all([...runs, firstRun]), ['a', 'b', 'c', 'first']);
  assert.equal(gate.full('ordinary'), false);
  // a thrown check frees its slot too
  await assert.rejects(
    gate.run(async () => {
      throw new Error('boom');
    }),
    /boom/,
  );
  assert.equal(await gate.run(async () => 'after'), 'after');
});

test('check times - a check that did not happen lasts one of the recent measured ones of its lane', () => {
  const times = new CheckTimes(3, 350);
  assert.equal(times.draw('first'), 350, 'nothing measured yet: the fallback');
  times.record('ordinary', 900);
  assert.equal(times.draw('first'), 900, "no measurement of its own lane: the other lane's");
  for (const ms of [100, 200, 300, 400]) times.record('first', ms);
  // only the most recent three are kept; the draw picks among them by `random`
  assert.deepEqual([0, 0.34, 0.67].map((r) => times.draw('first', () => r)).sort(), [200, 300, 400]);
  assert.ok([200, 300, 400].includes(times.draw('first', () => 0.9999)));
  const drawn = new Set(Array.from({ length: 200 }, () => times.draw('first')));
  assert.deepEqual([...drawn].sort(), [200, 300, 400]);
  assert.equal(times.draw('ordinary'), 900);
  times.record('first', Number.NaN);
  times.record('first', -1);
  assert.deepEqual(new Set(Array.from({ length: 100 }, () => times.draw('first'))), new Set([200, 300, 400]));
});
