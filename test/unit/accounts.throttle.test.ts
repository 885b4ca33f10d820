import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { retryAfterSeconds, throttleVerdict, touchIntervalMs } from '@rtm/accounts';

const rule = { limit: 5, windowMs: 15 * 60_000 };
const now = 1_000_000_000;

test('throttle - fewer failures than the limit within the window are allowed', () => {
  assert.deepEqual(throttleVerdict([], rule, now), { allowed: true });
  assert.deepEqual(throttleVerdict([now - 1, now - 2, now - 3, now - 4], rule, now), { allowed: true });
});

test('throttle - at the limit, refused until the limit-th most recent failure leaves the window', () => {
  const failures = [now - 10_000, now - 20_000, now - 30_000, now - 40_000, now - 50_000];
  // the oldest of the five (50 s ago) leaves the window in 15 min - 50 s
  assert.deepEqual(throttleVerdict(failures, rule, now), { allowed: false, retryAfterMs: rule.windowMs - 50_000 });
  // more failures than the limit: only the newest `limit` matter
  const more = [...failures, now - 60_000, now - 70_000];
  assert.deepEqual(throttleVerdict(more, rule, now), { allowed: false, retryAfterMs: rule.windowMs - 50_000 });
  // in any order
  assert.deepEqual(throttleVerdict([...more].reverse(), rule, now), { allowed: false, retryAfterMs: rule.windowMs - 50_000 });
});

test('throttle - failures older than the window do not count', () => {
  const failures = [now - 1_000, now - 2_000, now - 3_000, now - 4_000, now - rule.windowMs, now - rule.windowMs - 1];
  assert.deepEqual(throttleVerdict(failures, rule, now), { allowed: true });
});

test('throttle - property: refused exactly when `limit` failures are in the window, and allowed again when the wait is over', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 2 * rule.windowMs }), { maxLength: 12 }), fc.integer({ min: 1, max: 6 }), (ages, limit) => {
      const r = { limit, windowMs: rule.windowMs };
      const failures = ages.map((age) => now - age);
      const inWindow = ages.filter((age) => age < r.windowMs).length;
      const verdict = throttleVerdict(failures, r, now);
      assert.equal(verdict.allowed, inWindow < limit);
      if (!verdict.allowed) {
        assert.ok(verdict.retryAfterMs > 0 && verdict.retryAfterMs <= r.windowMs);
        assert.equal(throttleVerdict(failures, r, now + verdict.retryAfterMs).allowed, true, 'allowed once the wait is over');
        assert.equal(throttleVerdict(failures, r, now + verdict.retryAfterMs - 1).allowed, false, 'not a moment before');
      }
    }),
  );
});

test('throttle - retry-after is whole seconds, rounded up, at least 1', () => {
  assert.equal(retryAfterSeconds(1), 1);
  assert.equal(retryAfterSeconds(999), 1);
  assert.equal(retryAfterSeconds(1000), 1);
  assert.equal(retryAfterSeconds(1001), 2);
  assert.equal(retryAfterSeconds(0), 1);
});

test('sessions - a session in use is refreshed well within its idle time', () => {
  assert.equal(touchIntervalMs(12 * 3_600_000), 60_000, 'a minute for the default 12 h');
  assert.equal(touchIntervalMs(3_000), 300, 'a tenth of a short idle time');
});
