import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HandshakePacer } from '../../libs/edge/src/sessions/handshake-pacer.ts';

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A handshake the test settles by hand, recording when it began. */
function handshakes(count: number) {
  const begun: number[] = [];
  const settle: (() => void)[] = [];
  const make = (n: number) => () =>
    new Promise<void>((resolve) => {
      begun.push(n);
      settle[n] = resolve;
    });
  return { begun, settle, all: Array.from({ length: count }, (_, n) => make(n)) };
}

test('handshake pacer: a burst begins a few per turn, in order, never inside the turn that pushed it', async () => {
  const pacer = new HandshakePacer({ perTurn: 3, inFlight: 100, holdMs: 60_000 });
  const { begun, all } = handshakes(10);
  for (const handshake of all) pacer.push(handshake);
  assert.deepEqual(begun, [], 'nothing begins in the pushing turn');
  const perTurn: number[] = [];
  while (begun.length < 10) {
    const before = begun.length;
    await turn();
    perTurn.push(begun.length - before);
  }
  assert.ok(
    perTurn.every((n) => n <= 3),
    `begun per turn: ${perTurn.join(', ')}`,
  );
  assert.deepEqual(begun, [...Array(10).keys()]);
  assert.equal(pacer.waiting, 0);
  assert.equal(pacer.running, 10);
});

test('handshake pacer: at most inFlight unfinished at once; a settled one (kept or failed) frees its place', async () => {
  const pacer = new HandshakePacer({ perTurn: 10, inFlight: 2, holdMs: 60_000 });
  const { begun, settle, all } = handshakes(5);
  for (const handshake of all) pacer.push(handshake);
  for (let i = 0; i < 5; i++) await turn();
  assert.deepEqual(begun, [0, 1]);
  settle[0]!();
  for (let i = 0; i < 5; i++) await turn();
  assert.deepEqual(begun, [0, 1, 2]);
  // a handshake that fails frees its place too
  pacer.push(() => Promise.reject(new Error('refused')));
  settle[1]!();
  settle[2]!();
  for (let i = 0; i < 5; i++) await turn();
  assert.deepEqual(begun, [0, 1, 2, 3, 4]);
  assert.equal(pacer.waiting, 1, 'the failing one waits for a place');
  settle[3]!();
  for (let i = 0; i < 5; i++) await turn();
  assert.deepEqual([pacer.waiting, pacer.running], [0, 1], 'it began, failed and gave its place back');
});

test('handshake pacer: a handshake that never settles gives its place back after holdMs', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const pacer = new HandshakePacer({ perTurn: 10, inFlight: 1, holdMs: 5_000 });
  const { begun, all } = handshakes(2);
  pacer.push(all[0]!);
  pacer.push(all[1]!);
  for (let i = 0; i < 3; i++) await turn();
  assert.deepEqual(begun, [0]);
  t.mock.timers.tick(4_999);
  for (let i = 0; i < 3; i++) await turn();
  assert.deepEqual(begun, [0]);
  t.mock.timers.tick(1);
  for (let i = 0; i < 3; i++) await turn();
  assert.deepEqual(begun, [0, 1]);
});
