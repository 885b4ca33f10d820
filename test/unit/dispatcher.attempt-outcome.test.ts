import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ClaimedDelivery } from '../../apps/dispatcher/src/delivery/delivery-leases.ts';
import { attemptLogs, attemptRecord, circuitKey, endpointOf, failedAttemptLine, settleAttempt } from '../../apps/dispatcher/src/attempt-outcome.ts';

const SCHEDULE = [30_000, 300_000];
const at = new Date('2026-01-01T00:00:00Z');

const claimed = (over: Partial<ClaimedDelivery> = {}): ClaimedDelivery => ({
  id: 'dlv_1',
  environment_id: 'env_1',
  endpoint_id: null,
  event_id: 'evt_1',
  event_type: 'message.published',
  url: 'https://hooks.example.com/in?x=1',
  body: '{}',
  attempts: 0,
  lease: '2026-01-01 00:00:15.123456+00',
  secrets: null,
  rate_limit: null,
  target_url: 'https://hooks.example.com/in?x=1',
  ...over,
});

test('a success is delivered, with no next attempt', () => {
  const outcome = settleAttempt(claimed(), at, { ok: true, statusCode: 204, durationMs: 12 }, SCHEDULE);
  assert.deepEqual([outcome.n, outcome.status, outcome.delay], [1, 'delivered', null]);
});

test("a failure waits for the schedule's step of its attempt, and is dropped once the schedule is used up", () => {
  const failed = { ok: false, statusCode: 500, error: 'status 500' as const, durationMs: 40 };
  assert.deepEqual(
    [0, 1, 2].map((attempts) => {
      const o = settleAttempt(claimed({ attempts }), at, failed, SCHEDULE);
      return [o.n, o.status, o.delay];
    }),
    [
      [1, 'pending', 30_000],
      [2, 'pending', 300_000],
      [3, 'dropped', null],
    ],
  );
});

test('410 Gone drops the delivery at any attempt; other 4xx answers are retried', () => {
  const gone = settleAttempt(claimed(), at, { ok: false, statusCode: 410, error: 'status 410', durationMs: 5 }, SCHEDULE);
  assert.deepEqual([gone.status, gone.delay], ['dropped', null]);
  const notFound = settleAttempt(claimed(), at, { ok: false, statusCode: 404, error: 'status 404', durationMs: 5 }, SCHEDULE);
  assert.deepEqual([notFound.status, notFound.delay], ['pending', 30_000]);
});

test("the record carries the attempt, the new state and the claim's lease; absent code and error are null", () => {
  const outcome = settleAttempt(claimed({ attempts: 1 }), at, { ok: false, error: 'timeout', durationMs: 10_000 }, SCHEDULE);
  assert.deepEqual(attemptRecord(outcome), {
    id: 'dlv_1',
    n: 2,
    at,
    statusCode: null,
    error: 'timeout',
    durationMs: 10_000,
    status: 'pending',
    delay: 300_000,
    lease: '2026-01-01 00:00:15.123456+00',
    eventType: 'message.published',
  });
});

test('the live log: every attempt per environment, then delivered or dropped when it ended the delivery; URLs redacted', () => {
  const outcomes = [
    settleAttempt(claimed(), at, { ok: true, statusCode: 200, durationMs: 3 }, SCHEDULE),
    settleAttempt(
      claimed({ id: 'dlv_2', environment_id: 'env_2', attempts: 2 }),
      at,
      { ok: false, statusCode: 503, error: 'status 503', durationMs: 4 },
      SCHEDULE,
    ),
    settleAttempt(claimed({ id: 'dlv_3', attempts: 0 }), at, { ok: false, error: 'timeout', durationMs: 9 }, SCHEDULE),
  ];
  const logs = attemptLogs(outcomes);
  assert.deepEqual([...logs.keys()], ['env_1', 'env_2']);
  assert.deepEqual(
    logs.get('env_1')!.map((e) => [e.level, e.event, e.data.deliveryId]),
    [
      ['info', 'webhook.attempt', 'dlv_1'],
      ['info', 'webhook.delivered', 'dlv_1'],
      ['warn', 'webhook.attempt', 'dlv_3'],
    ],
  );
  const [attempt, dropped] = logs.get('env_2')!;
  assert.deepEqual(attempt!.data, {
    deliveryId: 'dlv_2',
    eventId: 'evt_1',
    eventType: 'message.published',
    url: 'https://hooks.example.com/in?x=***',
    attempt: 3,
    statusCode: 503,
    durationMs: 4,
    error: 'status 503',
  });
  assert.deepEqual([dropped!.level, dropped!.event, dropped!.data.lastError], ['error', 'webhook.dropped', 'status 503']);
  assert.equal('error' in logs.get('env_1')![0]!.data, false, 'a success names no error');
});

test('circuits are per environment and URL; places per environment and origin, never the bare host', () => {
  const row = claimed();
  assert.equal(circuitKey(row), 'env_1 https://hooks.example.com/in?x=1');
  assert.equal(endpointOf(row), 'env_1 https://hooks.example.com');
  assert.notEqual(endpointOf({ ...row, environment_id: 'env_2' }), endpointOf(row));
  assert.equal(endpointOf({ environment_id: 'env_1', url: 'not a url' }), 'env_1 not a url');
});

test('the log line of a failed attempt: ids, attempt, status or class, next attempt or dropped; URL redacted, no body', () => {
  const row = claimed({ endpoint_id: 'whe_1', body: '{"secret-body":1}', url: 'https://u:p@hooks.example.com/in?token=abc' });
  assert.equal(failedAttemptLine(settleAttempt(row, at, { ok: true, statusCode: 200, durationMs: 5 }, SCHEDULE)), null);
  const pending = failedAttemptLine(settleAttempt(row, at, { ok: false, statusCode: 502, error: 'status 5xx' as never, durationMs: 1_000 }, SCHEDULE))!;
  assert.deepEqual(pending, {
    deliveryId: 'dlv_1',
    endpointId: 'whe_1',
    eventType: 'message.published',
    attempt: 1,
    statusCode: 502,
    error: 'status 5xx',
    url: 'https://***@hooks.example.com/in?token=***',
    // the attempt's end plus the schedule's first wait
    nextAttemptAt: '2026-01-01T00:00:31.000Z',
  });
  const dropped = failedAttemptLine(settleAttempt(claimed({ attempts: 2 }), at, { ok: false, error: 'timeout', durationMs: 10 }, SCHEDULE))!;
  assert.deepEqual([dropped.attempt, dropped.statusCode, dropped.error, dropped.dropped, dropped.nextAttemptAt], [3, null, 'timeout', true, undefined]);
  assert.ok(!JSON.stringify(pending).includes('secret-body'));
});
