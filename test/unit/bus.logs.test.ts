import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NatsConnection } from 'nats';
import { logFramesOf, publishLog, publishLogs, subjects } from '../../libs/bus/src/index.ts';

const turn = () => new Promise((resolve) => setImmediate(resolve));
const names = subjects('logtest');

/** A connection that records what is published, as text. */
function recorder() {
  const published: { subject: string; text: string }[] = [];
  const nc = { publish: (subject: string, data: Uint8Array) => published.push({ subject, text: Buffer.from(data).toString('utf8') }) };
  return { nc: nc as unknown as NatsConnection, published };
}

test('live log: the events of one turn go as one bus message per environment, in order, after the turn', async () => {
  const { nc, published } = recorder();
  publishLog(nc, names, 'env_a', 'info', 'socket.opened', { n: 1 });
  publishLog(nc, names, 'env_b', 'warn', 'socket.refused', { n: 2 });
  publishLogs(nc, names, 'env_a', [
    { level: 'info', event: 'message.published', data: { n: 3 } },
    { level: 'info', event: 'message.published', data: { n: 4 } },
  ]);
  publishLog(nc, names, 'env_a', 'info', 'socket.closed', { n: 5 });
  assert.equal(published.length, 0, 'nothing is published inside the turn');
  await turn();
  assert.deepEqual(
    published.map((m) => m.subject),
    [names.logs('env_a'), names.logs('env_b')],
  );
  const frames = (subject: string) =>
    logFramesOf(published.find((m) => m.subject === subject)!.text).map((text) => JSON.parse(text) as { event: string; data: { n: number } });
  assert.deepEqual(
    frames(names.logs('env_a')).map((f) => f.data.n),
    [1, 3, 4, 5],
  );
  assert.deepEqual(
    frames(names.logs('env_b')).map((f) => [f.event, f.data.n]),
    [['socket.refused', 2]],
  );
  assert.ok(!published.find((m) => m.subject === names.logs('env_b'))!.text.startsWith('['), 'a lone event goes as its frame');
});

test('live log: a large turn is cut into messages of at most 256 frames, none lost', async () => {
  const { nc, published } = recorder();
  for (let n = 0; n < 600; n++) publishLog(nc, names, 'env_a', 'info', 'socket.opened', { n });
  await turn();
  assert.deepEqual(
    published.map((m) => logFramesOf(m.text).length),
    [256, 256, 88],
  );
  const all = published.flatMap((m) => logFramesOf(m.text).map((text) => (JSON.parse(text) as { data: { n: number } }).data.n));
  assert.deepEqual(all, [...Array(600).keys()]);
  // the next turn starts afresh
  publishLog(nc, names, 'env_a', 'info', 'socket.opened', { n: 600 });
  await turn();
  assert.equal(published.length, 4);
});
