import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { CircuitBreaker } from '../../apps/dispatcher/src/delivery/circuit-breaker.ts';

const options = { threshold: 3, coolDownMs: 1_000 };

test('circuit breaker - opens after K consecutive failures and refuses until the cool-down ends', () => {
  const breaker = new CircuitBreaker(options);
  for (let i = 0; i < 2; i++) {
    assert.deepEqual(breaker.admit('e', 0), { ok: true, probe: false });
    assert.equal(breaker.record('e', false, 0), 'closed');
  }
  assert.equal(breaker.record('e', false, 100), 'open');
  assert.deepEqual(breaker.admit('e', 500), { ok: false, retryAt: 1_100 });
  assert.equal(breaker.state('e', 500), 'open');
  assert.equal(breaker.state('other', 500), 'closed', 'circuits are per endpoint');
});

test('circuit breaker - a success in between resets the count', () => {
  const breaker = new CircuitBreaker(options);
  breaker.record('e', false, 0);
  breaker.record('e', false, 0);
  breaker.record('e', true, 0);
  breaker.record('e', false, 0);
  breaker.record('e', false, 0);
  assert.equal(breaker.state('e', 0), 'closed');
});

test('circuit breaker - after the cool-down one probe goes; its success closes, its failure reopens', () => {
  const breaker = new CircuitBreaker(options);
  for (let i = 0; i < 3; i++) breaker.record('e', false, 0);
  assert.equal(breaker.state('e', 1_000), 'half-open');
  assert.deepEqual(breaker.admit('e', 1_000), { ok: true, probe: true });
  assert.equal(breaker.admit('e', 1_001).ok, false, 'one probe at a time');
  assert.equal(breaker.record('e', false, 1_200), 'open', 'a failed probe reopens at once');
  assert.deepEqual(breaker.admit('e', 1_300), { ok: false, retryAt: 2_200 });
  assert.deepEqual(breaker.admit('e', 2_200), { ok: true, probe: true });
  assert.equal(breaker.record('e', true, 2_300), 'closed');
  assert.deepEqual(breaker.admit('e', 2_301), { ok: true, probe: false });
});

test('circuit breaker - an abandoned probe lets the next delivery probe; a lost probe is replaced after the cool-down', () => {
  const breaker = new CircuitBreaker(options);
  for (let i = 0; i < 3; i++) breaker.record('e', false, 0);
  assert.equal(breaker.admit('e', 1_000).ok, true);
  breaker.abandon('e', 1_010);
  assert.deepEqual(breaker.admit('e', 1_010), { ok: true, probe: true });
  // that probe never reports back
  assert.equal(breaker.admit('e', 1_500).ok, false);
  assert.deepEqual(breaker.admit('e', 2_010), { ok: true, probe: true });
});

test('circuit breaker - property: never admits while open, and admits at most one probe per cool-down', () => {
  fc.assert(
    fc.property(fc.array(fc.record({ dt: fc.integer({ min: 0, max: 700 }), op: fc.constantFrom('admit', 'ok', 'fail') }), { maxLength: 200 }), (ops) => {
      const breaker = new CircuitBreaker(options);
      let now = 0;
      let probes: number[] = [];
      for (const { dt, op } of ops) {
        now += dt;
        if (op === 'admit') {
          const before = breaker.state('e', now);
          const admission = breaker.admit('e', now);
          if (before === 'open') assert.equal(admission.ok, false);
          if (admission.ok && admission.probe) probes.push(now);
        } else breaker.record('e', op === 'ok', now);
        probes = probes.filter((at) => now - at < options.coolDownMs);
        assert.ok(probes.length <= 1, 'one probe per cool-down');
      }
    }),
    { numRuns: 300 },
  );
});

test("circuit breaker - refusedUntil: the end of an open circuit's cool-down, null once it admits a probe", () => {
  const breaker = new CircuitBreaker(options);
  assert.equal(breaker.refusedUntil('e', 0), null, 'no circuit: nothing refused');
  for (let i = 0; i < 3; i++) breaker.record('e', false, 100);
  assert.equal(breaker.refusedUntil('e', 500), 1_100);
  assert.equal(breaker.refusedUntil('e', 1_100), null, 'cooled down: the next delivery is the probe');
  assert.deepEqual(breaker.admit('e', 1_100), { ok: true, probe: true });
  assert.equal(breaker.refusedUntil('e', 1_200), 2_100, 'while the probe is out, the others are refused');
  breaker.record('e', true, 1_300);
  assert.equal(breaker.refusedUntil('e', 1_300), null);
});
