import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KeyUsage } from '@rtm/auth';

test('key usage - each key is written at most once per interval, the first use at once', async () => {
  let clock = 0;
  const writes: string[] = [];
  const usage = new KeyUsage(async (keyId) => void writes.push(keyId), { intervalMs: 60_000, clock: () => clock });
  assert.equal(usage.record('key_a'), true);
  assert.equal(usage.record('key_a'), false);
  assert.equal(usage.record('key_b'), true, 'keys are independent');
  clock = 59_999;
  assert.equal(usage.record('key_a'), false);
  clock = 60_000;
  assert.equal(usage.record('key_a'), true);
  assert.deepEqual(writes, ['key_a', 'key_b', 'key_a']);
});

test('key usage - a failed write never reaches the caller', async () => {
  const usage = new KeyUsage(async () => {
    throw new Error('database down');
  });
  assert.equal(usage.record('key_a'), true);
  await new Promise((resolve) => setImmediate(resolve));
});
