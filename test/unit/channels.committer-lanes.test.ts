/**
 * How the node committer (apps/channel-node/src/node-committer.ts) splits the actors' batches
 * over its commit lanes, driven through NodeCommitter.commit with a fake pool (no Postgres): at
 * most `lanes` transactions at once; every command lands in exactly one committed transaction
 * and gets exactly one reply; an actor's batch is never split across transactions (unless
 * bisected around a failing command); a transaction carries at most `maxCommands` unless it is a
 * single batch; per channel, rows get seqs 1..n in the order the actor submitted the commands;
 * a failing command fails alone and the next batch of its channel still continues the seqs.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Pool } from '@rtm/db';
import type { Logger } from '@rtm/ops';
import type { CommandReply } from '@rtm/schemas';
import { NodeCommitter } from '../../apps/channel-node/src/node-committer.ts';
import type { ChannelState } from '../../apps/channel-node/src/batch-plan.ts';
import { serverPublish, type PublishCommand } from '../helpers/commands.ts';
import { readBinaryTextArray } from '../helpers/binary-array.ts';

/** An in-memory Postgres for exactly the statements writeBatch sends for plain publishes. */
function fakeDatabase(options: { poisoned: Set<number>; delays: number[] }) {
  const pks = new Map<string, number>();
  const lastSeq = new Map<number, number>();
  const rows: { pk: number; seq: number; n: number }[] = [];
  const transactions: number[][] = [];
  let open = 0;
  let maxOpen = 0;
  let turn = 0;
  const pause = async () => {
    const ticks = options.delays.length === 0 ? 0 : options.delays[turn++ % options.delays.length]!;
    for (let i = 0; i < ticks; i++) await new Promise((resolve) => setImmediate(resolve));
  };
  const pkOf = (environmentId: string, channelId: string) => {
    const key = `${environmentId}/${channelId}`;
    if (!pks.has(key)) {
      pks.set(key, pks.size + 1);
      lastSeq.set(pks.size, 0);
    }
    return pks.get(key)!;
  };
  const pool = {
    connect: async () => {
      open++;
      maxOpen = Math.max(maxOpen, open);
      let buffered: { rows: typeof rows; seqs: Map<number, number>; ns: number[] } | undefined;
      let inTransaction = false;
      const apply = (b: NonNullable<typeof buffered>) => {
        rows.push(...b.rows);
        for (const [pk, seq] of b.seqs) lastSeq.set(pk, seq);
        transactions.push(b.ns);
      };
      return {
        release: () => void open--,
        query: async (statement: string | { name?: string; text: string; values: unknown[] }, params?: unknown[]) => {
          await pause();
          const text = typeof statement === 'string' ? statement : statement.text;
          if (text === 'begin') return (void (inTransaction = true), { rows: [] });
          if (text === 'commit') {
            if (buffered) apply(buffered);
            buffered = undefined;
            return { rows: [] };
          }
          if (text === 'rollback') return (void (buffered = undefined), { rows: [] });
          if (text.includes('insert into channels')) {
            const [, , environments, ids] = params as string[][];
            return {
              rows: ids!.map((id, i) => ({
                environment_id: environments![i],
                id,
                pk: pkOf(environments![i]!, id),
                last_seq: lastSeq.get(pkOf(environments![i]!, id)),
              })),
            };
          }
          assert.equal(typeof statement === 'object' && statement.name, 'rtm_write_batch', `unexpected statement: ${text.slice(0, 60)}`);
          const v = (statement as { values: unknown[] }).values as unknown[][];
          const [fencePks, expected, next, channelPks, seqs, , , , packed] = v as [
            number[],
            number[],
            number[],
            number[],
            number[],
            unknown,
            unknown,
            unknown,
            Buffer,
          ];
          const contents = readBinaryTextArray(packed).values as string[];
          for (const [i, pk] of fencePks.entries()) {
            if (lastSeq.get(pk) !== expected[i]) throw Object.assign(new Error('a channel moved under this writer'), { code: 'RTM01' });
          }
          const ns = contents.map((c) => (JSON.parse(c) as { n: number }).n);
          if (ns.some((n) => options.poisoned.has(n))) throw Object.assign(new Error('violates foreign key constraint'), { code: '23503' });
          const write = {
            rows: channelPks.map((pk, i) => ({ pk, seq: seqs[i]!, n: ns[i]! })),
            seqs: new Map(fencePks.map((pk, i) => [pk, next[i]!])),
            ns,
          };
          if (inTransaction) buffered = write;
          else apply(write);
          return { rows: [{ fenced: true, webhooks_known: true, hooked: [], jobs: 0, pushed: [] }] };
        },
      };
    },
  };
  return { pool: pool as unknown as Pool, rows, transactions, maxOpen: () => maxOpen };
}

const log = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} } as unknown as Logger;
/** The `n` of a serverPublish command (its content is `{"n":…}` as text). */
const nOf = (c: PublishCommand): number => (JSON.parse(c.content) as { n: number }).n;

const scenario = fc.record({
  lanes: fc.integer({ min: 1, max: 4 }),
  maxCommands: fc.integer({ min: 1, max: 30 }),
  delays: fc.array(fc.nat({ max: 3 }), { maxLength: 8 }),
  // actors, each with its batches, each batch a list of [environment, channel of that actor]
  actors: fc.array(
    fc.array(fc.array(fc.tuple(fc.constantFrom('env_a', 'env_b'), fc.nat({ max: 2 })), { minLength: 1, maxLength: 10 }), { minLength: 1, maxLength: 4 }),
    { minLength: 1, maxLength: 5 },
  ),
  poison: fc.array(fc.nat({ max: 300 }), { maxLength: 3 }),
});

test('committer lanes - every command in exactly one transaction, batches whole, per-channel seqs in submission order', async () => {
  let overlapped = 0;
  await fc.assert(
    fc.asyncProperty(scenario, async ({ lanes, maxCommands, delays, actors, poison }) => {
      let counter = 0;
      const batches = actors.map((batchesOfActor, a) => batchesOfActor.map((cells) => cells.map(([env, k]) => serverPublish(env, `ch_${a}_${k}`, counter++))));
      const poisoned = new Set(poison.filter((n) => n < counter));
      const db = fakeDatabase({ poisoned, delays });
      const committer = new NodeCommitter(db.pool, { lanes, maxCommands, log });

      const replies = new Map<number, CommandReply>();
      // each actor has at most one batch in flight, and keeps its cache from the outcomes, as partition-actor.ts does
      await Promise.all(
        batches.map(async (ofActor) => {
          const cache = new Map<string, ChannelState>();
          for (const batch of ofActor) {
            const outcome = await committer.commit(batch, cache);
            assert.equal(outcome.replies.length, batch.length);
            batch.forEach((c, i) => {
              assert.ok(outcome.replies[i], `command ${nOf(c)} has a reply`);
              replies.set(nOf(c), outcome.replies[i]! as CommandReply);
            });
            for (const [key, state] of outcome.states) cache.set(key, state);
          }
        }),
      );

      assert.ok(db.maxOpen() <= lanes, `${db.maxOpen()} transactions at once with ${lanes} lanes`);
      if (db.maxOpen() > 1) overlapped++;
      assert.equal(replies.size, counter);
      for (const [n, reply] of replies) assert.equal(reply.ok, !poisoned.has(n), `command ${n}: ${JSON.stringify(reply)}`);

      // exactly once: every good command in one committed transaction, bad ones in none
      const committed = db.transactions.flat().sort((a, b) => a - b);
      assert.deepEqual(
        committed,
        [...Array(counter).keys()].filter((n) => !poisoned.has(n)),
      );

      // per channel: seqs 1..m, in the order the actor submitted its commands, and the reply is that seq
      const all = batches.flat(2) as PublishCommand[];
      const byChannel = new Map<number, { seq: number; n: number }[]>();
      for (const r of db.rows) byChannel.set(r.pk, [...(byChannel.get(r.pk) ?? []), r]);
      for (const list of byChannel.values()) {
        const sorted = [...list].sort((a, b) => a.seq - b.seq);
        assert.deepEqual(
          sorted.map((r) => r.seq),
          sorted.map((_, i) => i + 1),
        );
        assert.deepEqual(
          sorted.map((r) => r.n),
          sorted.map((r) => r.n).sort((a, b) => a - b),
        );
        for (const r of list) {
          const reply = replies.get(r.n)!;
          assert.ok(reply.ok && reply.result.seq === r.seq);
        }
      }
      assert.equal(db.rows.length, all.length - poisoned.size);

      if (poisoned.size === 0) {
        // a batch is never split, and a transaction holds several batches only within maxCommands
        const batchOf = new Map<number, number>();
        batches.flat().forEach((batch, b) => batch.forEach((c) => batchOf.set(nOf(c), b)));
        const seen = new Set<number>();
        for (const tx of db.transactions) {
          const inTx = new Set(tx.map((n) => batchOf.get(n)!));
          for (const b of inTx) {
            assert.ok(!seen.has(b), `batch ${b} split over transactions`);
            seen.add(b);
          }
          assert.ok(inTx.size === 1 || tx.length <= maxCommands, `${tx.length} commands of ${inTx.size} batches, max ${maxCommands}`);
        }
      }
    }),
    { numRuns: 40 },
  );
  assert.ok(overlapped > 0, 'some runs had lanes committing at the same time');
});
