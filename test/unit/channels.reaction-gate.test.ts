import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { ReactionGate } from '../../apps/channel-node/src/reaction-gate.ts';

interface Held {
  command: { environmentId: string; channelId: string; messageId: string; n: number };
}

const reaction = (messageId: string, n: number): Held => ({ command: { environmentId: 'env', channelId: 'room', messageId, n } });
const flushMicrotasks = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A gate over a fake clock: every release recorded, each group committed when the test says. */
function harness(t: TestContext) {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  let now = 1_000;
  const released: { key: string; ns: number[]; at: number }[] = [];
  const gate = new ReactionGate<Held>(
    (key, group) => released.push({ key, ns: group.map((h) => h.command.n), at: now }),
    250,
    () => now,
  );
  return {
    gate,
    released,
    advance(ms: number) {
      now += ms;
      t.mock.timers.tick(ms);
    },
  };
}

test('reaction gate - the first reaction goes at once with those of the same turn; later ones wait for the interval', async (t) => {
  const { gate, released, advance } = harness(t);
  gate.offer(reaction('m1', 1));
  gate.offer(reaction('m1', 2));
  assert.equal(released.length, 0, 'not before the current turn ends');
  await flushMicrotasks();
  assert.deepEqual(
    released.map((r) => r.ns),
    [[1, 2]],
  );
  const key = released[0]!.key;

  // while the group commits, and for 250 ms after, the message's reactions wait together
  gate.offer(reaction('m1', 3));
  advance(100);
  gate.committed(key);
  gate.offer(reaction('m1', 4));
  advance(249);
  await flushMicrotasks();
  assert.equal(released.length, 1, 'still within the interval after the commit');
  advance(1);
  await flushMicrotasks();
  assert.deepEqual(
    released.map((r) => r.ns),
    [
      [1, 2],
      [3, 4],
    ],
  );
  assert.equal(gate.size, 0);
});

test('reaction gate - messages have their own intervals; a quiet message goes at once again', async (t) => {
  const { gate, released, advance } = harness(t);
  gate.offer(reaction('m1', 1));
  gate.offer(reaction('m2', 2));
  await flushMicrotasks();
  assert.deepEqual(
    released.map((r) => r.ns),
    [[1], [2]],
    'one group per message',
  );
  for (const r of released) gate.committed(r.key);
  advance(300);
  gate.offer(reaction('m1', 3));
  await flushMicrotasks();
  assert.deepEqual(released.at(-1)!.ns, [3], 'after a quiet interval: at once');
});

test('reaction gate - at most one group per message per interval under a steady storm', async (t) => {
  const { gate, released, advance } = harness(t);
  let n = 0;
  // 1,000 reactions a second for two seconds; each group commits 5 ms after its release
  for (let ms = 0; ms < 2_000; ms++) {
    gate.offer(reaction('m1', n++));
    await flushMicrotasks();
    const last = released.at(-1);
    if (last && !('done' in last) && last.at + 5 <= 1_000 + ms) {
      gate.committed(last.key);
      Object.assign(last, { done: true });
    }
    advance(1);
  }
  const gaps = released.slice(1).map((r, i) => r.at - released[i]!.at);
  assert.ok(
    gaps.every((gap) => gap >= 250),
    `groups ${gaps.join(',')} ms apart`,
  );
  assert.ok(released.length <= 9 && released.length >= 6, `${released.length} groups in 2 s`);
  assert.equal(released.flatMap((r) => r.ns).length + gate.size, n, 'every reaction is in a group or still held');
});

test('reaction gate - flush lets every held group go; abandon hands back what is held', async (t) => {
  const { gate, released } = harness(t);
  gate.offer(reaction('m1', 1));
  await flushMicrotasks();
  gate.offer(reaction('m1', 2));
  gate.offer(reaction('m2', 3));
  gate.flush();
  assert.deepEqual(released.map((r) => r.ns).sort(), [[1], [2], [3]]);
  gate.offer(reaction('m3', 4));
  assert.deepEqual(
    gate.abandon().map((h) => h.command.n),
    [4],
  );
  assert.equal(gate.size, 0);
});
