/**
 * Commands their owner answers late on purpose (libs/owner-client owner-batcher.ts, `deferred`: a
 * reaction waits at its owner for its message's next summary, up to 250 ms) never share a bus
 * message with those it answers at their commit: a reply leaves only once every command it carries
 * is answered, and a publish that travelled with a reaction was answered only with it. A fake bus
 * (no NATS) that answers each request when the test says so.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Counter } from 'prom-client';
import { PART_STATUS, decodeBundle, encodeBundleReply, encodeJson, isBundle, subjects, type Msg, type Requester } from '@rtm/bus';
import { encodeCommand, unframeRequest, type ChannelCommand, type CommandReply } from '@rtm/schemas';
import { OwnerBatcher, type ReplyWaiter } from '../../libs/owner-client/src/owner-batcher.ts';
import { serverPublish } from '../helpers/commands.ts';
import { announcingBus } from './announcing-bus.ts';

const names = subjects('deferred');
const turn = () => new Promise((resolve) => setImmediate(resolve));
const requests = { inc: () => {} } as unknown as Counter<'route'>;

interface Sent {
  subject: string;
  /** Per part (a bundle's, or the one request's): its partition and its commands' names. */
  parts: { partition: number; names: string[] }[];
  answer: () => void;
}

const nameOf = (header: Uint8Array, content: Uint8Array): string => {
  const command = JSON.parse(Buffer.from(header).toString('utf8')) as { op: string; userId?: string };
  return command.op === 'react' ? `react:${command.userId}` : `publish:${(JSON.parse(Buffer.from(content).toString('utf8')) as { n: number }).n}`;
};

/** A requester that keeps each request; `answer()` replies to every command it carries with ok. */
function fakeBus() {
  const sent: Sent[] = [];
  const { nc, announce } = announcingBus();
  const ok = (): CommandReply => ({ ok: true, result: { id: 'msg_1', seq: 1, timestamp: 1 } }) as CommandReply;
  const requester = {
    send: (subject: string, payload: Uint8Array, _options: unknown, done: (error: unknown, msg?: Msg) => void) => {
      const bundled = isBundle(payload);
      const parts = (bundled ? decodeBundle(payload) : [{ partition: Number(subject.split('.').at(-1)), data: payload }]).map((part) => {
        const unframed = unframeRequest(part.data, 256);
        assert.ok(unframed.ok);
        return { partition: part.partition, names: unframed.commands.map((c) => nameOf(c.header, c.content)) };
      });
      const replyOf = (count: number) => encodeJson(count === 1 ? ok() : Array.from({ length: count }, ok));
      const data = bundled
        ? encodeBundleReply(parts.map((part) => ({ status: PART_STATUS.ANSWERED, data: replyOf(part.names.length) })))
        : replyOf(parts[0]!.names.length);
      sent.push({ subject, parts, answer: () => done(null, { data } as Msg) });
      return {};
    },
  } as unknown as Requester;
  return { nc, requester, sent, announce };
}

const react = (channelId: string, userId: string): ChannelCommand => ({
  op: 'react',
  environmentId: 'env_a',
  channelId,
  messageId: 'msg_1',
  type: 'fire',
  userId,
});

/** Submits `command` for `partition` and returns whether its reply has come. */
function submit(batcher: OwnerBatcher, partition: number, command: ChannelCommand): { settled: () => boolean } {
  let settled = false;
  const waiter: ReplyWaiter = { settle: () => void (settled = true), fail: (error) => assert.fail(String(error)) };
  batcher.submit(partition, encodeCommand(command), Date.now() + 60_000, waiter, command.op === 'react');
  return { settled: () => settled };
}

test("deferred commands - a turn's reactions travel in a bundle of their own; the publishes' bundle is answered without them", async () => {
  const bus = fakeBus();
  const batcher = new OwnerBatcher({ nc: bus.nc, requester: bus.requester, subjects: names, requests });
  batcher.start();
  bus.announce('n1', [0, 1]);
  const first = submit(batcher, 0, serverPublish('env_a', 'a', 1));
  const reaction = submit(batcher, 0, react('a', 'u1'));
  const second = submit(batcher, 1, serverPublish('env_a', 'b', 2));
  const other = submit(batcher, 1, react('b', 'u2'));
  await turn();
  assert.equal(bus.sent.length, 2, 'two bundles to the node');
  assert.ok(bus.sent.every((s) => s.subject === names.node('n1')));
  const carries = (s: Sent) => s.parts.flatMap((part) => part.names);
  const publishes = bus.sent.find((s) => carries(s).includes('publish:1'))!;
  const reactions = bus.sent.find((s) => carries(s).includes('react:u1'))!;
  assert.deepEqual(carries(publishes), ['publish:1', 'publish:2'], 'no reaction with the publishes');
  assert.deepEqual(carries(reactions), ['react:u1', 'react:u2']);
  publishes.answer();
  assert.ok(first.settled() && second.settled(), 'the publishes are answered while the reactions wait');
  assert.ok(!reaction.settled() && !other.settled());
  reactions.answer();
  assert.ok(reaction.settled() && other.settled());
  batcher.stop();
});

test("deferred commands - without a known node, a partition's publish and reaction go in two requests on its subject", async () => {
  const bus = fakeBus();
  const batcher = new OwnerBatcher({ nc: bus.nc, requester: bus.requester, subjects: names, requests });
  batcher.start();
  const published = submit(batcher, 3, serverPublish('env_a', 'a', 1));
  submit(batcher, 3, react('a', 'u1'));
  await turn();
  assert.deepEqual(
    bus.sent.map((s) => [s.subject, s.parts.flatMap((part) => part.names)]),
    [
      [names.partition(3), ['publish:1']],
      [names.partition(3), ['react:u1']],
    ],
  );
  bus.sent[0]!.answer();
  assert.ok(published.settled());
  batcher.stop();
});

test('deferred commands - never held back by the linger: reactions leave in their turn while publishes wait to fill', async () => {
  const bus = fakeBus();
  const lingered = { inc: () => {} } as unknown as Counter<'end'>;
  const batcher = new OwnerBatcher({ nc: bus.nc, requester: bus.requester, subjects: names, requests, linger: { fill: 8, maxMs: 2_000 }, lingered });
  batcher.start();
  bus.announce('n1', [0, 1]);
  for (let n = 1; n <= 4; n++) submit(batcher, n % 2, serverPublish('env_a', `c${n % 2}`, n));
  submit(batcher, 0, react('c0', 'u1'));
  await turn();
  assert.deepEqual(
    bus.sent.map((s) => s.parts.flatMap((part) => part.names)),
    [['react:u1']],
    'only the reaction left; the publishes are held for the next turns',
  );
  batcher.stop(); // sends what is held
  assert.deepEqual(
    bus.sent
      .at(-1)!
      .parts.flatMap((part) => part.names)
      .sort(),
    ['publish:1', 'publish:2', 'publish:3', 'publish:4'],
  );
});
