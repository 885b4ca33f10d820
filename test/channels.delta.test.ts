/**
 * Delta compression end to end (docs/protocol.md, "Delta compression"), on real processes with two
 * gateways: a state-sync channel (a ~4 KB document, one field changed per message) read by a plain
 * SDK subscriber on one gateway and a `delta: "fossil"` SDK subscriber on the other, whose socket
 * is dropped mid-stream. Both must hand the application the same 1,000 contents, byte for byte as
 * the service serialises them; the delta subscriber's first message after the reconnect comes
 * whole, and its message frames are far smaller. Namespaces without `delta` refuse it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import type { Message } from '@rtm/client';
import { ConnectServerFrame } from '@rtm/schemas';
import { startCluster } from './helpers/cluster.ts';
import { client as http, mintToken } from './helpers/http.ts';
import { openSocket } from './helpers/ws.ts';
import { closeOf } from './helpers/closed.ts';
import { connected, dropConnection, sdkClient, until } from './helpers/sdk.ts';

const TOTAL = 1000;
const DROP_AT = 400;
const BATCH = 25;

/** The shared document after `n` changes: ~4 KB of JSON, field `items[n % 40].value` set to n. */
function documentAt(n: number, previous?: Record<string, any>): Record<string, any> {
  const doc =
    previous === undefined
      ? {
          id: 'doc-1',
          title: 'Quarterly plan – état des lieux',
          items: Array.from({ length: 40 }, (_, i) => ({ key: `item-${i}`, label: `Task number ${i} of the plan`, done: i % 3 === 0, value: 0 })),
          cursor: { line: 0, column: 0 },
        }
      : structuredClone(previous);
  if (n > 0) doc.items[n % 40].value = n;
  return doc;
}

/** A WebSocket for the SDK that keeps every text frame it receives (the bytes on the wire). */
function recordingSocket(frames: string[][]) {
  return class RecordingWebSocket extends WebSocket {
    constructor(address: string) {
      super(address);
      const mine: string[] = [];
      frames.push(mine);
      this.on('message', (data) => mine.push(String(data)));
    }
  };
}

const messageFrames = (frames: string[]) => frames.filter((text) => text.startsWith('{"channelId":"doc:1","id":'));

test('delta - a delta subscriber rebuilds what a plain one gets, for 1,000 state-sync messages across a reconnect', async (t) => {
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 1 });
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const env = await cluster.createEnvironment();
  const control = http(gwA.controlUrl, env.secretKey);
  const deployed = await control.put('/v1/config', { namespaces: [{ prefix: 'doc:', delta: true }] });
  assert.equal(deployed.status, 200, JSON.stringify(deployed.body));
  const token = (userId: string) => () => mintToken(gwA.controlUrl, env.secretKey, userId);

  const plainWire: string[][] = [];
  const deltaWire: string[][] = [];
  const plain = sdkClient(t, gwA.realtimeUrl, token('plain'), { transports: ['websocket'], WebSocket: recordingSocket(plainWire) as never });
  const delta = sdkClient(t, gwB.realtimeUrl, token('delta'), { transports: ['websocket'], WebSocket: recordingSocket(deltaWire) as never });
  const plainGot: Message[] = [];
  const deltaGot: Message[] = [];
  await Promise.all([
    plain.channel('doc:1').subscribe((m) => plainGot.push(m)).ready,
    delta.channel('doc:1').subscribe((m) => deltaGot.push(m), { delta: 'fossil' }).ready,
  ]);

  let doc = documentAt(0);
  let published = 0;
  const publish = async (count: number) => {
    const messages = [];
    for (let i = 0; i < count; i++) {
      doc = documentAt(++published, doc);
      messages.push({ channelId: 'doc:1', type: 'state', content: doc });
    }
    const res = await control.post('/v1/messages/batch', { messages });
    assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  };
  while (published < DROP_AT) await publish(BATCH);
  await until('the delta subscriber has the first part', () => deltaGot.length >= DROP_AT, 30_000);
  // the socket goes as a network failure would take it; messages keep coming while it is away
  dropConnection(delta);
  await publish(BATCH);
  await connected(delta);
  while (published < TOTAL) await publish(BATCH);
  await until('both subscribers have every message', () => plainGot.length >= TOTAL && deltaGot.length >= TOTAL, 60_000);

  assert.deepEqual(
    deltaGot.map((m) => m.seq),
    plainGot.map((m) => m.seq),
  );
  assert.deepEqual(
    plainGot.map((m) => m.seq),
    Array.from({ length: TOTAL }, (_, i) => i + 1),
  );
  // the same content, key order and all, as the service serialises it
  for (let i = 0; i < TOTAL; i++) assert.equal(JSON.stringify(deltaGot[i]!.content), JSON.stringify(plainGot[i]!.content), `message ${i + 1}`);
  assert.deepEqual(plainGot.at(-1)!.content, doc);

  assert.equal(deltaWire.length, 2, 'one reconnect');
  const [before, after] = deltaWire.map(messageFrames) as [string[], string[]];
  const isDelta = (text: string) => (JSON.parse(text) as { delta?: unknown }).delta !== undefined;
  assert.equal(isDelta(before[0]!), false, 'the first message comes whole');
  assert.equal(isDelta(after[0]!), false, 'the first message after the reconnect (a resume) comes whole');
  const deltas = [...before, ...after].filter(isDelta).length;
  for (const text of [...before, ...after]) assert.ok(ConnectServerFrame.safeParse(JSON.parse(text)).success, `an undocumented frame: ${text.slice(0, 200)}`);
  // whole: the first, and the resume's replay (what was published while the socket was away)
  assert.ok(deltas >= TOTAL - 2 * BATCH - 1, `every live message after the first a delta (${deltas})`);
  const bytes = (frames: string[]) => frames.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  const plainBytes = bytes(plainWire.flatMap(messageFrames));
  const deltaBytes = bytes([...before, ...after]);
  assert.ok(deltaBytes < plainBytes * 0.2, `delta frames are under a fifth of the bytes (${deltaBytes} vs ${plainBytes})`);
});

test('delta - refused where the namespace does not turn it on, and for an unknown format', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  const control = http(gw.controlUrl, env.secretKey);
  assert.equal((await control.put('/v1/config', { namespaces: [{ prefix: 'doc:', delta: true }, { prefix: 'chat:' }] })).status, 200);
  const token = await mintToken(gw.controlUrl, env.secretKey, 'alice');

  const connect = openSocket(gw.realtimeUrl, `/v1/connect?token=${token}`);
  await connect.waitFor('connected', (f) => f.op === 'connected');
  connect.send({ op: 'subscribe', ref: 1, channelId: 'chat:1', delta: 'fossil' });
  connect.send({ op: 'subscribe', ref: 2, channelId: 'other', delta: 'fossil' });
  connect.send({ op: 'subscribe', ref: 3, channelId: 'doc:1', delta: 'gzip' });
  connect.send({ op: 'subscribe', ref: 4, channelId: 'doc:1', delta: 'fossil' });
  connect.send({ op: 'subscribe', ref: 5, channelId: 'chat:2' });
  for (const ref of [1, 2]) {
    const refused = await connect.waitFor(`refusal ${ref}`, (f) => f.ref === ref);
    assert.equal(refused.op, 'error');
    assert.equal(refused.code, 'forbidden');
  }
  const unknown = await connect.waitFor('refusal 3', (f) => f.ref === 3);
  assert.equal(unknown.code, 'invalid_request');
  assert.equal((await connect.waitFor('subscribed 4', (f) => f.ref === 4)).op, 'subscribed');
  assert.equal((await connect.waitFor('subscribed 5', (f) => f.ref === 5)).op, 'subscribed', 'without delta, any namespace');
  await connect.close();

  const refusedSocket = openSocket(gw.realtimeUrl, `/v1/channels/chat:1?delta=fossil&token=${token}`);
  assert.equal((await closeOf(refusedSocket)).code, 4403);
  const unknownSocket = openSocket(gw.realtimeUrl, `/v1/channels/doc:1?delta=xdelta&token=${token}`);
  assert.equal((await closeOf(unknownSocket)).code, 4400);

  // the channel socket and the event stream, where it is on: the second message as a delta
  const socket = openSocket(gw.realtimeUrl, `/v1/channels/doc:1?delta=fossil&token=${token}`);
  await socket.waitFor('ready', (f) => f.op === 'ready');
  const events = await fetch(`${gw.realtimeUrl}/v1/events?channels=doc:1&delta=fossil&token=${token}`);
  assert.equal(events.status, 200);
  const refusedEvents = await fetch(`${gw.realtimeUrl}/v1/events?channels=doc:1&delta=zstd&token=${token}`);
  assert.equal(refusedEvents.status, 400);
  const reader = events.body!.getReader();
  let streamed = '';
  const decoder = new TextDecoder();
  const readUntil = async (what: RegExp) => {
    while (!what.test(streamed)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended before ${what}: ${streamed}`);
      streamed += decoder.decode(value, { stream: true });
    }
  };
  await readUntil(/"op":"subscribed"/);
  for (const n of [1, 2]) {
    const res = await control.post('/v1/channels/doc:1/messages', { type: 'state', content: documentAt(n, documentAt(0)) });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }
  const [first, second] = await Promise.all([socket.waitFor('message 1', (f) => f.seq === 1), socket.waitFor('message 2', (f) => f.seq === 2)]);
  assert.deepEqual(first.content, documentAt(1, documentAt(0)));
  assert.equal(second.content, undefined);
  assert.equal(second.delta.format, 'fossil');
  assert.equal(second.delta.base, first.id);
  await readUntil(/"seq":2,[^\n]*"delta":\{"format":"fossil"/);
  await reader.cancel();
  await socket.close();
});
