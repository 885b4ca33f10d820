/**
 * A reaction group (apps/channel-node reaction-gate.ts) is the heaviest command a channel-node
 * commits: it reads, writes and summarises a message's reactions. It commits apart from the
 * publishes so that they never wait for it:
 * - the partition actor commits the commands it took with a group first, in a batch of their own
 *   (their quick path), then the group (partition-actor.ts);
 * - the node committer never puts a group in a transaction with other partitions' batches, and a
 *   lane opens at once beside a lane that commits a group (node-committer.ts, fair-group.ts).
 * Fakes for the bus, the committer and the pool (no NATS, no Postgres).
 */
import { NO_USAGE } from '@rtm/usage';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Counter, Histogram } from 'prom-client';
import type { Pool } from '@rtm/db';
import type { Logger } from '@rtm/ops';
import { subjects, type NatsConnection } from '@rtm/bus';
import { encodeCommand, frameRequest, type ChannelCommand, type CommandReply } from '@rtm/schemas';
import { PartitionActor } from '../../apps/channel-node/src/partition-actor.ts';
import { NodeCommitter } from '../../apps/channel-node/src/node-committer.ts';
import { apartFromSlow } from '../../apps/channel-node/src/fair-group.ts';
import { channelKey, type BatchOutcome, type ChannelState, type NodeCommand, type ReactionGroup } from '../../apps/channel-node/src/batch-plan.ts';
import { serverPublish } from '../helpers/commands.ts';
import { readBinaryTextArray } from '../helpers/binary-array.ts';

const log = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} } as unknown as Logger;
const until = async (condition: () => boolean, what: string, ms = 2_000) => {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
};
const nameOf = (c: NodeCommand) => (c.op === 'publish' ? `p${(JSON.parse(c.content) as { n: number }).n}` : c.op);
const reaction = (channelId: string, userId: string): Extract<ChannelCommand, { op: 'react' }> => ({
  op: 'react',
  environmentId: 'env_a',
  channelId,
  messageId: 'msg_1',
  type: 'fire',
  userId,
});

/** Every reply a command can get here: a publish's result, or a group's one result per reaction. */
function outcomeOf(commands: readonly NodeCommand[]): BatchOutcome {
  const published: CommandReply = { ok: true, result: { id: 'msg_2', seq: 2, timestamp: 1 } } as CommandReply;
  return {
    replies: commands.map((c) => (c.op === 'reactions' ? { ok: true as const, result: { items: c.items.map(() => published) } } : published)),
    frames: [],
    notifications: [],
    logs: [],
    states: new Map(),
  };
}

test('reactions apart - the actor commits the publishes it took with a reaction group first, then the group', async () => {
  const batches: { names: string[]; finish: () => void }[] = [];
  const committer = {
    commit: (commands: readonly NodeCommand[]) =>
      new Promise<BatchOutcome>((resolve) => batches.push({ names: commands.map(nameOf), finish: () => resolve(outcomeOf(commands)) })),
  } as unknown as NodeCommitter;
  const nc = { subscribe: () => ({ drain: async () => {}, unsubscribe: () => {} }), publish: () => {}, flush: async () => {} } as unknown as NatsConnection;
  const metric = { observe: () => {}, inc: () => {} };
  const actor = new PartitionActor(0, {
    committer,
    nc,
    subjects: subjects('apart'),
    log,
    maxBatch: 500,
    metrics: { batchSize: metric as unknown as Histogram, commitSeconds: metric as unknown as Histogram, messages: metric as unknown as Counter<'outcome'> },
    usage: NO_USAGE,
  });
  await actor.start();
  const answered: string[] = [];
  const send = (command: ChannelCommand, name: string) => actor.handle(frameRequest([encodeCommand(command)]), undefined, () => void answered.push(name));

  send(serverPublish('env_a', 'room', 1), 'p1');
  await until(() => batches.length === 1, 'the first batch');
  // while it commits: a reaction (let into the mailbox as a group at once: the message was quiet), then a publish
  send(reaction('room', 'u1'), 'r1');
  await Promise.resolve();
  send(serverPublish('env_a', 'room', 2), 'p2');
  batches[0]!.finish();
  await until(() => batches.length === 2, 'the second batch');
  assert.deepEqual(batches[1]!.names, ['p2'], 'the publish taken with the group commits first, alone');
  batches[1]!.finish();
  await until(() => batches.length === 3, 'the group');
  assert.deepEqual(batches[2]!.names, ['reactions']);
  assert.deepEqual(answered, ['p1', 'p2'], 'the publish is answered before the group commits');
  batches[2]!.finish();
  await until(() => answered.length === 3, "the reaction's answer");
  await actor.drain();
});

/**
 * A pool whose transactions wait at `begin` and whose lone write statements wait, each until the
 * test finishes it; a reaction group's other statements (its message read) answer at once with
 * nothing (the group's reactions are then answered not_found: enough here).
 */
function gatedPool() {
  const held: { what: string; finish: () => void }[] = [];
  const hold = (what: string) => new Promise((resolve) => held.push({ what, finish: () => resolve({ rows: [] }) }));
  const answer = { rows: [{ fenced: true, webhooks_known: true, hooked: [], jobs: 0, pushed: [] }] };
  const pool = {
    connect: async () => {
      let transaction = false;
      return {
        release: () => {},
        query: async (statement: string | { name?: string; text: string; values: unknown[][] }) => {
          const text = typeof statement === 'string' ? statement : statement.text;
          if (text === 'begin') {
            transaction = true;
            return hold('transaction');
          }
          if (text === 'commit' || text === 'rollback' || text.startsWith('select seq, id')) return { rows: [] };
          assert.equal(typeof statement === 'object' && statement.name, 'rtm_write_batch', `unexpected statement: ${text.slice(0, 60)}`);
          if (transaction) return answer;
          const ns = readBinaryTextArray((statement as { values: unknown[][] }).values[8] as unknown as Buffer).values.map(
            (c) => (JSON.parse(c!) as { n: number }).n,
          );
          await hold(`publishes ${ns.join(',')}`);
          return answer;
        },
      };
    },
  };
  return { pool: pool as unknown as Pool, held };
}

const cacheOf = (channel: string, pk: number) => new Map<string, ChannelState>([[channelKey('env_a', channel), { pk, lastSeq: 1 }]]);
const group = (channel: string): ReactionGroup => ({
  op: 'reactions',
  environmentId: 'env_a',
  channelId: channel,
  messageId: 'msg_1',
  items: [reaction(channel, 'u1')],
});

test("reactions apart - the committer never shares a group's transaction, and opens a lane beside it at once", async () => {
  const db = gatedPool();
  // a second lane would otherwise open only after 5 s
  const committer = new NodeCommitter(db.pool, { lanes: 2, maxCommands: 100, log, laneOpensAfterMs: 5_000 });
  const first = committer.commit([serverPublish('env_a', 'a', 1)], cacheOf('a', 1));
  await until(() => db.held.length === 1, 'the first write');
  // both wait while the first lane is busy; it then takes them in arrival order
  const reactions = committer.commit([group('b')], cacheOf('b', 2));
  const second = committer.commit([serverPublish('env_a', 'c', 3)], cacheOf('c', 3));
  db.held[0]!.finish();
  await first;
  await until(() => db.held.length === 3, "the group's transaction and the publish's write");
  assert.deepEqual(
    db.held
      .slice(1)
      .map((h) => h.what)
      .sort(),
    ['publishes 3', 'transaction'],
    'apart, each in its own lane',
  );
  db.held.find((h) => h.what === 'publishes 3')!.finish();
  assert.ok((await second).replies[0]!.ok, "the publish is answered while the group's transaction waits");
  // a publish that arrives while the group commits gets a lane at once
  const third = committer.commit([serverPublish('env_a', 'd', 4)], cacheOf('d', 4));
  await until(() => db.held.some((h) => h.what === 'publishes 4'), "a lane beside the group's");
  db.held.find((h) => h.what === 'publishes 4')!.finish();
  assert.ok((await third).replies[0]!.ok);
  db.held.find((h) => h.what === 'transaction')!.finish();
  const outcome = await reactions;
  assert.equal(outcome.replies.length, 1);
});

test('reactions apart - apartFromSlow: a slow batch first goes alone; otherwise the slow ones wait', () => {
  const slow = new Set([1, 3]);
  const isSlow = (i: number) => slow.has(i);
  assert.deepEqual(apartFromSlow([0, 1, 2, 3], isSlow), [0, 2]);
  assert.deepEqual(apartFromSlow([1, 0, 2], isSlow), [1]);
  assert.deepEqual(apartFromSlow([3], isSlow), [3]);
  assert.deepEqual(apartFromSlow([0, 2], isSlow), [0, 2]);
  assert.deepEqual(apartFromSlow([], isSlow), []);
});
