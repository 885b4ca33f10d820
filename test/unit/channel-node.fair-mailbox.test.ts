import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FairMailbox } from '../../apps/channel-node/src/fair-mailbox.ts';

test('fair mailbox - per-environment order is kept and every waiting environment gets its share of each batch', () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom('flood', 'b', 'c', 'd'), { maxLength: 400 }),
      fc.integer({ min: 1, max: 50 }),
      (keys, max) => {
        const mailbox = new FairMailbox<{ key: string; n: number }>({ perKey: 1_000, total: 10_000 });
        keys.forEach((key, n) => assert.ok(mailbox.push(key, { key, n })));
        const taken: { key: string; n: number }[] = [];
        while (mailbox.size > 0) {
          const waiting = new Map<string, number>();
          for (const item of keys.map((key, n) => ({ key, n })).filter((i) => !taken.some((t) => t.n === i.n))) {
            waiting.set(item.key, (waiting.get(item.key) ?? 0) + 1);
          }
          const batch = mailbox.take(max);
          assert.ok(batch.length === Math.min(max, [...waiting.values()].reduce((a, b) => a + b, 0)));
          // fairness: each waiting key gets at least its even share (or all it has)
          const share = Math.floor(max / waiting.size);
          for (const [key, count] of waiting) {
            const got = batch.filter((i) => i.key === key).length;
            assert.ok(got >= Math.min(count, share), `${key}: ${got} of ${count} waiting, share ${share}`);
          }
          taken.push(...batch);
        }
        // nothing lost, nothing twice, FIFO within each key
        assert.equal(taken.length, keys.length);
        for (const key of new Set(keys)) {
          const ns = taken.filter((i) => i.key === key).map((i) => i.n);
          assert.deepEqual(ns, [...ns].sort((x, y) => x - y));
        }
      },
    ),
    { numRuns: 300 },
  );
});

test('fair mailbox - a full environment is refused while the others are still accepted; the total is bounded', () => {
  const mailbox = new FairMailbox<number>({ perKey: 3, total: 5 });
  for (let i = 0; i < 3; i++) assert.ok(mailbox.push('flood', i));
  assert.equal(mailbox.push('flood', 99), false, 'the flooding environment is refused first');
  assert.ok(mailbox.push('quiet', 1));
  assert.ok(mailbox.push('other', 1));
  assert.equal(mailbox.push('third', 1), false, 'the total bound holds');
  assert.deepEqual(mailbox.take(2).length, 2);
  assert.equal(mailbox.drain().length, 3);
  assert.equal(mailbox.size, 0);
});
