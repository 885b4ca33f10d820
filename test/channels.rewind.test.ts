/**
 * `rewind` on subscribe (docs/protocol.md, "Subscribing"): the last N messages the user may see,
 * or those published within a duration, replayed before the live frames with no gap and no
 * duplicate, on the channel socket (`?rewind=`), `/v1/connect` (`subscribe` with `rewind`) and
 * `GET /v1/events` (`<channelId>~rewind:`), against two gateways, a channel-node, Postgres and
 * NATS, while publishes race the subscriptions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, mintToken } from './helpers/http.ts';
import { openSocket } from './helpers/ws.ts';
import { openStream } from './helpers/sse.ts';
import { closeOf } from './helpers/closed.ts';
import { channelHash } from '../libs/edge/src/sessions/event-positions.ts';

type Control = ReturnType<typeof client>;

/** Every message published to one channel: seq → whether alice may see it (the others are `to` carol). */
class Ledger {
  readonly visible = new Map<number, boolean>();
  readonly control: Control;
  readonly channelId: string;

  constructor(control: Control, channelId: string) {
    this.control = control;
    this.channelId = channelId;
  }

  async publish(n: number, toCarol: boolean): Promise<{ seq: number; timestamp: number }> {
    const body = toCarol ? { content: { n }, to: ['carol'] } : { content: { n } };
    const res = await this.control.post(`/v1/channels/${this.channelId}/messages`, body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    this.visible.set(res.body.seq, !toCarol);
    return res.body;
  }

  /** The seqs alice may see in [from, to], ascending. */
  seen(from: number, to: number): number[] {
    return [...this.visible]
      .filter(([seq, visible]) => visible && seq >= from && seq <= to)
      .map(([seq]) => seq)
      .sort((a, b) => a - b);
  }

  get last(): number {
    return Math.max(0, ...this.visible.keys());
  }
}

/** Publishes (every third to carol) until stopped, so subscriptions race live messages. */
function race(ledger: Ledger): { stop(): Promise<void> } {
  let running = true;
  let n = 1000;
  const done = (async () => {
    while (running) {
      n++;
      await ledger.publish(n, n % 3 === 0);
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
    },
  };
}

/** One subscriber's frames split at its `ready`/`subscribed`: replayed messages, then live messages and skips, in order. */
interface Received {
  lastSeq: number;
  replayed: number[];
  /** Seqs of live frames (messages, and skips on the multiplexed transports), in arrival order. */
  liveFrames: number[];
  liveMessages: number[];
}

function split(frames: any[], channelId: string, readyOp: 'ready' | 'subscribed'): Received {
  const mine = frames.filter((f) => f.channelId === channelId || (readyOp === 'ready' && f.op === undefined));
  const cut = mine.findIndex((f) => f.op === readyOp);
  assert.ok(cut >= 0, `no ${readyOp} in ${JSON.stringify(mine).slice(0, 400)}`);
  const before = mine.slice(0, cut);
  const after = mine.slice(cut + 1);
  assert.ok(
    before.every((f) => f.op === undefined),
    'only messages before the hand-off',
  );
  return {
    lastSeq: mine[cut].lastSeq,
    replayed: before.map((f) => f.seq),
    liveFrames: after.filter((f) => f.op === undefined || f.op === 'skip').map((f) => f.seq),
    liveMessages: after.filter((f) => f.op === undefined).map((f) => f.seq),
  };
}

const upTo = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/**
 * Subscribes alice with `rewind` on the three transports at once (channel socket and event stream
 * on gateway B, `/v1/connect` on gateway A) while `ledger` keeps publishing, then publishes one
 * last message and returns what each received once it arrived.
 */
async function subscribeEverywhere(
  gateways: { realtimeUrl: string }[],
  token: string,
  ledger: Ledger,
  rewind: { query: string; frame: number | string },
): Promise<{ final: number; channel: Received; connect: Received; events: Received }> {
  const [gwA, gwB] = gateways as [{ realtimeUrl: string }, { realtimeUrl: string }];
  const { channelId } = ledger;
  const racing = race(ledger);
  const channelSocket = openSocket(gwB.realtimeUrl, `/v1/channels/${channelId}?rewind=${rewind.query}&token=${token}`);
  const connect = openSocket(gwA.realtimeUrl, `/v1/connect?token=${token}`);
  const streamOpening = openStream(gwB.realtimeUrl, `/v1/events?channels=${channelId}~rewind:${rewind.query}&token=${token}`);
  await connect.waitFor('connected', (f) => f.op === 'connected');
  connect.send({ op: 'subscribe', ref: 'r', channelId, rewind: rewind.frame });
  const stream = await streamOpening;
  assert.equal(stream.status, 200, JSON.stringify(stream.body));
  await channelSocket.waitFor('ready', (f) => f.op === 'ready', 20_000);
  await connect.waitFor('subscribed', (f) => f.op === 'subscribed', 20_000);
  await stream.waitFor('subscribed', (f) => f.op === 'subscribed');
  // live messages after every hand-off
  const handedOff = ledger.last;
  while (ledger.last < handedOff + 6) await new Promise((resolve) => setTimeout(resolve, 10));
  await racing.stop();
  const final = (await ledger.publish(9999, false)).seq;
  const arrived = (f: any) => f.op === undefined && f.seq === final;
  await channelSocket.waitFor('the last message', arrived, 20_000);
  await connect.waitFor('the last message', arrived, 20_000);
  await stream.waitFor('the last message', arrived);
  const received = {
    final,
    channel: split(channelSocket.frames, channelId, 'ready'),
    connect: split(connect.frames, channelId, 'subscribed'),
    events: split(stream.frames, channelId, 'subscribed'),
  };
  channelSocket.ws.close();
  connect.ws.close();
  stream.cut();
  return received;
}

/** Live: every seq after lastSeq once, in order (skips for the messages to carol on the multiplexed transports). */
function assertLive(ledger: Ledger, received: Received, final: number, skips: boolean, transport: string): void {
  assert.deepEqual(received.liveMessages, ledger.seen(received.lastSeq + 1, final), `${transport}: live messages`);
  if (skips) assert.deepEqual(received.liveFrames, upTo(received.lastSeq + 1, final), `${transport}: every live seq once, in order`);
  assert.ok(received.liveMessages.length > 0, `${transport}: live messages followed the replay`);
}

test('rewind - the last N messages alice may see, then live, on all three transports while publishes race', async (t) => {
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const control = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  const alice = await mintToken(cluster.gateways[0]!.controlUrl, env.secretKey, 'alice');
  const ledger = new Ledger(control, 'count-room');
  // every third message is addressed to carol: alice does not see it, and it does not count
  for (let n = 1; n <= 30; n++) await ledger.publish(n, n % 3 === 0);

  const got = await subscribeEverywhere(cluster.gateways, alice, ledger, { query: '10', frame: 10 });
  for (const [transport, received, skips] of [
    ['channel socket', got.channel, false],
    ['connect', got.connect, true],
    ['events', got.events, true],
  ] as const) {
    assert.ok(received.lastSeq >= 30, transport);
    const expected = ledger.seen(1, received.lastSeq).slice(-10);
    assert.equal(expected.length, 10);
    assert.deepEqual(received.replayed, expected, `${transport}: the last 10 alice may see at lastSeq ${received.lastSeq}`);
    assertLive(ledger, received, got.final, skips, transport);
  }

  // more than the channel holds: all of it; a count beyond 100 is refused
  const short = new Ledger(control, 'short-room');
  for (let n = 1; n <= 4; n++) await short.publish(n, n === 2);
  const whole = openSocket(cluster.gateways[1]!.realtimeUrl, `/v1/channels/short-room?rewind=100&token=${alice}`);
  await whole.waitFor('ready', (f) => f.op === 'ready');
  assert.deepEqual(split(whole.frames, 'short-room', 'ready').replayed, [1, 3, 4]);
  whole.ws.close();
});

test('rewind - the messages of the last seconds, then live, on all three transports while publishes race', async (t) => {
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const control = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  const alice = await mintToken(cluster.gateways[0]!.controlUrl, env.secretKey, 'alice');
  const ledger = new Ledger(control, 'time-room');
  for (let n = 1; n <= 10; n++) await ledger.publish(n, false);
  // the older ones are 3 s old when the subscriptions resolve `2s`; the newer ones well inside it
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const firstRecent = (await ledger.publish(11, false)).seq;
  for (let n = 12; n <= 20; n++) await ledger.publish(n, n % 3 === 0);

  const got = await subscribeEverywhere(cluster.gateways, alice, ledger, { query: '2s', frame: '2s' });
  for (const [transport, received, skips] of [
    ['channel socket', got.channel, false],
    ['connect', got.connect, true],
    ['events', got.events, true],
  ] as const) {
    assert.deepEqual(received.replayed, ledger.seen(firstRecent, received.lastSeq), `${transport}: everything since ${firstRecent}, alice's only`);
    assertLive(ledger, received, got.final, skips, transport);
  }

  // nothing within the window: nothing replayed, live from lastSeq
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const quiet = openSocket(cluster.gateways[0]!.realtimeUrl, `/v1/channels/time-room?rewind=1s&token=${alice}`);
  const ready = await quiet.waitFor('ready', (f) => f.op === 'ready');
  assert.equal(ready.lastSeq, got.final);
  assert.deepEqual(split(quiet.frames, 'time-room', 'ready').replayed, []);
  quiet.ws.close();
});

test('rewind - bad values are refused on every transport; since (or an event id) wins over rewind', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const gw = cluster.gateways[0]!;
  const control = client(gw.controlUrl, env.secretKey);
  const alice = await mintToken(gw.controlUrl, env.secretKey, 'alice');
  const ledger = new Ledger(control, 'room');
  for (let n = 1; n <= 12; n++) await ledger.publish(n, false);

  // the channel socket closes with 4400 naming the parameter
  for (const [value, reason] of [
    ['0', /query\.rewind: a count must be from 1 to 100/],
    ['101', /query\.rewind: a count must be from 1 to 100/],
    ['25h', /query\.rewind: a duration must be at most 24h/],
    ['2d', /query\.rewind: must be a message count/],
    ['1.5', /query\.rewind: must be a message count/],
  ] as const) {
    const closed = await closeOf(openSocket(gw.realtimeUrl, `/v1/channels/room?rewind=${value}&token=${alice}`));
    assert.equal(closed.code, 4400, value);
    assert.match(closed.reason, reason, value);
  }

  // /v1/connect answers an error frame; the connection stays open
  const connect = openSocket(gw.realtimeUrl, `/v1/connect?token=${alice}`);
  await connect.waitFor('connected', (f) => f.op === 'connected');
  for (const [ref, rewind, reason] of [
    ['zero', 0, /^rewind: a count must be from 1 to 100/],
    ['fraction', 2.5, /^rewind: must be a message count/],
    ['long', '25h', /^rewind: a duration must be at most 24h/],
    ['unit', '5d', /^rewind: must be a message count/],
    ['type', true, /^rewind: must be a message count/],
  ] as const) {
    connect.send({ op: 'subscribe', ref, channelId: 'room', rewind });
    const error = await connect.waitFor(ref, (f) => f.ref === ref);
    assert.deepEqual({ ...error, reason: undefined }, { op: 'error', ref, channelId: 'room', code: 'invalid_request', reason: undefined });
    assert.match(error.reason, reason, ref);
  }
  // since and rewind: since wins
  connect.send({ op: 'subscribe', ref: 'both', channelId: 'room', since: 9, rewind: 5 });
  const both = await connect.waitFor('both', (f) => f.ref === 'both');
  assert.deepEqual(both, { op: 'subscribed', ref: 'both', channelId: 'room', lastSeq: 12 });
  assert.deepEqual(
    split(
      connect.frames.filter((f) => f.op !== 'error'),
      'room',
      'subscribed',
    ).replayed,
    [10, 11, 12],
  );
  connect.ws.close();

  // the channel socket: since wins too
  const socket = openSocket(gw.realtimeUrl, `/v1/channels/room?since=10&rewind=5&token=${alice}`);
  await socket.waitFor('ready', (f) => f.op === 'ready');
  assert.deepEqual(split(socket.frames, 'room', 'ready').replayed, [11, 12]);
  socket.ws.close();

  // the event stream: 400 in the error envelope
  for (const [entry, reason] of [
    ['room~rewind:0', /rewind a count must be from 1 to 100/],
    ['room~rewind:48h', /rewind a duration must be at most 24h/],
    ['room~rewind:x', /rewind must be a message count/],
  ] as const) {
    const refused = await openStream(gw.realtimeUrl, `/v1/events?channels=${entry}&token=${alice}`);
    assert.equal(refused.status, 400, entry);
    assert.equal(refused.body.code, 'invalid_request', entry);
    assert.equal(refused.headers['x-service-error'], 'invalid_request', `${entry}: the envelope`);
    assert.match(refused.body.reason, reason, entry);
  }
  // a reconnect with the event id resumes from its position: the URL's rewind does not apply again
  const resumed = await openStream(gw.realtimeUrl, `/v1/events?channels=room~rewind:5&token=${alice}`, { 'last-event-id': `${channelHash('room')}~11` });
  await resumed.waitFor('subscribed', (f) => f.op === 'subscribed');
  assert.deepEqual(split(resumed.frames, 'room', 'subscribed').replayed, [12]);
  resumed.cut();
  const fresh = await openStream(gw.realtimeUrl, `/v1/events?channels=room~rewind:5&token=${alice}`);
  await fresh.waitFor('subscribed', (f) => f.op === 'subscribed');
  assert.deepEqual(split(fresh.frames, 'room', 'subscribed').replayed, [8, 9, 10, 11, 12]);
  assert.equal(fresh.lastId, `${channelHash('room')}~12`);
  fresh.cut();
});
