import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { startCluster } from './helpers/cluster.ts';
import { client, mintToken } from './helpers/http.ts';

/** A test client for the channel socket: every frame is kept; `take` consumes them in order. */
class Sock {
  readonly ws: WebSocket;
  readonly frames: any[] = [];
  private cursor = 0;
  private notify: (() => void) | undefined;
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(url: string, options: WebSocket.ClientOptions = {}) {
    this.ws = new WebSocket(url, options);
    this.ws.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString()));
      this.notify?.();
    });
    this.closed = new Promise((resolve) => this.ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() })));
    this.ws.on('error', () => {});
  }

  /** The next frame (in arrival order) matching `match`; frames skipped over are consumed. */
  async take(match: (frame: any) => boolean = () => true, what = 'a frame'): Promise<any> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      while (this.cursor < this.frames.length) {
        const frame = this.frames[this.cursor++];
        if (match(frame)) return frame;
      }
      if (this.ws.readyState === WebSocket.CLOSED) throw new Error(`socket closed while waiting for ${what}`);
      if (Date.now() > deadline) throw new Error(`no ${what}; got ${JSON.stringify(this.frames.slice(-5))}`);
      await new Promise<void>((resolve) => {
        this.notify = resolve;
        setTimeout(resolve, 200);
      });
    }
  }

  /** Every message frame (no `op`) up to and including seq `until`. */
  async messagesUntil(until: number): Promise<any[]> {
    const out: any[] = [];
    for (;;) {
      const frame = await this.take((f) => f.op === undefined, `message seq ${until}`);
      out.push(frame);
      if (frame.seq >= until && frame.ephemeral === false) return out;
    }
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  close(): void {
    this.ws.close();
  }
}

test('channels - the channel socket: replay, ready, live, resume, acks, `to`, ephemeral, bad frames, refusals', async (t) => {
  const cluster = await startCluster(t, {
    gateways: 1,
    channelNodes: 1,
    env: { SOCKET_BUFFER_LIMIT: '65536', HEARTBEAT_MS: '300' },
  });
  const env = await cluster.createEnvironment();
  const gw = cluster.gateways[0]!;
  const control = client(gw.controlUrl, env.secretKey);
  const tokens = {
    alice: await mintToken(gw.controlUrl, env.secretKey, 'alice'),
    bob: await mintToken(gw.controlUrl, env.secretKey, 'bob'),
    carol: await mintToken(gw.controlUrl, env.secretKey, 'carol'),
  };
  const wsUrl = gw.realtimeUrl.replace('http', 'ws');
  const open = (channel: string, user: keyof typeof tokens, since?: number, options?: WebSocket.ClientOptions) => {
    const query = new URLSearchParams({ token: tokens[user] });
    if (since !== undefined) query.set('since', String(since));
    return new Sock(`${wsUrl}/v1/channels/${channel}?${query}`, options);
  };
  const publish = async (channel: string, content: object, extra: object = {}) => {
    const res = await control.post(`/v1/channels/${channel}/messages`, { content, ...extra });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: string; seq: number };
  };

  await t.test('resume: 100 messages missed while away arrive exactly once, in order, then live ones', async () => {
    const first = open('resume', 'alice', 0);
    const ready = await first.take((f) => f.op === 'ready');
    assert.deepEqual(ready, { op: 'ready', channelId: 'resume', lastSeq: 0, userId: 'alice' });
    await publish('resume', { n: 0 });
    assert.equal((await first.take((f) => f.op === undefined)).seq, 1);
    first.close();
    await first.closed;
    for (let n = 1; n <= 100; n++) await publish('resume', { n });
    const again = open('resume', 'alice', 1);
    const replayed = await again.messagesUntil(101);
    assert.deepEqual(
      replayed.map((m) => m.seq),
      Array.from({ length: 100 }, (_, i) => i + 2),
    );
    assert.deepEqual(
      replayed.map((m) => m.content.n),
      Array.from({ length: 100 }, (_, i) => i + 1),
    );
    const readyAgain = await again.take((f) => f.op === 'ready');
    assert.equal(readyAgain.lastSeq, 101);
    assert.equal(again.frames.indexOf(readyAgain), 100, 'ready comes right after the replay');
    await publish('resume', { n: 101 });
    const live = await again.take((f) => f.op === undefined);
    assert.equal(live.seq, 102);
    again.close();
  });

  await t.test('no gap and no duplicate across the hand-off while publishes are in flight', async () => {
    const total = 300;
    let sent = 0;
    const publishers = Array.from({ length: 10 }, async () => {
      while (sent < total) {
        sent++;
        await publish('handoff', { at: Date.now() });
      }
    });
    // join mid-stream, from the beginning
    while (sent < 60) await new Promise((resolve) => setTimeout(resolve, 5));
    const sock = open('handoff', 'bob', 0);
    await Promise.all(publishers);
    const frames = await sock.messagesUntil(total);
    assert.deepEqual(
      frames.map((m) => m.seq),
      Array.from({ length: total }, (_, i) => i + 1),
    );
    const readyAt = sock.frames.findIndex((f) => f.op === 'ready');
    assert.ok(readyAt > 0);
    sock.close();
  });

  await t.test('socket publish and retract get acks; others see the message and the retract frame with its reason', async () => {
    const alice = open('talk', 'alice');
    const bob = open('talk', 'bob');
    await alice.take((f) => f.op === 'ready');
    await bob.take((f) => f.op === 'ready');
    alice.send({ op: 'publish', ref: 'r1', type: 'chat', content: { text: 'hi bob' } });
    const ack = await alice.take((f) => f.op === 'ack');
    assert.equal(ack.ref, 'r1');
    assert.equal(ack.seq, 1);
    const seen = await bob.take((f) => f.op === undefined);
    assert.deepEqual(
      [seen.id, seen.seq, seen.kind, seen.type, seen.sender, seen.content, seen.retracted, seen.ephemeral],
      [ack.id, 1, 'user', 'chat', { id: 'alice', anon: false }, { text: 'hi bob' }, false, false],
    );
    bob.send({ op: 'retract', ref: 7, id: ack.id });
    const denied = await bob.take((f) => f.op === 'error');
    assert.deepEqual([denied.ref, denied.code], [7, 'forbidden']);
    alice.send({ op: 'retract', ref: 'r2', id: ack.id, reason: 'typo' });
    const retractAck = await alice.take((f) => f.op === 'ack');
    assert.deepEqual(retractAck, { op: 'ack', ref: 'r2', id: ack.id, seq: 1, retracted: true, eventSeq: 2 });
    const retracted = await bob.take((f) => f.op === 'retract');
    assert.deepEqual(retracted, { op: 'retract', id: ack.id, seq: 1, eventSeq: 2, reason: 'typo' });
    alice.send({ op: 'retract', ref: 'r3', id: ack.id });
    const again = await alice.take((f) => f.op === 'ack');
    assert.deepEqual([again.ref, again.eventSeq], ['r3', 2], 'the second retraction answers as the first');
    // the second retraction emitted nothing and took no seq: the next frame bob sees is the next message
    await publish('talk', { text: 'next' });
    const next = await bob.take((f) => f.op !== 'presence');
    assert.equal(next.seq, 3);
    alice.close();
    bob.close();
  });

  await t.test('`to` frames reach only the addressees and the sender', async () => {
    const socks = { alice: open('dm', 'alice'), bob: open('dm', 'bob'), carol: open('dm', 'carol') };
    for (const s of Object.values(socks)) await s.take((f) => f.op === 'ready');
    socks.alice.send({ op: 'publish', ref: 1, content: { text: 'psst' }, to: ['bob'] });
    await socks.alice.take((f) => f.op === 'ack');
    await publish('dm', { text: 'everyone' });
    const texts = async (name: keyof typeof socks) => {
      await socks[name].take((f) => f.seq === 2 && f.op === undefined, 'seq 2');
      return socks[name].frames.filter((f) => f.op === undefined).map((f) => f.content.text);
    };
    assert.deepEqual(await texts('alice'), ['psst', 'everyone']);
    assert.deepEqual(await texts('bob'), ['psst', 'everyone']);
    assert.deepEqual(await texts('carol'), ['everyone']);
    // and on replay
    const late = open('dm', 'carol', 0);
    await late.take((f) => f.op === 'ready');
    assert.deepEqual(
      late.frames.filter((f) => f.op === undefined).map((f) => f.seq),
      [2],
    );
    for (const s of [...Object.values(socks), late]) s.close();
  });

  await t.test('ephemeral frames are fanned out with the last persisted seq and are not replayed', async () => {
    await publish('eph', { n: 1 });
    const bob = open('eph', 'bob');
    await bob.take((f) => f.op === 'ready');
    const alice = open('eph', 'alice');
    await alice.take((f) => f.op === 'ready');
    alice.send({ op: 'publish', ref: 'e', content: { typing: true }, ephemeral: true });
    const ack = await alice.take((f) => f.op === 'ack');
    assert.equal(ack.ephemeral, true);
    const frame = await bob.take((f) => f.op === undefined);
    assert.deepEqual([frame.ephemeral, frame.seq, frame.content], [true, 1, { typing: true }]);
    const replay = open('eph', 'carol', 0);
    await replay.take((f) => f.op === 'ready');
    assert.deepEqual(
      replay.frames.filter((f) => f.op === undefined).map((f) => f.content),
      [{ n: 1 }],
    );
    for (const s of [alice, bob, replay]) s.close();
  });

  await t.test('bad frames get error frames and the socket stays usable', async () => {
    const sock = open('frames', 'alice');
    await sock.take((f) => f.op === 'ready');
    sock.send('{not json');
    assert.deepEqual(await sock.take((f) => f.op === 'error'), { op: 'error', code: 'invalid_request', reason: 'malformed JSON' });
    sock.send({ op: 'dance', ref: 'x' });
    const unknown = await sock.take((f) => f.op === 'error');
    assert.deepEqual([unknown.ref, unknown.code], ['x', 'invalid_request']);
    sock.send({ op: 'publish', ref: 'c' });
    assert.equal((await sock.take((f) => f.op === 'error')).ref, 'c');
    sock.send({ op: 'publish', ref: 'big', content: { text: 'x'.repeat(70_000) } });
    const tooBig = await sock.take((f) => f.op === 'error');
    assert.deepEqual([tooBig.ref, tooBig.code], ['big', 'payload_too_large']);
    sock.send({ op: 'ping' });
    assert.deepEqual(await sock.take(), { op: 'pong' });
    sock.send({ op: 'retract', ref: 'r', id: 'msg_missing' });
    assert.equal((await sock.take((f) => f.op === 'error')).code, 'not_found');
    sock.send({ op: 'publish', ref: 'ok', content: {} });
    assert.equal((await sock.take((f) => f.op === 'ack')).ref, 'ok');
    // a frame over the largest legal one (128 KiB) is refused from its header: close 4400
    const closed = new Promise<number>((resolve) => sock.ws.once('close', (code) => resolve(code)));
    sock.send({ op: 'publish', ref: 'huge', content: { text: 'x'.repeat(200_000) } });
    assert.equal(await closed, 4400);
  });

  await t.test('frames sent before ready are handled after it, in order', async () => {
    const sock = open('early', 'carol', 0);
    await new Promise((resolve) => sock.ws.once('open', resolve));
    for (let i = 1; i <= 5; i++) sock.send({ op: 'publish', ref: i, content: { i } });
    await sock.take((f) => f.op === 'ready');
    const acks = [];
    for (let i = 1; i <= 5; i++) acks.push(await sock.take((f) => f.op === 'ack'));
    assert.deepEqual(
      acks.map((a) => [a.ref, a.seq]),
      [
        [1, 1],
        [2, 2],
        [3, 3],
        [4, 4],
        [5, 5],
      ],
    );
    sock.close();
  });

  await t.test('refusals close with the documented close code', async () => {
    const noToken = new Sock(`${wsUrl}/v1/channels/x`);
    assert.equal((await noToken.closed).code, 4401);
    const badToken = new Sock(`${wsUrl}/v1/channels/x?token=nope`);
    assert.equal((await badToken.closed).code, 4401);
    const badChannel = open('bad%20id', 'alice');
    assert.equal((await badChannel.closed).code, 4400);
    const badSince = open('x', 'alice');
    badSince.close();
    const negative = new Sock(`${wsUrl}/v1/channels/x?since=-1&token=${tokens.alice}`);
    assert.equal((await negative.closed).code, 4400);
    const header = new Sock(`${wsUrl}/v1/channels/x`, { headers: { authorization: `Bearer ${tokens.bob}` } });
    assert.equal((await header.take((f) => f.op === 'ready')).userId, 'bob');
    header.close();
  });

  await t.test('a peer that stops answering pings is dropped', async () => {
    const silent = open('hb', 'alice', undefined, { autoPong: false });
    await silent.take((f) => f.op === 'ready');
    assert.equal((await silent.closed).code, 1006);
  });

  // the paused client below cannot answer pings: use a gateway with the default heartbeat
  // (and a long close grace: the client reads the close frame only after the publishing loop)
  const second = await cluster.start('gateway', { HEARTBEAT_MS: '60000', SOCKET_CLOSE_GRACE_MS: '60000' });
  const wsUrl2 = second.realtimeUrl.replace('http', 'ws');

  await t.test('a slow consumer is closed with 4503 instead of growing the gateway’s memory', async () => {
    const slow = new Sock(`${wsUrl2}/v1/channels/slow?token=${tokens.alice}`);
    await slow.take((f) => f.op === 'ready');
    // stop reading from the TCP socket: the kernel buffers fill, then the gateway's queue grows
    const raw = (slow.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    raw.pause();
    const content = { blob: 'x'.repeat(60_000) };
    let closed = false;
    void slow.closed.then(() => (closed = true));
    for (let i = 0; i < 50 && !closed; i++) await Promise.all(Array.from({ length: 8 }, () => publish('slow', content)));
    raw.resume();
    assert.equal((await slow.closed).code, 4503);
    // it resumes where it stopped
    const seen = slow.frames.filter((f) => f.op === undefined).map((f) => f.seq);
    const last = seen.length ? seen[seen.length - 1] : 0;
    assert.deepEqual(
      seen,
      Array.from({ length: last }, (_, i) => i + 1),
    );
    const resumed = new Sock(`${wsUrl2}/v1/channels/slow?token=${tokens.alice}&since=${last}`);
    const ready = await resumed.take((f) => f.op === 'ready');
    const replayed = resumed.frames.filter((f) => f.op === undefined).map((f) => f.seq);
    assert.deepEqual(
      replayed,
      Array.from({ length: ready.lastSeq - last }, (_, i) => last + i + 1),
    );
    resumed.close();
  });

  await t.test('a draining gateway closes its sockets with 4503', async () => {
    const sock = new Sock(`${wsUrl2}/v1/channels/drain?token=${tokens.bob}`);
    await sock.take((f) => f.op === 'ready');
    const exit = second.stop();
    assert.equal((await sock.closed).code, 4503);
    assert.equal(await exit, 0);
  });
});
