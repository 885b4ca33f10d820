/**
 * Dashboard session expiry on a fake clock (libs/accounts sessions.ts `judgeSession`, which
 * SessionStore.find applies to the row and the database's `now()`): a session ends after its idle
 * time without a request, and at its absolute lifetime however much it is used.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { endedSessionsIntervalMs, judgeSession, touchIntervalMs, type SessionRules } from '@rtm/accounts';

const RULES: SessionRules = { idleMs: 2_000, maxMs: 7_000 };

/** A session signed in at t=0, used by requests at the given times (ms); what each request finds. */
function replay(times: number[], rules: SessionRules = RULES): string[] {
  const expiresAt = new Date(rules.maxMs);
  let lastSeenAt = new Date(0);
  return times.map((t) => {
    const now = new Date(t);
    const verdict = judgeSession({ expiresAt, lastSeenAt }, now, rules);
    if (!verdict.live) return verdict.why;
    if (verdict.touch) lastSeenAt = now;
    return 'live';
  });
}

test('session expiry: each use within the idle time moves the idle expiry on', () => {
  assert.deepEqual(replay([1_200, 2_400, 3_600]), ['live', 'live', 'live']);
});

test('session expiry: unused for longer than the idle time ends it, and it stays ended', () => {
  assert.deepEqual(replay([1_200, 3_300, 3_400]), ['live', 'idle', 'idle']);
  // exactly the idle time after the last use is already too late
  assert.deepEqual(replay([2_000]), ['idle']);
  assert.deepEqual(replay([1_999]), ['live']);
});

test('session expiry: a session in use ends at its absolute lifetime', () => {
  const every500 = Array.from({ length: 20 }, (_, i) => (i + 1) * 500);
  const seen = replay(every500);
  const lastLive = every500[seen.lastIndexOf('live')]!;
  assert.equal(lastLive, 6_500, 'answered while in use, up to the last request before 7 s');
  assert.ok(
    seen.slice(seen.indexOf('expired')).every((v) => v === 'expired'),
    'ended for good at 7 s',
  );
  assert.equal(seen[every500.indexOf(7_000)], 'expired');
});

test('session expiry: last_seen_at is written at most once per touch interval, and never so rarely that use idles out', () => {
  const rules: SessionRules = { idleMs: 12 * 3_600_000, maxMs: 7 * 86_400_000 };
  assert.equal(touchIntervalMs(rules.idleMs), 60_000);
  assert.equal(touchIntervalMs(2_000), 200);
  const expiresAt = new Date(rules.maxMs);
  const lastSeenAt = new Date(0);
  const judge = (t: number) => judgeSession({ expiresAt, lastSeenAt }, new Date(t), rules);
  assert.deepEqual(judge(59_999), { live: true, touch: false });
  assert.deepEqual(judge(60_001), { live: true, touch: true });
  // a request every touch interval and a bit keeps a short-idle session alive indefinitely (until its max)
  const short: SessionRules = { idleMs: 1_000, maxMs: 60_000 };
  const times = Array.from({ length: 200 }, (_, i) => (i + 1) * 150);
  assert.ok(replay(times, short).every((v) => v === 'live'));
});

test('session expiry: the logs tokens of idled-out sessions are revoked within half the idle time, every 1 to 30 s', () => {
  assert.equal(endedSessionsIntervalMs(12 * 3_600_000), 30_000);
  assert.equal(endedSessionsIntervalMs(20_000), 10_000);
  assert.equal(endedSessionsIntervalMs(1_000), 1_000);
  assert.equal(endedSessionsIntervalMs(60_000), 30_000);
});
