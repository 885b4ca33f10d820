import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { channelKey, planBatch, type ChannelState } from '../../apps/channel-node/src/batch-plan.ts';
import { isolateFailures, isSplittable, replyForFailure } from '../../apps/channel-node/src/isolate-failures.ts';
import { serverPublish, type PublishCommand } from '../helpers/commands.ts';

type Publish = PublishCommand;
const publish = serverPublish;

/** A statement error as pg raises it: the data's fault (foreign key), so bisecting can isolate it. */
const dataFault = () => Object.assign(new Error('insert or update on table "channels" violates foreign key constraint'), { code: '23503' });

/**
 * A writer over an in-memory "database" that commits a part atomically, planning it with the
 * real planBatch on top of the committed channel states, and fails any part holding a poisoned
 * command (as a Postgres statement fails the whole transaction).
 */
function fakeWriter(commands: Publish[], poisoned: Set<number>) {
  const channels = new Map<string, ChannelState>();
  const rows: { key: string; seq: number; n: number }[] = [];
  const keys = new Map<string, { id: string; seq: number; timestamp: number }>();
  const replies = new Map<number, number>();
  let attempts = 0;
  let ids = 0;
  const attempt = async (from: number, to: number) => {
    attempts++;
    for (let i = from; i < to; i++) if (poisoned.has(i)) throw dataFault();
    const part = commands.slice(from, to);
    const states = new Map(channels);
    for (const c of part) {
      const key = channelKey(c.environmentId, c.channelId);
      if (!states.has(key)) states.set(key, { pk: states.size + 1000, lastSeq: 0 });
    }
    const plan = planBatch(part, states, keys, 1, (prefix) => `${prefix}_${++ids}`);
    for (const [key, s] of plan.outcome.states) channels.set(key, s);
    for (const m of plan.messages) rows.push({ key: String(m.channel_pk), seq: m.seq, n: (JSON.parse(m.content) as { n: number }).n });
    for (const k of plan.keys) keys.set(`${k.channel_pk}\u0000${k.key}`, { id: k.message_id, seq: k.seq, timestamp: k.ts });
    plan.outcome.replies.forEach((reply, i) => {
      if (reply.ok) replies.set(from + i, (reply.result as { seq: number }).seq);
    });
  };
  return { attempt, rows, replies, attempts: () => attempts };
}

const batchArb = fc
  .array(fc.record({ env: fc.constantFrom('env_a', 'env_b', 'env_c'), channel: fc.constantFrom('x', 'y', 'z') }), { minLength: 1, maxLength: 80 })
  .chain((cells) =>
    fc.record({
      commands: fc.constant(cells.map((c, n) => publish(c.env, c.channel, n))),
      poisoned: fc.uniqueArray(fc.nat({ max: cells.length - 1 }), { maxLength: Math.min(6, cells.length) }),
    }),
  );

test('channels isolation - for any failing commands, every other command commits exactly once with contiguous seqs', async () => {
  await fc.assert(
    fc.asyncProperty(batchArb, async ({ commands, poisoned }) => {
      const bad = new Set(poisoned);
      const writer = fakeWriter(commands, bad);
      const failures = await isolateFailures(commands.length, writer.attempt, isSplittable);

      failures.forEach((error, i) => assert.equal(error !== undefined, bad.has(i), `command ${i}`));
      // exactly once: each good command's content appears once among the rows, bad ones never
      const written = writer.rows.map((r) => r.n).sort((a, b) => a - b);
      assert.deepEqual(
        written,
        commands.map((_, i) => i).filter((i) => !bad.has(i)),
      );
      // per channel: seqs 1..m with no gap or repeat, in command order
      const byChannel = new Map<string, { seq: number; n: number }[]>();
      for (const r of writer.rows) byChannel.set(r.key, [...(byChannel.get(r.key) ?? []), r]);
      for (const list of byChannel.values()) {
        assert.deepEqual(
          list.map((r) => r.seq),
          list.map((_, i) => i + 1),
        );
        assert.deepEqual(
          list.map((r) => r.n),
          [...list.map((r) => r.n)].sort((a, b) => a - b),
        );
      }
      // the reply a good command gets is the seq it was written with
      for (const r of writer.rows) assert.equal(writer.replies.get(r.n), r.seq);
      // k bad among n: at most 1 + 2·k·⌈log2 n⌉ transactions
      const bound = bad.size === 0 ? 1 : 1 + 2 * bad.size * Math.ceil(Math.log2(commands.length) || 1);
      assert.ok(writer.attempts() <= bound, `${writer.attempts()} attempts for ${bad.size} bad of ${commands.length}`);
    }),
    { numRuns: 300 },
  );
});

test('channels isolation - a repeated idempotency key split across retried parts still gets the first result', async () => {
  const commands = [publish('env_a', 'x', 0, 'k'), publish('env_a', 'x', 1), publish('env_a', 'x', 2, 'k'), publish('env_a', 'x', 3)];
  const writer = fakeWriter(commands, new Set([1]));
  const failures = await isolateFailures(commands.length, writer.attempt, isSplittable);
  assert.deepEqual(
    failures.map((e) => e !== undefined),
    [false, true, false, false],
  );
  assert.deepEqual(
    writer.rows.map((r) => [r.n, r.seq]),
    [
      [0, 1],
      [3, 2],
    ],
  );
  assert.equal(writer.replies.get(2), 1); // the repeat answers with the first command's seq
});

test("channels isolation - an error that is no command's fault is not bisected: the rest fails, what committed stays", async () => {
  const broken = Object.assign(new Error('Connection terminated unexpectedly'), { code: 'ECONNRESET' });
  let attempts = 0;
  const committed: number[] = [];
  const failures = await isolateFailures(
    8,
    async (from, to) => {
      attempts++;
      if (to - from === 8) throw dataFault(); // first try: a bad command somewhere
      if (from >= 4) throw broken; // then the database goes away
      for (let i = from; i < to; i++) committed.push(i);
    },
    isSplittable,
  );
  assert.deepEqual(committed, [0, 1, 2, 3]);
  assert.deepEqual(failures.slice(4), [broken, broken, broken, broken]);
  assert.equal(attempts, 3);
});

test("channels isolation - replies: the data's fault is invalid_request, a transient conflict unavailable, the rest internal", () => {
  assert.equal(replyForFailure(dataFault(), false).code, 'invalid_request');
  assert.equal(replyForFailure(Object.assign(new Error('x'), { code: '22021' }), false).code, 'invalid_request');
  assert.equal(replyForFailure(Object.assign(new Error('x'), { code: '40P01' }), false).code, 'unavailable');
  assert.equal(replyForFailure(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), false).code, 'unavailable');
  assert.equal(replyForFailure(new Error('a bug'), false).code, 'internal');
  assert.equal(replyForFailure(new Error('moved'), true).code, 'unavailable');
  assert.equal(isSplittable(Object.assign(new Error('x'), { code: '40001' })), false);
  assert.equal(isSplittable(new Error('a bug')), true);
});
