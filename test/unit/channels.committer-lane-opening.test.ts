/**
 * When the node committer (apps/channel-node/src/node-committer.ts) opens a lane beyond the
 * first: only once every transaction running has taken `laneOpensAfterMs`. What arrives while a
 * quick transaction commits goes into the next one together; a transaction that stalls does not
 * hold the other partitions' batches for longer than that. A fake pool whose statements answer
 * when the test says so (no Postgres).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pool } from '@rtm/db';
import type { Logger } from '@rtm/ops';
import { NodeCommitter } from '../../apps/channel-node/src/node-committer.ts';
import { channelKey, type ChannelState } from '../../apps/channel-node/src/batch-plan.ts';
import { serverPublish } from '../helpers/commands.ts';
import { readBinaryTextArray } from '../helpers/binary-array.ts';

const log = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} } as unknown as Logger;

/** Every write statement sent, with the `n`s it carries, answered by `finish()`. */
function gatedPool() {
  const writes: { ns: number[]; finish: () => void; at: number }[] = [];
  let open = 0;
  const pool = {
    connect: async () => ({
      release: () => {},
      query: (statement: { name?: string; values: unknown[][] }) => {
        assert.equal(statement.name, 'rtm_write_batch');
        const ns = readBinaryTextArray(statement.values[8] as unknown as Buffer).values.map((c) => (JSON.parse(c!) as { n: number }).n);
        open++;
        return new Promise((resolve) => {
          let done = false;
          const finish = () => {
            if (done) return;
            done = true;
            open--;
            resolve({ rows: [{ fenced: true, webhooks_known: true, hooked: [], jobs: 0, pushed: [] }] });
          };
          writes.push({ ns, finish, at: performance.now() });
        });
      },
    }),
  };
  return { pool: pool as unknown as Pool, writes, open: () => open };
}

/** A partition actor's view of its channel: cached, so its batch is the one write statement. */
const cacheOf = (channel: string, pk: number) => new Map<string, ChannelState>([[channelKey('env_a', channel), { pk, lastSeq: 0 }]]);
const until = async (condition: () => boolean, ms = 2_000) => {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
};

test('committer lanes - what arrives during a quick transaction goes in the next one, together', async () => {
  const db = gatedPool();
  const committer = new NodeCommitter(db.pool, { lanes: 2, maxCommands: 100, log, laneOpensAfterMs: 5_000 });
  const first = committer.commit([serverPublish('env_a', 'a', 1)], cacheOf('a', 1));
  await until(() => db.writes.length === 1);
  const second = committer.commit([serverPublish('env_a', 'b', 2)], cacheOf('b', 2));
  const third = committer.commit([serverPublish('env_a', 'c', 3)], cacheOf('c', 3));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(db.writes.length, 1, 'no second lane while the first transaction is young');
  db.writes[0]!.finish();
  await first;
  await until(() => db.writes.length === 2);
  assert.deepEqual(db.writes[1]!.ns, [2, 3], 'both arrivals in one transaction');
  db.writes[1]!.finish();
  const replies = [...(await second).replies, ...(await third).replies];
  assert.ok(replies.every((reply) => reply.ok));
});

test('committer lanes - a stalled transaction lets a second lane open after laneOpensAfterMs', async () => {
  const db = gatedPool();
  const committer = new NodeCommitter(db.pool, { lanes: 2, maxCommands: 100, log, laneOpensAfterMs: 40 });
  // counted from before the stalled batch was handed over: the committer starts its count later
  // than that, never sooner, so a busy machine can only make this longer (measured from when this
  // test saw the first statement, a late look made it short)
  const handedOver = performance.now();
  const stalled = committer.commit([serverPublish('env_a', 'a', 1)], cacheOf('a', 1));
  await until(() => db.writes.length === 1);
  const other = committer.commit([serverPublish('env_a', 'b', 2)], cacheOf('b', 2));
  await until(() => db.writes.length === 2);
  const waited = db.writes[1]!.at - handedOver;
  assert.ok(waited >= 39, `the second lane opened ${waited.toFixed(1)} ms after the stalled batch was handed over`);
  assert.deepEqual(db.writes[1]!.ns, [2]);
  db.writes[1]!.finish();
  assert.ok((await other).replies[0]!.ok, 'answered while the first is still stalled');
  // at most `lanes`: while the first is stalled, more batches share the other lane
  const third = committer.commit([serverPublish('env_a', 'c', 3)], cacheOf('c', 3));
  const fourth = committer.commit([serverPublish('env_a', 'd', 4)], cacheOf('d', 4));
  const sent = () => db.writes.flatMap((w) => w.ns);
  await until(() => sent().includes(3));
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.equal(db.open(), 2, 'never more than two transactions at once');
  for (const write of db.writes.slice(2)) write.finish();
  await until(() => sent().includes(4));
  for (const write of db.writes.slice(2)) write.finish();
  db.writes[0]!.finish();
  await stalled;
  for (const outcome of [await third, await fourth]) assert.ok(outcome.replies[0]!.ok);
});
