import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { commitIsolating } from '../../apps/channel-node/src/commit-isolating.ts';
import { commandProblem } from '../../apps/channel-node/src/command-rules.ts';
import type { BatchOutcome } from '../../apps/channel-node/src/commit-batch.ts';

interface Cmd {
  id: number;
  channel: string;
  bad: boolean;
}

class StatementError extends Error {}
class DatabaseDown extends Error {}

/** A fake database: a transaction fails when it holds a bad command; seqs are per channel and only advance on commit. */
function fakeDatabase() {
  const lastSeq = new Map<string, number>();
  const committed: { id: number; channel: string; seq: number }[] = [];
  let transactions = 0;
  const attempt = async (commands: readonly Cmd[]): Promise<BatchOutcome> => {
    transactions++;
    if (commands.some((c) => c.bad)) throw new StatementError('injected');
    const outcome: BatchOutcome = { replies: [], frames: [], notifications: [], logs: [], states: new Map() };
    for (const [index, c] of commands.entries()) {
      const seq = (lastSeq.get(c.channel) ?? 0) + 1;
      lastSeq.set(c.channel, seq);
      committed.push({ id: c.id, channel: c.channel, seq });
      outcome.replies.push({ ok: true, result: { id: String(c.id), seq, timestamp: 0 } });
      outcome.frames.push({ index, environmentId: 'e', channelId: c.channel, frame: { id: c.id } });
    }
    return outcome;
  };
  return { attempt, committed, transactions: () => transactions };
}

const isolation = (db: ReturnType<typeof fakeDatabase>) => ({
  attempt: db.attempt,
  isSystemic: (error: unknown) => error instanceof DatabaseDown,
  failed: () => ({ ok: false as const, code: 'internal', reason: 'failed alone' }),
});

test('isolation - every good command commits once, in order, with contiguous seqs per channel; bad ones fail alone', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.record({ channel: fc.constantFrom('a', 'b', 'c'), bad: fc.constant(false) }), { minLength: 1, maxLength: 60 }),
      fc.array(fc.nat(), { maxLength: 4 }),
      async (shape, badPicks) => {
        const commands: Cmd[] = shape.map((s, id) => ({ id, channel: s.channel, bad: false }));
        for (const pick of badPicks) commands[pick % commands.length]!.bad = true;
        const db = fakeDatabase();
        const outcome = await commitIsolating(commands, isolation(db));
        const bad = commands.filter((c) => c.bad);
        // replies line up with commands
        assert.equal(outcome.replies.length, commands.length);
        for (const [i, c] of commands.entries()) assert.equal(outcome.replies[i]!.ok, !c.bad, `command ${i}`);
        // frames point at the right commands
        for (const f of outcome.frames) assert.equal((f.frame as { id: number }).id, commands[f.index]!.id);
        // each good command committed exactly once, in the original order, seqs contiguous per channel
        assert.deepEqual(db.committed.map((c) => c.id), commands.filter((c) => !c.bad).map((c) => c.id));
        for (const channel of ['a', 'b', 'c']) {
          const seqs = db.committed.filter((c) => c.channel === channel).map((c) => c.seq);
          assert.deepEqual(seqs, seqs.map((_, i) => i + 1));
        }
        // bisection: one transaction when nothing is bad, O(k log n) otherwise, never one per command
        const n = commands.length;
        const k = bad.length;
        if (k === 0) assert.equal(db.transactions(), 1);
        else assert.ok(db.transactions() <= 1 + 2 * k * Math.ceil(Math.log2(n) + 1), `${db.transactions()} transactions for k=${k}, n=${n}`);
      },
    ),
    { numRuns: 300 },
  );
});

test('isolation - a systemic error (database down) is thrown as it is, never bisected', async () => {
  let transactions = 0;
  await assert.rejects(
    commitIsolating([1, 2, 3, 4], {
      attempt: async () => {
        transactions++;
        throw new DatabaseDown('no database');
      },
      isSystemic: (error) => error instanceof DatabaseDown,
      failed: () => ({ ok: false, code: 'internal' }),
    }),
    DatabaseDown,
  );
  assert.equal(transactions, 1);
});

test('command rules - what an owner refuses before it reaches a transaction', () => {
  const env = 'env_0123456789abcdefghjkmnpqrs';
  const publish = { op: 'publish', environmentId: env, channelId: 'room', type: 'message', kind: 'user', content: { a: 1 }, sender: { id: 'alice', anon: false }, ephemeral: false };
  const retract = { op: 'retract', environmentId: env, channelId: 'room', messageId: 'msg_0123456789abcdefghjkmnpqrs' };
  assert.equal(commandProblem(publish), null);
  assert.equal(commandProblem(retract), null);
  assert.equal(commandProblem({ ...publish, content: { nul: '\u0000' } }), null, 'JSON content keeps NUL losslessly');
  const refused: [object, RegExp][] = [
    [{ ...retract, messageId: 'a\u0000b' }, /messageId/],
    [{ ...retract, reason: 'x\u0000' }, /reason/],
    [{ ...publish, channelId: 'a\u0000b' }, /channelId/],
    [{ ...publish, channelId: 'x'.repeat(129) }, /channelId/],
    [{ ...publish, environmentId: "'; drop table x" }, /environmentId/],
    [{ ...publish, type: '\ud800' }, /type/],
    [{ ...publish, type: 'a\u0001' }, /type/],
    [{ ...publish, idempotencyKey: 'k\u0000' }, /idempotencyKey/],
    [{ ...publish, content: [1] }, /content/],
    [{ ...publish, content: { t: 'x'.repeat(70_000) } }, /content/],
    [{ ...publish, sender: { id: 'a b', anon: false } }, /sender/],
    [{ ...publish, to: [] }, /to/],
    [{ ...publish, mentions: ['ok', 'n\u0000'] }, /mentions/],
    [{ ...publish, kind: 'root' }, /kind/],
    [{ ...publish, op: 'drop' }, /op/],
    [null as unknown as object, /command/],
  ];
  for (const [command, why] of refused) assert.match(commandProblem(command) ?? 'accepted', why, JSON.stringify(command).slice(0, 80));
});
