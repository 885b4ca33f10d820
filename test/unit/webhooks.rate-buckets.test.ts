import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RateBuckets } from '../../apps/dispatcher/src/delivery/rate-buckets.ts';

test('a bucket holds one second of sends and refills continuously', () => {
  const rates = new RateBuckets(10);
  const t0 = 1_000_000;
  for (let i = 0; i < 10; i++) {
    assert.equal(rates.refusedUntil('env', t0), null, `send ${i + 1} of the first second`);
    rates.take('env', t0);
  }
  // the eleventh waits a tenth of a second, for the next token
  assert.equal(rates.refusedUntil('env', t0), t0 + 100);
  assert.equal(rates.refusedUntil('env', t0 + 99) !== null, true);
  assert.equal(rates.refusedUntil('env', t0 + 100), null);
  // a long pause never stores more than one second's sends
  assert.equal(rates.tokens('env', t0 + 60_000), 10);
});

test('each key has its own bucket, and 0 means no limit', () => {
  const rates = new RateBuckets(1);
  rates.take('a', 0);
  assert.notEqual(rates.refusedUntil('a', 0), null);
  assert.equal(rates.refusedUntil('b', 0), null, "one endpoint's sends do not spend another's");
  const none = new RateBuckets(0);
  for (let i = 0; i < 1_000; i++) none.take('a', 0);
  assert.equal(none.limited, false);
  assert.equal(none.refusedUntil('a', 0), null);
  assert.equal(none.tokens('a', 0), Infinity);
});

test('past maxKeys the buckets start full again: the limit forgets, it never refuses more', () => {
  const rates = new RateBuckets(1, { maxKeys: 3 });
  for (const key of ['a', 'b', 'c']) rates.take(key, 0);
  assert.notEqual(rates.refusedUntil('a', 0), null);
  rates.take('d', 0);
  assert.equal(rates.refusedUntil('a', 0), null);
});

test('a key taken over (emptySince) starts from an empty bucket then, whatever it held before, and refills from there', () => {
  const takenAt = new Map<string, number>();
  const rates = new RateBuckets(5, { emptySince: (key) => takenAt.get(key) });
  assert.equal(rates.tokens('env', 0), 5, 'never taken over: a full bucket');
  rates.take('env', 0);
  takenAt.set('env', 10_000);
  takenAt.set('new', 10_000);
  for (const key of ['env', 'new']) {
    assert.equal(rates.tokens(key, 10_000), 0, `${key}: empty at the take-over`);
    assert.equal(rates.refusedUntil(key, 10_000), 10_200, `${key}: the first send after one interval`);
    assert.equal(rates.tokens(key, 10_600), 3);
    assert.equal(rates.tokens(key, 12_000), 5, `${key}: full one second later`);
  }
  // sends since the take-over count as usual
  rates.take('new', 10_200);
  assert.equal(rates.tokens('new', 10_200), 0);
  assert.equal(rates.refusedUntil('new', 10_200), 10_400);
  // the second after a take-over: whatever the previous owner sent in the second before, no new burst
  let sent = 0;
  for (let at = 10_000; at < 11_000; at += 10) {
    if (rates.refusedUntil('env', at) === null) {
      rates.take('env', at);
      sent++;
    }
  }
  assert.equal(sent, 4, 'the first second after a take-over: a send every 200 ms from its start, no burst');
});
