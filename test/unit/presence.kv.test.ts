import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KV } from 'nats';
import { Slots, listKeys, withDeadline } from '@rtm/presence';

test('withDeadline: the promise when it settles in time, a rejection naming the step (and onTimeout) when not', async () => {
  assert.equal(await withDeadline(Promise.resolve(7), 50, 'quick'), 7);
  await assert.rejects(withDeadline(Promise.reject(new Error('boom')), 50, 'failing'), /boom/);
  let timedOut = false;
  const never = new Promise<never>(() => {});
  // the deadline's timer is unref'd (it must not keep a process open), and nothing else may be
  // pending in this process: without a timer of its own the test runner would find the event loop
  // empty and cancel the test
  const keepAlive = setTimeout(() => {}, 1_000);
  await assert.rejects(
    withDeadline(never, 20, 'presence write', () => (timedOut = true)),
    /presence write took over 20 ms/,
  );
  clearTimeout(keepAlive);
  assert.equal(timedOut, true);
});

test('Slots: at most `limit` tasks run at once, the others start in turn as places free', async () => {
  const slots = new Slots(2);
  let running = 0;
  let most = 0;
  const order: number[] = [];
  const task = (n: number) => async () => {
    running++;
    most = Math.max(most, running);
    await new Promise((resolve) => setTimeout(resolve, 5));
    order.push(n);
    running--;
    if (n === 1) throw new Error('one fails');
    return n;
  };
  const results = await Promise.allSettled([1, 2, 3, 4, 5].map((n) => slots.run(task(n))));
  assert.equal(most, 2);
  assert.deepEqual(order.sort(), [1, 2, 3, 4, 5], 'a failing task frees its place too');
  assert.deepEqual(
    results.map((r) => r.status),
    ['rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled'],
  );
  assert.equal(await slots.run(async () => 'after'), 'after', 'every place was given back');
});

test('listKeys: every key of the listing under the filter', async () => {
  let filtered = '';
  const kv = {
    keys: async (filter: string) => {
      filtered = filter;
      return Object.assign(
        (async function* () {
          yield* ['env.chan.gw-a.1', 'env.chan.gw-b.7'];
        })(),
        { stop() {} },
      );
    },
  } as unknown as KV;
  assert.deepEqual(await listKeys(kv, 'env.chan.*.*'), ['env.chan.gw-a.1', 'env.chan.gw-b.7']);
  assert.equal(filtered, 'env.chan.*.*');
});
