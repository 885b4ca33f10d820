/**
 * The node committer's linger (apps/channel-node/src/node-committer.ts, libs/ops linger.ts):
 * under load, a lane whose transaction ended with few commands waiting waits for more, and the
 * ones that come in the meantime share the next transaction; at rest, or with enough waiting, it
 * goes at once. A fake pool whose statements answer when the test says so (no Postgres).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Counter } from 'prom-client';
import type { Pool } from '@rtm/db';
import type { Logger } from '@rtm/ops';
import { NodeCommitter } from '../../apps/channel-node/src/node-committer.ts';
import { channelKey, type ChannelState } from '../../apps/channel-node/src/batch-plan.ts';
import { serverPublish } from '../helpers/commands.ts';

const log = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} } as unknown as Logger;

/** Every write statement sent, with the number of commands it carries, answered by `finish()`. */
function gatedPool() {
  const writes: { commands: number; finish: () => void }[] = [];
  const pool = {
    connect: async () => ({
      release: () => {},
      query: (statement: { name?: string; values: unknown[][] }) => {
        const commands = (statement.values[3] as unknown[]).length;
        return new Promise((resolve) => {
          writes.push({ commands, finish: () => resolve({ rows: [{ fenced: true, webhooks_known: true, hooked: [], jobs: 0, pushed: [] }] }) });
        });
      },
    }),
  };
  return { pool: pool as unknown as Pool, writes };
}

/** The committer's `lingered` counter: how each wait ended. */
function endings() {
  const ended: string[] = [];
  return { counter: { inc: (labels: { end: string }) => void ended.push(labels.end) } as unknown as Counter<'end'>, ended };
}

const cacheOf = (channel: string, pk: number) => new Map<string, ChannelState>([[channelKey('env_a', channel), { pk, lastSeq: 0 }]]);
const publishes = (channel: string, from: number, count: number) => Array.from({ length: count }, (_, i) => serverPublish('env_a', channel, from + i));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const turn = () => new Promise((resolve) => setImmediate(resolve));
const until = async (condition: () => boolean, ms = 5_000) => {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(1);
  }
};

test('committer linger - under load, what arrives just after a commit shares the next transaction', async () => {
  const db = gatedPool();
  const { counter, ended } = endings();
  // a bound far above any scheduling delay, so that two arrivals count as load here, and the
  // expected time to fill (two more at the rate of two per ~20 ms, or slower) is tens of
  // milliseconds: the commands below arrive well within it
  const committer = new NodeCommitter(db.pool, { lanes: 1, maxCommands: 1_000, log, linger: { fill: 4, maxMs: 2_000 }, lingered: counter });
  const first = committer.commit(publishes('a', 1, 2), cacheOf('a', 1));
  await until(() => db.writes.length === 1);
  const b = committer.commit(publishes('b', 1, 1), cacheOf('b', 2));
  db.writes[0]!.finish();
  await first;
  // the next partitions' batches come in the next turns of the event loop, one by one, as
  // replies reach their clients (without the wait, b's transaction would already be out)
  await turn();
  const c = committer.commit(publishes('c', 1, 1), cacheOf('c', 3));
  await turn();
  const d = committer.commit(publishes('d', 1, 2), cacheOf('d', 4));
  await until(() => db.writes.length === 2);
  assert.equal(db.writes[1]!.commands, 4, 'b, c and d in one transaction, not b alone');
  assert.deepEqual(ended, ['filled']);
  db.writes[1]!.finish();
  for (const outcome of await Promise.all([b, c, d])) assert.ok(outcome.replies.every((reply) => reply.ok));
});

test('committer linger - at rest, or with enough waiting, the next transaction goes at once', async () => {
  const db = gatedPool();
  const { counter, ended } = endings();
  const committer = new NodeCommitter(db.pool, { lanes: 1, maxCommands: 1_000, log, linger: { fill: 4, maxMs: 1 }, lingered: counter });
  // at rest: two lone publishes, far less than one more expected within 1 ms
  const first = committer.commit(publishes('a', 1, 1), cacheOf('a', 1));
  await until(() => db.writes.length === 1);
  const second = committer.commit(publishes('b', 1, 1), cacheOf('b', 2));
  db.writes[0]!.finish();
  await until(() => db.writes.length === 2);
  db.writes[1]!.finish();
  await Promise.all([first, second]);
  assert.deepEqual(ended, [], 'no wait at rest');

  // under load but with `fill` commands already waiting when the transaction ends
  const busy = new NodeCommitter(db.pool, { lanes: 1, maxCommands: 1_000, log, linger: { fill: 4, maxMs: 2_000 }, lingered: counter });
  const big = busy.commit(publishes('c', 1, 60), cacheOf('c', 3));
  await until(() => db.writes.length === 3);
  const full = busy.commit(publishes('d', 1, 4), cacheOf('d', 4));
  db.writes[2]!.finish();
  await big;
  await until(() => db.writes.length === 4);
  assert.equal(db.writes[3]!.commands, 4);
  db.writes[3]!.finish();
  await full;
  assert.deepEqual(ended, [], 'a full group does not wait');
});

test('committer linger - a wait ends at its bound when nothing more comes', async () => {
  const db = gatedPool();
  const { counter, ended } = endings();
  // load: 600 arrivals at once keep one more expected within the 20 ms bound for ~120 ms
  const committer = new NodeCommitter(db.pool, { lanes: 1, maxCommands: 1_000, log, linger: { fill: 50, maxMs: 20 }, lingered: counter });
  const first = committer.commit(publishes('a', 1, 600), cacheOf('a', 1));
  await until(() => db.writes.length === 1);
  const lone = committer.commit(publishes('b', 1, 1), cacheOf('b', 2));
  db.writes[0]!.finish();
  await until(() => db.writes.length === 2);
  assert.equal(db.writes[1]!.commands, 1);
  assert.deepEqual(ended, ['timed_out']);
  db.writes[1]!.finish();
  await Promise.all([first, lone]);
});
