/**
 * The client SDK's delta messages (libs/client/src/delta.ts, channel.ts), on a fake socket: a
 * `delta: "fossil"` subscribe says so on the wire, listeners get whole messages (content rebuilt
 * from the bytes of the previous one's text as sent), and a delta against any other base is never
 * shown: the channel unsubscribes and subscribes again from its last seq.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createDelta } from 'fossil-delta';
import type { Message, RtmError } from '@rtm/client';
import { fakeClient, lastSocket, messageFrame } from '../helpers/client-fakes.ts';

// spacing the server keeps and JSON.stringify would not: the base must be the text as sent
const contentOf = (n: number) => `{"doc": {"n": ${n}, "rows": [${Array.from({ length: 30 }, (_, i) => `"row ${i} ✓"`).join(', ')}]}}`;

/** A message frame as the server writes it: its content spliced in as text. */
function fullText(seq: number): string {
  const { content: _content, ...rest } = messageFrame('doc', seq);
  return JSON.stringify(rest).replace('"type"', `"content":${contentOf(seq)},"type"`);
}

function deltaText(seq: number, base: number, baseId = `msg_doc_${base}`): string {
  const data = Buffer.from(createDelta(Buffer.from(contentOf(base)), Buffer.from(contentOf(seq)))).toString('base64');
  const { content: _content, ...rest } = messageFrame('doc', seq);
  return JSON.stringify({ ...rest, delta: { format: 'fossil', base: baseId, data } });
}

test('client delta - subscribe asks for it; deltas reach listeners whole; a base mismatch re-subscribes from the last seq', async () => {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  const socket = lastSocket();
  socket.accept();
  const got: Message[] = [];
  const channel = client.channel('doc');
  assert.throws(
    () => channel.subscribe(() => {}, { delta: 'gzip' as 'fossil' }),
    (error: RtmError) => error.code === 'invalid_request',
  );
  channel.subscribe((message) => got.push(message), { delta: 'fossil' });
  const [subscribe] = socket.ops('subscribe');
  assert.equal(subscribe.delta, 'fossil');
  socket.push({ op: 'subscribed', ref: subscribe.ref, channelId: 'doc', lastSeq: 0 });
  const raw = (text: string) => socket.onmessage?.({ data: text });
  raw(fullText(1));
  raw(deltaText(2, 1));
  raw(deltaText(3, 2));
  assert.deepEqual(
    got.map((m) => m.content),
    [1, 2, 3].map((n) => JSON.parse(contentOf(n))),
  );
  assert.ok(got.every((m) => !('delta' in m)));

  // a delta against a message this subscription did not last receive: not shown, subscribed again from seq 3
  raw(deltaText(4, 1));
  assert.equal(got.length, 3);
  const [unsubscribe] = socket.ops('unsubscribe');
  assert.ok(unsubscribe, 'the subscription is dropped');
  socket.push({ op: 'unsubscribed', ref: unsubscribe.ref, channelId: 'doc' });
  await clock.advance(0);
  const again = socket.ops('subscribe')[1];
  assert.equal(again.since, 3);
  assert.equal(again.delta, 'fossil');
  socket.push({ op: 'subscribed', ref: again.ref, channelId: 'doc', lastSeq: 3 });
  // a new subscription has no base until a whole message: a delta first is a mismatch too
  raw(deltaText(4, 3));
  assert.equal(got.length, 3);
  assert.equal(socket.ops('unsubscribe').length, 2);
  client.close();
});

test('client delta - a reconnect starts without a base: the first whole message is the next base', async () => {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  lastSocket().accept();
  const got: Message[] = [];
  client.channel('doc').subscribe((message) => got.push(message), { delta: 'fossil' });
  let socket = lastSocket();
  socket.push({ op: 'subscribed', ref: socket.ops('subscribe')[0].ref, channelId: 'doc', lastSeq: 0 });
  socket.onmessage?.({ data: fullText(1) });
  socket.onmessage?.({ data: deltaText(2, 1) });
  socket.drop(1006);
  await clock.advance(clock.nextIn()!);
  socket = lastSocket();
  socket.accept();
  const [resubscribe] = socket.ops('subscribe');
  assert.equal(resubscribe.since, 2);
  socket.onmessage?.({ data: fullText(3) });
  socket.push({ op: 'subscribed', ref: resubscribe.ref, channelId: 'doc', lastSeq: 3 });
  socket.onmessage?.({ data: deltaText(4, 3) });
  assert.deepEqual(
    got.map((m) => m.seq),
    [1, 2, 3, 4],
  );
  assert.deepEqual(got.at(-1)!.content, JSON.parse(contentOf(4)));
  assert.equal(socket.ops('unsubscribe').length, 0);
  client.close();
});
