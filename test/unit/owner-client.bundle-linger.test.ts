/**
 * The owner batcher's linger (libs/owner-client owner-batcher.ts, libs/ops linger.ts): under load
 * a node's bundle waits for the following turns' commands and leaves once `fill` are held; at
 * rest every turn's bundle leaves at once; a partition's commands held for a node keep going to
 * it, in order, whatever the directory says meanwhile. A fake bus (no NATS).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Counter } from 'prom-client';
import { decodeBundle, isBundle, subjects, type Requester } from '@rtm/bus';
import { encodeCommand, unframeRequest } from '@rtm/schemas';
import { OwnerBatcher } from '../../libs/owner-client/src/owner-batcher.ts';
import { serverPublish } from '../helpers/commands.ts';
import { announcingBus } from './announcing-bus.ts';

const names = subjects('linger');
const turn = () => new Promise((resolve) => setImmediate(resolve));

function fakeBus() {
  const sent: { subject: string; commands: { partition: number; n: number }[] }[] = [];
  const { nc, announce } = announcingBus();
  const requester = {
    send: (subject: string, payload: Uint8Array) => {
      // a bundle to a node's subject, or one partition's request to the partition's subject
      const parts = isBundle(payload) ? decodeBundle(payload) : [{ partition: Number(subject.split('.').at(-1)), data: payload }];
      const commands = parts.flatMap((part) => {
        const unframed = unframeRequest(part.data, 256);
        assert.ok(unframed.ok);
        return unframed.commands.map((c) => ({ partition: part.partition, n: (JSON.parse(Buffer.from(c.content).toString('utf8')) as { n: number }).n }));
      });
      sent.push({ subject, commands });
    },
  } as unknown as Requester;
  return { nc, requester, sent, announce };
}

function endings() {
  const ended: string[] = [];
  return { counter: { inc: (labels: { end: string }) => void ended.push(labels.end) } as unknown as Counter<'end'>, ended };
}

const requests = { inc: () => {} } as unknown as Counter<'route'>;
const waiter = { settle: () => {}, fail: () => {} };
const submit = (batcher: OwnerBatcher, partition: number, n: number) =>
  batcher.submit(partition, encodeCommand(serverPublish('env_a', `c${partition}`, n)), Date.now() + 60_000, waiter);

test("bundle linger - under load a node's commands of several turns leave as one bundle once `fill` are held", async () => {
  const bus = fakeBus();
  const { counter, ended } = endings();
  // a bound far above scheduling delays: four commands in a turn count as load here, and filling
  // takes tens of milliseconds at that rate; the next turn comes well within it
  const batcher = new OwnerBatcher({ nc: bus.nc, requester: bus.requester, subjects: names, requests, linger: { fill: 8, maxMs: 2_000 }, lingered: counter });
  batcher.start();
  bus.announce('n1', [0, 1, 2, 3]);
  for (let n = 1; n <= 4; n++) submit(batcher, n % 2, n);
  await turn();
  assert.equal(bus.sent.length, 0, 'held for the next turns');
  for (let n = 5; n <= 8; n++) submit(batcher, n % 2, n);
  await turn();
  assert.equal(bus.sent.length, 1, 'one bundle for both turns');
  assert.equal(bus.sent[0]!.subject, names.node('n1'));
  assert.deepEqual(
    bus.sent[0]!.commands.filter((c) => c.partition === 1).map((c) => c.n),
    [1, 3, 5, 7],
    "a partition's commands in order",
  );
  assert.equal(bus.sent[0]!.commands.length, 8);
  assert.deepEqual(ended, ['filled']);
  batcher.stop();
});

test('bundle linger - at rest every turn leaves at once', async () => {
  const bus = fakeBus();
  const { counter, ended } = endings();
  const batcher = new OwnerBatcher({ nc: bus.nc, requester: bus.requester, subjects: names, requests, linger: { fill: 8, maxMs: 1 }, lingered: counter });
  batcher.start();
  bus.announce('n1', [0, 1]);
  submit(batcher, 0, 1);
  await turn();
  assert.equal(bus.sent.length, 1, 'less than one more command expected within 1 ms: no wait');
  submit(batcher, 1, 2);
  await turn();
  assert.equal(bus.sent.length, 2);
  assert.deepEqual(ended, []);
  batcher.stop();
});

test('bundle linger - a wait ends at its bound when nothing more comes', async () => {
  const bus = fakeBus();
  const { counter, ended } = endings();
  const batcher = new OwnerBatcher({ nc: bus.nc, requester: bus.requester, subjects: names, requests, linger: { fill: 1_000, maxMs: 20 }, lingered: counter });
  batcher.start();
  bus.announce('n1', [0]);
  for (let n = 0; n < 100; n++) submit(batcher, 0, n);
  await turn();
  assert.equal(bus.sent.length, 0, 'a turn of 100 under a fill of 1,000 waits');
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.equal(bus.sent.length, 1);
  assert.equal(bus.sent[0]!.commands.length, 100);
  assert.deepEqual(ended, ['timed_out']);
  batcher.stop();
});

test("bundle linger - a partition's commands held for a node keep going to it, in order, when the directory forgets it", async () => {
  const bus = fakeBus();
  const { counter } = endings();
  const batcher = new OwnerBatcher({
    nc: bus.nc,
    requester: bus.requester,
    subjects: names,
    requests,
    linger: { fill: 1_000, maxMs: 2_000 },
    lingered: counter,
  });
  batcher.start();
  bus.announce('n1', [0, 1]);
  for (let n = 1; n <= 4; n++) submit(batcher, 0, n);
  await turn();
  bus.announce('n1', [1]);
  submit(batcher, 0, 5);
  await turn();
  assert.equal(bus.sent.length, 0, 'nothing went by the partition subject meanwhile');
  batcher.stop(); // sends what is held
  assert.equal(bus.sent.length, 1);
  assert.equal(bus.sent[0]!.subject, names.node('n1'));
  assert.deepEqual(
    bus.sent[0]!.commands.map((c) => c.n),
    [1, 2, 3, 4, 5],
  );
});
