import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  loginKeys,
  addressIsClean,
  loginVerdict,
  retryAfterSeconds,
  slowdownDelayMs,
  slowdownSample,
  slowdownVerdict,
  throttleVerdict,
  touchIntervalMs,
  type LoginRules,
} from '@rtm/accounts';

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

const slow = { after: 5, windowMs: rule.windowMs, baseDelayMs: 1_000, maxDelayMs: 60_000 };
const rules: LoginRules = { pair: rule, ip: { limit: 20, windowMs: rule.windowMs }, account: slow };
const ago = (...seconds: number[]) => seconds.map((s) => now - s * 1_000);

test('slow-down - no delay below the threshold, then 1 s doubling per failure, capped', () => {
  assert.deepEqual(
    [0, 4, 5, 6, 7, 10, 11, 12, 100].map((n) => slowdownDelayMs(n, slow)),
    [0, 0, 1_000, 2_000, 4_000, 32_000, 60_000, 60_000, 60_000],
  );
  // enough recent failures are read to reach the cap, no more
  assert.equal(slowdownSample(slow), 12);
  assert.equal(slowdownDelayMs(slowdownSample(slow), slow), slow.maxDelayMs);
  assert.equal(slowdownSample({ ...slow, maxDelayMs: 1_000 }), 6);
});

test('slow-down - an attempt waits the delay after the most recent failure, never longer than the cap', () => {
  // six failures: 2 s after the latest (1 s ago) → 1 s more
  assert.deepEqual(slowdownVerdict(ago(1, 10, 20, 30, 40, 50), slow, now), { allowed: false, retryAfterMs: 1_000 });
  assert.deepEqual(slowdownVerdict(ago(3, 10, 20, 30, 40, 50), slow, now), { allowed: true });
  // failures outside the window do not count
  assert.deepEqual(slowdownVerdict([...ago(1, 2, 3, 4), now - rule.windowMs, now - rule.windowMs - 5], slow, now), { allowed: true });
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 2 * rule.windowMs }), { maxLength: 40 }), (ages) => {
      const verdict = slowdownVerdict(
        ages.map((age) => now - age),
        slow,
        now,
      );
      if (!verdict.allowed) {
        assert.ok(verdict.retryAfterMs > 0 && verdict.retryAfterMs <= slow.maxDelayMs, 'a delay, never a lock-out');
        assert.equal(
          slowdownVerdict(
            ages.map((age) => now - age),
            slow,
            now + verdict.retryAfterMs,
          ).allowed,
          true,
        );
      }
    }),
  );
});

test('login - an address with no recent failures is never slowed by the account, however many failures it has', () => {
  const sprayed = { pair: [], ip: [], account: ago(...Array.from({ length: 50 }, (_, i) => i)) };
  assert.deepEqual(loginVerdict(sprayed, rules, now), { allowed: true });
  // an old failure of the address (outside the window) still leaves it clean
  assert.deepEqual(loginVerdict({ ...sprayed, ip: [now - rule.windowMs - 1] }, rules, now), { allowed: true });
  // one recent failure of its own: slowed like every other guessing address
  const dirty = loginVerdict({ ...sprayed, ip: ago(600) }, rules, now);
  assert.equal(dirty.allowed, false);
  assert.ok(!dirty.allowed && dirty.scope === 'account' && dirty.retryAfterMs <= slow.maxDelayMs);
});

test('login - the pair and the address limits refuse; the longest wait is answered', () => {
  const pairFull = ago(10, 20, 30, 40, 50);
  assert.deepEqual(loginVerdict({ pair: pairFull, ip: pairFull, account: pairFull }, rules, now), {
    allowed: false,
    scope: 'pair',
    retryAfterMs: rule.windowMs - 50_000,
  });
  const ipFull = ago(...Array.from({ length: 20 }, (_, i) => 100 + i));
  const verdict = loginVerdict({ pair: [], ip: ipFull, account: [] }, rules, now);
  assert.deepEqual(verdict, { allowed: false, scope: 'ip', retryAfterMs: rule.windowMs - 119_000 });
  assert.deepEqual(loginVerdict({ pair: ago(1, 2), ip: ago(1, 2), account: ago(1, 2) }, rules, now), { allowed: true });
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 0, max: rule.windowMs }), { maxLength: 8 }),
      fc.array(fc.integer({ min: 0, max: rule.windowMs }), { maxLength: 30 }),
      fc.array(fc.integer({ min: 0, max: rule.windowMs }), { maxLength: 30 }),
      (pair, ip, account) => {
        const f = { pair: pair.map((a) => now - a), ip: ip.map((a) => now - a), account: account.map((a) => now - a) };
        const verdict = loginVerdict(f, rules, now);
        const parts = [throttleVerdict(f.pair, rules.pair, now), throttleVerdict(f.ip, rules.ip, now)];
        if (f.ip.some((at) => at > now - rule.windowMs)) parts.push(slowdownVerdict(f.account, rules.account, now));
        const waits = parts.flatMap((p) => (p.allowed ? [] : [p.retryAfterMs]));
        assert.equal(verdict.allowed, waits.length === 0);
        if (!verdict.allowed) assert.equal(verdict.retryAfterMs, Math.max(...waits));
      },
    ),
  );
});

test('login - keys: the pair separates address and e-mail, which has no whitespace', () => {
  assert.deepEqual(loginKeys('a@b.c', '::1'), { pair: 'pair:::1 a@b.c', ip: 'ip:::1', account: 'account:a@b.c' });
});

test('sessions - a session in use is refreshed well within its idle time', () => {
  assert.equal(touchIntervalMs(12 * 3_600_000), 60_000, 'a minute for the default 12 h');
  assert.equal(touchIntervalMs(3_000), 300, 'a tenth of a short idle time');
});

test('login throttle - an address is clean without a failure of its own in the window', () => {
  const rule = { limit: 5, windowMs: 60_000 };
  assert.equal(addressIsClean([], rule, 100_000), true);
  assert.equal(addressIsClean([30_000], rule, 100_000), true, 'older than the window');
  assert.equal(addressIsClean([30_000, 50_000], rule, 100_000), false);
});
