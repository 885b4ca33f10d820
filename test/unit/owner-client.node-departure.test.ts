/**
 * A channel-node that dies with commands in flight (libs/owner-client node-departures.ts,
 * awaiting-owner.ts, ask-owner.ts; libs/bus owner-directory.ts): the directory tells which node
 * a partition moved from, the batcher asks that node whether it is there and, when its subject
 * has no responders, hands its commands back in the order they left; a repeatable command goes
 * again at once, any other is answered 503; commands refused for want of an owner go again as
 * soon as a node announces their partition. A fake bus (no NATS).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ErrorCode, NatsError } from 'nats';
import type { Counter } from 'prom-client';
import { decodeBundle, isBundle, ownerAnnouncement, OwnerDirectory, subjects, type Requester } from '@rtm/bus';
import { encodeCommand, unframeRequest, type CommandReply } from '@rtm/schemas';
import { OwnerBatcher, OwnerLostError, type ReplyWaiter } from '../../libs/owner-client/src/owner-batcher.ts';
import { AwaitingOwner } from '../../libs/owner-client/src/awaiting-owner.ts';
import { startAsk } from '../../libs/owner-client/src/ask-owner.ts';
import { serverPublish } from '../helpers/commands.ts';
import { announcingBus } from './announcing-bus.ts';

const names = subjects('departure');
const turn = () => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const noResponders = () => NatsError.errorForCode(ErrorCode.NoResponders);
const REPLY = (n: number): CommandReply => ({ ok: true, result: { id: `msg_${n}`, seq: n, timestamp: n } }) as CommandReply;

test("owner directory: a claim of a partition another node still held names that node; a node's own change or a partition given back first does not", () => {
  const directory = new OwnerDirectory();
  assert.deepEqual(directory.apply(ownerAnnouncement('a', [0, 1, 2]), 0), []);
  assert.deepEqual(directory.apply(ownerAnnouncement('b', [3]), 0), []);
  assert.deepEqual(directory.apply(ownerAnnouncement('b', [1, 3]), 1), ['a']);
  assert.deepEqual(directory.apply(ownerAnnouncement('b', [1, 3]), 2), [], 'the same claim again');
  // a gives 2 back and says so, then c takes it: nothing moved from a
  assert.deepEqual(directory.apply(ownerAnnouncement('a', [0]), 3), []);
  assert.deepEqual(directory.apply(ownerAnnouncement('c', [2]), 3), []);
  // a claim of partitions of two nodes names both
  assert.deepEqual(directory.apply(ownerAnnouncement('d', [0, 2]), 4).sort(), ['a', 'c']);
  assert.deepEqual(directory.apply({ node: 'e' }, 5), [], 'not an announcement');
});

test('awaiting owner: the waiters of an announced partition are told once, in the order parked; past their deadline, not at all', () => {
  const awaiting = new AwaitingOwner();
  const told: string[] = [];
  const waiter = (name: string) => ({ ownerAnnounced: () => void told.push(name) });
  const [w1, w2, w3, w4] = ['w1', 'w2', 'w3', 'w4'].map(waiter);
  awaiting.park(5, w1!, 1_000, 0);
  awaiting.park(6, w2!, 1_000, 0);
  awaiting.park(5, w3!, 1_000, 0);
  awaiting.park(5, w1!, 1_000, 10); // refused again: keeps its place
  awaiting.park(5, w4!, 50, 10);
  awaiting.park(5, {}, 1_000, 10); // a waiter that cannot be told is not kept
  assert.equal(awaiting.size, 4);
  awaiting.announced([5, 7], 100);
  assert.deepEqual(told, ['w1', 'w3'], 'partition 5 only, in order, w4 past its deadline');
  awaiting.announced([5], 100);
  assert.deepEqual(told, ['w1', 'w3'], 'told once');
  assert.equal(awaiting.size, 1);
  // with no announcement ever, waiters past their deadline do not pile up
  for (let i = 0; i < 10_000; i++) awaiting.park(i % 32, waiter(`x${i}`), i + 10, i);
  assert.ok(awaiting.size < 200, `${awaiting.size} waiters kept`);
});

/** The round trip of one command over a submit the test drives: each send's waiter is kept. */
function drivenAsk(repeatable: boolean, deadlineMs = 3_000) {
  const sends: { at: number; waiter: ReplyWaiter }[] = [];
  const started = Date.now();
  const outcome = new Promise<CommandReply>((resolve, reject) =>
    startAsk(
      (_command, _deadline, waiter) => void sends.push({ at: Date.now() - started, waiter }),
      new Uint8Array([1]),
      started + deadlineMs,
      {
        repeatable,
        resendAfterMs: [1_000, 2_000],
      },
      { answered: resolve, failed: reject },
    ),
  );
  outcome.catch(() => {});
  return { sends, outcome };
}

test('askOwner: a repeatable command whose owner left is sent again at once, not at its repeat', async () => {
  const ask = drivenAsk(true);
  await sleep(10);
  ask.sends[0]!.waiter.fail(new OwnerLostError('gone'));
  assert.equal(ask.sends.length, 2, 'sent again at once');
  ask.sends[1]!.waiter.settle(REPLY(1));
  assert.deepEqual(await ask.outcome, REPLY(1));
});

test('askOwner: a command that is not repeatable whose owner left is answered 503 at once, outcome unknown', async () => {
  const ask = drivenAsk(false);
  ask.sends[0]!.waiter.fail(new OwnerLostError('gone'));
  await assert.rejects(ask.outcome, (error: any) => {
    assert.equal(error.code, 'unavailable');
    assert.match(error.reason, /stopped with the command in flight; the outcome is unknown/);
    return true;
  });
  assert.equal(ask.sends.length, 1, 'never sent twice');
});

test('askOwner: a refused command goes again when its partition is announced, once, not also at the end of its back-off', async () => {
  for (const repeatable of [false, true]) {
    const ask = drivenAsk(repeatable);
    ask.sends[0]!.waiter.fail(noResponders());
    assert.equal(ask.sends.length, 1, 'backing off');
    ask.sends[0]!.waiter.ownerAnnounced!();
    assert.equal(ask.sends.length, 2, 'sent at once');
    ask.sends[0]!.waiter.ownerAnnounced!();
    assert.equal(ask.sends.length, 2, 'a second announcement with a send in flight does nothing');
    await sleep(80);
    assert.equal(ask.sends.length, 2, "the back-off's own send (after 20 ms) was called off");
    ask.sends[1]!.waiter.settle(REPLY(1));
    assert.deepEqual(await ask.outcome, REPLY(1));
  }
});

/** A bus whose every request waits until the test answers it. */
function fakeBus() {
  const sent: { subject: string; payload: Uint8Array; token: string; done: (error: unknown, msg?: { data: Uint8Array }) => void }[] = [];
  const abandoned: string[] = [];
  const { nc, announce } = announcingBus();
  const requester = {
    send: (subject: string, payload: Uint8Array, _options: unknown, done: (error: unknown, msg?: { data: Uint8Array }) => void) => {
      const token = `t${sent.length}`;
      sent.push({ subject, payload, token, done });
      return token;
    },
    abandon: (token: string) => void abandoned.push(token),
  } as unknown as Requester;
  /** The `n` of each command a request carried, in order. */
  const commandsOf = (payload: Uint8Array) =>
    (isBundle(payload) ? decodeBundle(payload).map((part) => part.data) : [payload]).flatMap((data) => {
      const unframed = unframeRequest(data, 256);
      assert.ok(unframed.ok);
      return unframed.commands.map((c) => (JSON.parse(Buffer.from(c.content).toString('utf8')) as { n: number }).n);
    });
  return { nc, requester, sent, abandoned, announce, commandsOf };
}

const requests = { inc: () => {} } as unknown as Counter<'route'>;

/** Waiters that record what they are told; `resubmit` ones send again when their owner is lost (as a repeatable ask does). */
function recorder(batcher: () => OwnerBatcher, resubmit: boolean) {
  const told: string[] = [];
  const submit = (partition: number, n: number) => {
    const command = encodeCommand(serverPublish('env_a', `c${partition}`, n));
    const waiter: ReplyWaiter = {
      settle: () => void told.push(`${n}:settled`),
      fail: (error) => {
        told.push(`${n}:${(error as Error).name === 'OwnerLostError' ? 'lost' : (error as NatsError).code}`);
        if (resubmit && error instanceof OwnerLostError) batcher().submit(partition, command, Date.now() + 60_000, waiter);
      },
      ownerAnnounced: () => void told.push(`${n}:announced`),
    };
    batcher().submit(partition, command, Date.now() + 60_000, waiter);
  };
  return { told, submit };
}

test('owner batcher: when another node claims a partition of a node with bundles in flight, the node is asked; no responders hands their commands back, in order', async () => {
  const bus = fakeBus();
  const batcher = new OwnerBatcher({ nc: bus.nc, requester: bus.requester, subjects: names, requests });
  const { told, submit } = recorder(() => batcher, false);
  batcher.start();
  bus.announce('n1', [0, 1, 5]);
  bus.announce('n2', [2]);
  submit(0, 1);
  submit(1, 2);
  await turn();
  assert.deepEqual(
    bus.sent.map((s) => s.subject),
    [names.node('n1')],
  );
  bus.announce('n2', [0, 2]);
  const probe = bus.sent[1]!;
  assert.deepEqual([probe.subject, probe.payload.length], [names.node('n1'), 0], "an empty message to n1's subject");
  bus.announce('n3', [1]);
  assert.equal(bus.sent.length, 2, 'one probe at a time');
  probe.done(noResponders());
  assert.deepEqual(told, ['1:lost', '2:lost'], 'the commands in flight, in the order they left');
  assert.deepEqual(bus.abandoned, [bus.sent[0]!.token], 'the bundle is no longer waited for');
  // n1 is forgotten: partition 5 (claimed by nobody else) goes by its own subject
  submit(5, 3);
  await turn();
  assert.equal(bus.sent[2]!.subject, names.partition(5));
  batcher.stop();
});

test('owner batcher: a node that answers the probe is still there, and its commands wait for its answer', async () => {
  const bus = fakeBus();
  const batcher = new OwnerBatcher({ nc: bus.nc, requester: bus.requester, subjects: names, requests });
  const { told, submit } = recorder(() => batcher, false);
  batcher.start();
  bus.announce('n1', [0, 1]);
  bus.announce('n4', [7]);
  submit(0, 1);
  await turn();
  bus.announce('n2', [0]);
  bus.sent[1]!.done(undefined, { data: new Uint8Array(0) });
  assert.deepEqual(told, []);
  assert.deepEqual(bus.abandoned, []);
  // and a node with nothing in flight is not asked
  bus.announce('n3', [7]);
  assert.equal(bus.sent.length, 2);
  batcher.stop();
});

test("owner batcher: a node found gone by a later bundle: the commands it held go again first, in order, before the turn's own", async () => {
  const bus = fakeBus();
  const batcher = new OwnerBatcher({ nc: bus.nc, requester: bus.requester, subjects: names, requests });
  const { told, submit } = recorder(() => batcher, true);
  batcher.start();
  bus.announce('n1', [0]);
  submit(0, 1);
  submit(0, 2);
  await turn();
  submit(0, 3);
  await turn();
  assert.deepEqual(
    bus.sent.map((s) => bus.commandsOf(s.payload)),
    [[1, 2], [3]],
  );
  // partition 0 moves to n2; then, in one turn, a new command and the news that n1 is gone
  bus.announce('n2', [0]);
  submit(0, 4);
  bus.sent[1]!.done(noResponders()); // the answer to the bundle of command 3: nobody there
  assert.deepEqual(told.slice(0, 2), ['1:lost', '2:lost']);
  await turn();
  const last = bus.sent.at(-1)!;
  assert.equal(last.subject, names.node('n2'));
  assert.deepEqual(bus.commandsOf(last.payload), [1, 2, 4], 'the lost commands first, in the order they left');
  assert.ok(told.includes('3:503'), 'command 3 was not delivered');
  batcher.stop();
});

test('owner batcher: commands refused for want of an owner are told when a node announces their partition', async () => {
  const bus = fakeBus();
  const batcher = new OwnerBatcher({ nc: bus.nc, requester: bus.requester, subjects: names, requests });
  const { told, submit } = recorder(() => batcher, false);
  batcher.start();
  submit(4, 1);
  submit(5, 2);
  await turn();
  for (const request of bus.sent) request.done(noResponders());
  assert.deepEqual(told, ['1:503', '2:503']);
  bus.announce('n1', [4]);
  assert.deepEqual(told, ['1:503', '2:503', '1:announced']);
  batcher.stop();
});
