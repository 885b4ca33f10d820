/**
 * Durations in configuration (timeouts, TTLs, the webhook retry schedule): parseDuration takes
 * a non-negative decimal number with an optional unit ms, s, m, h or d (none means
 * milliseconds), spaces around allowed, and gives whole milliseconds (rounded half up); anything
 * else (signs, exponents, case, ISO 8601, compound `1h30m`, other units) is refused, so a typo in
 * an environment variable stops the process instead of becoming another duration.
 * parseSchedule takes 1-20 of them, comma-separated.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseDuration, parseSchedule } from '@rtm/config';

const ACCEPTED: [string, number][] = [
  ['250ms', 250],
  ['30s', 30_000],
  ['5m', 300_000],
  ['2h', 7_200_000],
  ['7d', 604_800_000],
  ['1500', 1_500],
  ['0', 0],
  ['0s', 0],
  [' 30 s ', 30_000],
  ['007s', 7_000],
  ['1.5s', 1_500],
  ['2.5h', 9_000_000],
  ['1.4ms', 1],
  ['0.5ms', 1],
  ['0.0005s', 1],
  ['0.0004s', 0],
];

const REFUSED = [
  '30S',
  '5M',
  '-5s',
  '+5s',
  '',
  '  ',
  '5w',
  '30sec',
  's',
  '1e3',
  '.5s',
  '5.s',
  'PT30S',
  'P1D',
  '1h30m',
  '5 m 3s',
  '5_000',
  '1,000',
  `${'9'.repeat(400)}d`,
];

test('parseDuration - table of accepted inputs and their milliseconds', () => {
  for (const [text, ms] of ACCEPTED) assert.equal(parseDuration(text), ms, JSON.stringify(text));
});

test('parseDuration - refused inputs throw and name the input', () => {
  for (const text of REFUSED) {
    assert.throws(
      () => parseDuration(text),
      (error: Error) => error.message.includes(JSON.stringify(text)),
      JSON.stringify(text),
    );
  }
  assert.throws(() => parseDuration(`${'9'.repeat(400)}d`), /out of range/);
});

const UNITS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

test('parseDuration - any whole number with any unit is that many units, and equal spans are equal', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.constantFrom(...(Object.keys(UNITS) as (keyof typeof UNITS)[])), (n, unit) => {
      assert.equal(parseDuration(`${n}${unit}`), n * UNITS[unit]);
      if (unit === 'ms') assert.equal(parseDuration(String(n)), n);
    }),
    { numRuns: 500 },
  );
  assert.equal(parseDuration('60s'), parseDuration('1m'));
  assert.equal(parseDuration('24h'), parseDuration('1d'));
  assert.equal(parseDuration('0.5m'), parseDuration('30s'));
});

test('parseSchedule - 1 to 20 durations, comma-separated, frozen; an empty list or a bad entry is refused', () => {
  const schedule = parseSchedule('30s,5m,30m,2h,6h');
  assert.deepEqual(schedule, [30_000, 300_000, 1_800_000, 7_200_000, 21_600_000]);
  assert.ok(Object.isFrozen(schedule));
  assert.deepEqual(parseSchedule(' 1s , 2s ,'), [1_000, 2_000]);
  assert.equal(parseSchedule(Array(20).fill('1s').join(',')).length, 20);
  for (const text of ['', ' , ', Array(21).fill('1s').join(',')]) assert.throws(() => parseSchedule(text), /1-20 durations/, text);
  assert.throws(() => parseSchedule('1s,x'), /"x" is not a duration/);
});
