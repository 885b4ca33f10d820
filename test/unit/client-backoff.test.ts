import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Backoff, backoffCeiling, backoffDelay } from '../../libs/client/src/backoff.ts';
import { fakeClient, lastSocket } from '../helpers/client-fakes.ts';

test('client backoff - every delay lies in [0, min(max, initial * 2^attempt)]', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 80 }),
      fc.integer({ min: 1, max: 10_000 }),
      fc.integer({ min: 1, max: 600_000 }),
      fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
      (attempt, initial, max, r) => {
        const delay = backoffDelay(attempt, initial, max, () => r);
        const ceiling = Math.min(max, initial * 2 ** Math.min(attempt, 30));
        assert.ok(Number.isInteger(delay));
        assert.ok(delay >= 0 && delay <= ceiling, `attempt ${attempt}: ${delay} outside [0, ${ceiling}]`);
      },
    ),
  );
});

test('client backoff - the ceiling doubles per attempt up to the maximum', () => {
  assert.deepEqual(
    [0, 1, 2, 3, 4, 5, 6, 7, 100].map((n) => backoffCeiling(n, 500, 30_000)),
    [500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000],
  );
});

test('client backoff - full jitter: the whole window is used, from 0 to the ceiling', () => {
  // the two ends of the random range reach the two ends of the window
  assert.equal(
    backoffDelay(3, 500, 30_000, () => 0),
    0,
  );
  assert.equal(
    backoffDelay(3, 500, 30_000, () => 0.999_999_9),
    4_000,
  );
  // and a seeded spread of randomness covers it: not clustered near the ceiling (as "equal jitter" would be)
  let seed = 42;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const delays = Array.from({ length: 2_000 }, () => backoffDelay(4, 500, 30_000, random));
  assert.ok(Math.min(...delays) < 800, `smallest ${Math.min(...delays)}`);
  assert.ok(Math.max(...delays) > 7_200, `largest ${Math.max(...delays)}`);
  const below = delays.filter((d) => d < 4_000).length / delays.length;
  assert.ok(below > 0.4 && below < 0.6, `share below half the ceiling: ${below}`);
});

test('client backoff - a Backoff counts attempts and starts over on reset', () => {
  const backoff = new Backoff(100, 1_000, () => 0.999_999);
  assert.deepEqual([backoff.next(), backoff.next(), backoff.next(), backoff.next(), backoff.next()], [100, 200, 400, 800, 1_000]);
  backoff.reset();
  assert.equal(backoff.next(), 100);
});

test('client backoff - reconnect delays announced by the client follow the schedule and reset after a stable connection', async () => {
  const { client, clock } = fakeClient({ random: () => 0.999_999, reconnect: { initialDelayMs: 100, maxDelayMs: 1_000, suspendAfterMs: 600_000 } });
  const delays: number[] = [];
  client.on('state', (state, change) => {
    if (state === 'disconnected') delays.push(change.retryInMs!);
  });
  await clock.advance(0);
  for (let i = 0; i < 6; i++) {
    lastSocket().drop(1006);
    await clock.advance(clock.nextIn() ?? 0);
  }
  assert.deepEqual(delays, [100, 200, 400, 800, 1_000, 1_000]);
  // a connection that stays up resets the count: the next drop waits the first delay again
  lastSocket().accept();
  await clock.advance(10_000);
  lastSocket().drop(1006);
  assert.equal(delays.at(-1), 100);
  client.close();
});
