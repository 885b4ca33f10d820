import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FairMailbox } from '../../apps/channel-node/src/fair-mailbox.ts';
import { takeFairGroup } from '../../apps/channel-node/src/fair-group.ts';

test('channels fair mailbox - a quiet environment is taken in the next batch however long the flood', () => {
  const mailbox = new FairMailbox<string>({ perEnvironment: 5000, total: 10_000 });
  for (let i = 0; i < 4000; i++) assert.ok(mailbox.offer('flood', `f${i}`));
  assert.ok(mailbox.offer('quiet', 'q0'));
  const batch = mailbox.take(500);
  assert.equal(batch.length, 500);
  assert.ok(batch.includes('q0'));
  // the flood keeps its own order
  assert.deepEqual(
    batch.filter((x) => x.startsWith('f')),
    Array.from({ length: 499 }, (_, i) => `f${i}`),
  );
});

test('channels fair mailbox - the flooding environment is refused, a quiet one is still admitted', () => {
  const mailbox = new FairMailbox<number>({ perEnvironment: 100, total: 150 });
  let refused = 0;
  for (let i = 0; i < 300; i++) if (!mailbox.offer('flood', i)) refused++;
  assert.equal(refused, 200);
  for (let i = 0; i < 100; i++) mailbox.offer('second-flood', i);
  // past `total` (150), only environments under an equal share (150 / 2) get in
  assert.equal(mailbox.length, 175);
  assert.equal(mailbox.offer('flood', -1), false);
  assert.equal(mailbox.offer('second-flood', -1), false);
  for (let i = 0; i < 10; i++) assert.ok(mailbox.offer('quiet', i));
});

test('channels fair mailbox - every item is taken exactly once, each environment in order, shares within one per round', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd'), fc.boolean()), { maxLength: 400 }), fc.integer({ min: 1, max: 50 }), (ops, max) => {
      const mailbox = new FairMailbox<{ env: string; n: number }>({ perEnvironment: 60, total: 150 });
      const offered: { env: string; n: number }[] = [];
      const taken: { env: string; n: number }[] = [];
      ops.forEach(([env, takeNow], n) => {
        const item = { env, n };
        if (mailbox.offer(env, item)) offered.push(item);
        if (takeNow) {
          const waiting = new Map<string, number>();
          // what each environment has waiting before the take
          for (const item of offered.filter((o) => !taken.includes(o))) waiting.set(item.env, (waiting.get(item.env) ?? 0) + 1);
          const batch = mailbox.take(max);
          assert.equal(
            batch.length,
            Math.min(
              max,
              [...waiting.values()].reduce((a, b) => a + b, 0),
            ),
          );
          // round-robin: an environment left with items waiting got at most one fewer than any other
          const got = new Map<string, number>();
          for (const item of batch) got.set(item.env, (got.get(item.env) ?? 0) + 1);
          for (const [env, had] of waiting) {
            const mine = got.get(env) ?? 0;
            if (mine === had) continue;
            for (const count of got.values()) assert.ok(count <= mine + 1, `${env} got ${mine} of ${had}, another ${count}`);
          }
          taken.push(...batch);
        }
      });
      taken.push(...mailbox.drain());
      assert.equal(mailbox.length, 0);
      assert.deepEqual(
        [...taken].sort((a, b) => a.n - b.n),
        offered,
      );
      for (const env of ['a', 'b', 'c', 'd']) {
        const mine = taken.filter((t) => t.env === env).map((t) => t.n);
        assert.deepEqual(
          mine,
          [...mine].sort((a, b) => a - b),
        );
      }
    }),
    { numRuns: 300 },
  );
});

test('channels fair mailbox - the admission bound holds: at most 2 × total waiting, at most perEnvironment each', () => {
  fc.assert(
    fc.property(fc.array(fc.nat({ max: 30 }), { maxLength: 3000 }), (envs) => {
      const mailbox = new FairMailbox<number>({ perEnvironment: 80, total: 100 });
      const per = new Map<number, number>();
      for (const env of envs) {
        if (mailbox.offer(String(env), env)) per.set(env, (per.get(env) ?? 0) + 1);
        assert.ok(mailbox.length <= 200);
      }
      for (const count of per.values()) assert.ok(count <= 80);
    }),
    { numRuns: 200 },
  );
});

test("channels fair group - a lane takes the batch carrying a quiet environment before the flood's", () => {
  const flood = (n: number) => Array.from({ length: n }, () => ({ environmentId: 'flood' }));
  const pending = [flood(500), flood(500), flood(500), [...flood(300), { environmentId: 'quiet' }], flood(500)];
  const group = takeFairGroup(pending, 1000);
  assert.equal(group[0], 3);
  assert.deepEqual(group, [3, 0]); // then arrival order, up to the size bound
  assert.deepEqual(takeFairGroup([flood(3000)], 1000), [0]); // one batch is always taken, whatever its size
  assert.deepEqual(takeFairGroup([], 1000), []);
});

test('channels fair group - takes distinct batches within the size bound, in rank then arrival order', () => {
  fc.assert(
    fc.property(
      fc.array(fc.array(fc.record({ environmentId: fc.constantFrom('a', 'b', 'c') }), { minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 20 }),
      fc.integer({ min: 1, max: 200 }),
      (pending, max) => {
        const group = takeFairGroup(pending, max);
        assert.ok(group.length >= 1);
        assert.equal(new Set(group).size, group.length);
        const size = group.reduce((sum, i) => sum + pending[i]!.length, 0);
        assert.ok(group.length === 1 || size <= max);
      },
    ),
    { numRuns: 300 },
  );
});
