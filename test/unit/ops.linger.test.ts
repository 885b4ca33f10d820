/**
 * The linger policy (libs/ops linger.ts): a group waits for more only under load, never past its
 * bound, never once full; the arrival rate follows bursts and forgets them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ArrivalRate, lingerMs } from '../../libs/ops/src/index.ts';

const options = { fill: 32, maxMs: 1 };

test('linger: at rest a group goes at once', () => {
  assert.equal(lingerMs(1, 0, options), 0, 'nothing arriving');
  assert.equal(lingerMs(1, 0.5, options), 0, 'fewer than one more expected within the bound');
  assert.equal(lingerMs(0, 0.99, options), 0);
});

test('linger: under load a small group waits, as long as filling takes and never past the bound', () => {
  assert.equal(lingerMs(1, 10, options), 1, '31 more at 10/ms take 3.1 ms: the bound');
  assert.equal(lingerMs(22, 20, options), 0.5, '10 more at 20/ms take 0.5 ms');
  assert.ok(lingerMs(4, 2, options) > 0);
});

test('linger: a full group goes at once, and a bound of 0 turns waiting off', () => {
  assert.equal(lingerMs(32, 100, options), 0);
  assert.equal(lingerMs(500, 100, options), 0);
  assert.equal(lingerMs(1, 100, { fill: 32, maxMs: 0 }), 0);
});

test('arrival rate: follows what arrives, and decays once it stops', () => {
  const rate = new ArrivalRate(20);
  assert.equal(rate.perMs(0), 0);
  for (let t = 0; t < 200; t++) rate.add(5, t); // 5 per ms for 200 ms
  assert.ok(Math.abs(rate.perMs(199) - 5) < 0.3, `~5/ms, got ${rate.perMs(199)}`);
  assert.ok(lingerMs(1, rate.perMs(199), options) > 0, 'a burst makes a small group wait');
  assert.ok(rate.perMs(199 + 100) < 0.05, 'five windows later it is forgotten');
  assert.equal(lingerMs(1, rate.perMs(199 + 100), options), 0, 'and groups go at once again');
});
