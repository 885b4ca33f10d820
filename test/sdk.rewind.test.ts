/**
 * `channel.subscribe(listener, {rewind})` in @rtm/client against two gateways: the first
 * subscribe replays the last N messages the user may see, live messages follow, and after the
 * gateway dies the client resumes on the other one with `since` (its last seq), never rewinding
 * again: every message once, in order, on a WebSocket and on Server-Sent Events.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { createClient, type FetchLike, type Message, type WebSocketConstructor } from '@rtm/client';
import { startCluster } from './helpers/cluster.ts';
import { client as http, mintToken } from './helpers/http.ts';
import { startTcpProxy } from './helpers/tcp-proxy.ts';
import { connected, sleep, until } from './helpers/sdk.ts';

test('sdk rewind - rewind once, then resume from the last seq after the gateway dies, on a WebSocket and on SSE', async (t) => {
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const [first, second] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const proxy = await startTcpProxy([first.realtimeUrl, second.realtimeUrl]);
  t.after(() => proxy.close());
  const control = http(second.controlUrl, env.secretKey);
  const token = () => mintToken(second.controlUrl, env.secretKey, 'alice');

  // seq → whether alice sees it (every fourth is addressed to carol)
  const visible = new Map<number, boolean>();
  let n = 0;
  const publish = async () => {
    n++;
    const toCarol = n % 4 === 0;
    const res = await control.post('/v1/channels/room/messages', toCarol ? { content: { n }, to: ['carol'] } : { content: { n } });
    assert.equal(res.status, 201);
    visible.set(res.body.seq, !toCarol);
  };
  const seen = (from: number, to: number) =>
    [...visible]
      .filter(([seq, v]) => v && seq >= from && seq <= to)
      .map(([seq]) => seq)
      .sort((a, b) => a - b);
  for (let i = 0; i < 20; i++) await publish();

  // what each client asked for: the WebSocket's subscribe frames, the event streams' channels
  const frames: any[] = [];
  class Recording extends WebSocket {
    override send(data: any, ...rest: any[]): void {
      const frame = JSON.parse(String(data));
      if (frame.op === 'subscribe') frames.push(frame);
      (super.send as (...args: unknown[]) => void)(data, ...rest);
    }
  }
  const streams: string[] = [];
  const recordingFetch: FetchLike = (url, init) => {
    const asked = new URL(String(url));
    if (asked.pathname === '/v1/events') streams.push(asked.searchParams.get('channels') ?? '');
    return (globalThis.fetch as unknown as FetchLike)(url, init);
  };
  const blocked = class {
    constructor() {
      throw new Error('WebSockets are blocked on this network');
    }
  } as unknown as WebSocketConstructor;
  const reconnect = { initialDelayMs: 200, maxDelayMs: 2_000 };
  const onSocket = createClient({ url: proxy.url, getToken: token, WebSocket: Recording as unknown as WebSocketConstructor, reconnect });
  const onSse = createClient({ url: proxy.url, getToken: token, WebSocket: blocked, fetch: recordingFetch, reconnect });
  t.after(() => onSocket.close());
  t.after(() => onSse.close());

  const got = { socket: [] as Message[], sse: [] as Message[] };
  const [readySocket, readySse] = await Promise.all([
    onSocket.channel('room').subscribe((m) => got.socket.push(m), { rewind: 5 }).ready,
    onSse.channel('room').subscribe((m) => got.sse.push(m), { rewind: 5 }).ready,
  ]);
  assert.equal(onSse.transport, 'sse');
  for (const [name, ready, messages] of [
    ['socket', readySocket, got.socket],
    ['sse', readySse, got.sse],
  ] as const) {
    assert.equal(ready.lastSeq, 20, name);
    assert.deepEqual(
      messages.map((m) => m.seq),
      seen(1, 20).slice(-5),
      `${name}: the last five alice may see`,
    );
  }
  assert.equal(proxy.open(first.realtimeUrl) >= 2, true, 'both clients are on the first gateway');

  // live messages, then the gateway dies while messages keep coming
  const publishing = (async () => {
    for (let i = 0; i < 30; i++) {
      await publish();
      if (i === 8) await first.kill();
      await sleep(30);
    }
  })();
  await publishing;
  await Promise.all([connected(onSocket), connected(onSse)]);
  const last = Math.max(...visible.keys());
  const lastSeen = seen(1, last).at(-1)!;
  await until('both clients have every message', () => [got.socket, got.sse].every((m) => m.at(-1)?.seq === lastSeen), 30_000);
  await sleep(300);
  for (const [name, messages] of [
    ['socket', got.socket],
    ['sse', got.sse],
  ] as const) {
    assert.deepEqual(
      messages.map((m) => m.seq),
      [...seen(1, 20).slice(-5), ...seen(21, last)],
      `${name}: the rewind once, then every message once, in order, across the gateway's death`,
    );
  }
  assert.ok(proxy.open(second.realtimeUrl) >= 2, 'both resumed on the second gateway');

  // the first subscription asked for the rewind, every later one resumed with since
  assert.ok(frames.length >= 2, 'the socket client subscribed again after the drop');
  assert.deepEqual(frames[0], { op: 'subscribe', ref: frames[0].ref, channelId: 'room', rewind: 5 });
  for (const frame of frames.slice(1)) {
    assert.equal(frame.rewind, undefined, `a resume does not rewind again: ${JSON.stringify(frame)}`);
    assert.ok(frame.since >= 20, `it resumes from the last seq: ${JSON.stringify(frame)}`);
  }
  assert.ok(streams.length >= 2, 'the SSE client opened a stream again after the drop');
  assert.equal(streams[0], 'room~rewind:5');
  for (const channels of streams.slice(1)) assert.match(channels, /^room~\d+$/, 'a reopened stream resumes from the last seq');
});
