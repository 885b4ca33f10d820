import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConnectionState, RtmError, WebSocketConstructor } from '@rtm/client';
import { SseSession } from '../../libs/client/src/sse-session.ts';
import { MAX_STREAM_CHANNELS } from '../../libs/client/src/sse-slot.ts';
import { STREAM_SILENCE_MS } from '../../libs/client/src/sse-stream.ts';
import { fakeClient, FakeClock, messageFrame, settle } from '../helpers/client-fakes.ts';
import { connectedFrame, FakeFetch, ThrowingSocket } from '../helpers/sse-fakes.ts';

/** A client whose WebSockets are blocked (the constructor throws), on a fake fetch. */
function sseClient(options: Parameters<typeof fakeClient>[0] = {}) {
  const fake = new FakeFetch();
  const made = fakeClient({ WebSocket: ThrowingSocket as unknown as WebSocketConstructor, fetch: fake.fetch, transports: ['websocket', 'sse'], ...options });
  const states: ConnectionState[] = [];
  const errors: RtmError[] = [];
  made.client.on('state', (state) => states.push(state));
  made.client.on('error', (error) => errors.push(error));
  return { ...made, fake, states, errors };
}

test('client sse - a WebSocket that cannot be made: SSE at once; subscribing opens a stream, its replay and live messages arrive once, in order', async () => {
  const { client, clock, fake, states } = sseClient();
  const transports: string[] = [];
  client.on('transport', (t) => transports.push(t));
  await clock.advance(0);
  assert.equal(client.transport, 'sse');
  assert.deepEqual(transports, ['sse']);
  assert.equal(client.state, 'connected', 'no channel: nothing to open, publishes go over HTTP');
  assert.deepEqual(states, ['connected']);
  assert.equal(fake.streams.length, 0);

  const got: number[] = [];
  const sub = client.channel('room').subscribe((m) => got.push(m.seq), { since: 1 });
  await clock.advance(0);
  const stream = fake.lastStream();
  assert.equal(stream.channels, 'room~1');
  assert.equal(stream.token, 'tok-1');
  assert.equal(stream.init.headers.accept, 'text/event-stream');
  stream
    .open()
    .frame(connectedFrame())
    .frame(messageFrame('room', 2))
    .frame(messageFrame('room', 2))
    .frame({ op: 'subscribed', channelId: 'room', lastSeq: 3 });
  stream.frame(messageFrame('room', 4)).frame({ op: 'skip', channelId: 'room', seq: 5 }).frame(messageFrame('room', 6));
  await settle();
  assert.deepEqual(await sub.ready, { lastSeq: 3 });
  assert.deepEqual(got, [2, 4, 6]);
  assert.equal(client.channel('room').lastSeq, 6);
});

test('client sse - subscribing and unsubscribing reopen the stream with the new list; the channels on it resume from their positions', async () => {
  const { client, clock, fake } = sseClient();
  await clock.advance(0);
  const got: string[] = [];
  const room = client.channel('room');
  const resumed: boolean[] = [];
  room.on('subscribed', ({ resumed: r }) => resumed.push(r));
  room.subscribe((m) => got.push(`room${m.seq}`));
  await clock.advance(0);
  const first = fake.lastStream();
  first.open().frame(connectedFrame()).frame({ op: 'subscribed', channelId: 'room', lastSeq: 4 }).frame(messageFrame('room', 5));
  await settle();

  const lobbySub = client.channel('lobby').subscribe((m) => got.push(`lobby${m.seq}`));
  client.channel('hall').subscribe((m) => got.push(`hall${m.seq}`));
  await clock.advance(0);
  assert.equal(first.aborted, true);
  assert.equal(fake.streams.length, 2, 'two subscribes in one turn: one reopen');
  const second = fake.lastStream();
  assert.equal(second.channels, 'lobby,hall,room~5');
  // frames of the old stream after the reopen are not delivered
  first.frame(messageFrame('room', 6));
  second.open().frame(connectedFrame()).frame(messageFrame('room', 5)).frame(messageFrame('room', 6));
  second.frame({ op: 'subscribed', channelId: 'room', lastSeq: 6 }).frame({ op: 'subscribed', channelId: 'lobby', lastSeq: 0 });
  second.frame({ op: 'subscribed', channelId: 'hall', lastSeq: 9 }).frame(messageFrame('lobby', 1)).frame(messageFrame('room', 7));
  await settle();
  assert.deepEqual(got, ['room5', 'room6', 'lobby1', 'room7']);
  assert.deepEqual(resumed, [false, true]);

  await Promise.all([lobbySub.unsubscribe(), clock.advance(0)]);
  const third = fake.lastStream();
  assert.equal(second.aborted, true);
  assert.equal(third.channels, 'hall~9,room~7');
  third.open().frame(connectedFrame()).frame(messageFrame('lobby', 2)).frame({ op: 'subscribed', channelId: 'room', lastSeq: 7 });
  await settle();
  assert.deepEqual(got, ['room5', 'room6', 'lobby1', 'room7'], 'nothing of the channel left');

  client.close();
  assert.equal(third.aborted, true);
});

test('client sse - the last unsubscribe closes the stream; a channel the server ends or refuses leaves it without a reopen', async () => {
  const { client, clock, fake } = sseClient();
  await clock.advance(0);
  const a = client.channel('a').subscribe(() => {});
  const bEnded: string[] = [];
  client.channel('b').on('unsubscribed', ({ code }) => bEnded.push(code));
  client.channel('b').subscribe(() => {});
  const c = client.channel('c').subscribe(() => {});
  await clock.advance(0);
  const stream = fake.lastStream();
  stream.open().frame(connectedFrame()).frame({ op: 'error', channelId: 'c', code: 'forbidden', reason: 'members only' });
  stream.frame({ op: 'subscribed', channelId: 'a', lastSeq: 1 }).frame({ op: 'subscribed', channelId: 'b', lastSeq: 1 });
  stream.frame({ op: 'unsubscribed', channelId: 'b', code: 'banned', reason: 'banned' });
  await settle();
  await assert.rejects(c.ready, { code: 'forbidden' });
  assert.deepEqual(bEnded, ['banned']);
  await clock.advance(0);
  assert.equal(fake.streams.length, 1, 'the server already stopped them: no reopen');
  await Promise.all([a.unsubscribe(), clock.advance(0)]);
  assert.equal(stream.aborted, true);
  assert.equal(fake.openStreams.length, 0);
});

test('client sse - a stream ended by the server: reconnect with backoff, resume every channel from its last seq, no gap, no duplicate', async () => {
  const { client, clock, fake, states } = sseClient();
  await clock.advance(0);
  const got: number[] = [];
  client.channel('room').subscribe((m) => got.push(m.seq));
  await clock.advance(0);
  fake.lastStream().open().frame(connectedFrame()).frame({ op: 'subscribed', channelId: 'room', lastSeq: 0 }).frame(messageFrame('room', 1));
  await settle();
  fake.lastStream().frame({ op: 'closed', code: 4503, reason: 'draining' });
  await settle();
  assert.equal(client.state, 'disconnected');
  await clock.advance(30_000);
  const again = fake.lastStream();
  assert.equal(again.channels, 'room~1');
  again.open().frame(connectedFrame()).frame(messageFrame('room', 1)).frame(messageFrame('room', 2)).frame({ op: 'subscribed', channelId: 'room', lastSeq: 2 });
  await settle();
  assert.deepEqual(got, [1, 2]);
  assert.deepEqual(states.slice(-3), ['disconnected', 'connecting', 'connected']);
  // a body that just ends (a proxy cut it) counts as a lost connection too
  again.body.end();
  await settle();
  assert.equal(client.state, 'disconnected');
});

test('client sse - closed 4401 (token expired): a new token from getToken at once, the stream reopened with it', async () => {
  const { client, clock, fake, tokens } = sseClient();
  await clock.advance(0);
  client.channel('room').subscribe(() => {});
  await clock.advance(0);
  fake.lastStream().open().frame(connectedFrame()).frame({ op: 'subscribed', channelId: 'room', lastSeq: 7 });
  await settle();
  fake.lastStream().frame({ op: 'closed', code: 4401, reason: 'token expired' });
  await settle();
  await clock.advance(0);
  assert.equal(tokens.length, 2);
  assert.equal(fake.lastStream().token, 'tok-2');
  assert.equal(fake.lastStream().channels, 'room~7');
});

test('client sse - refusals before the stream: 403 closes the client, 429 waits its retry-after, 401 fetches a new token', async () => {
  {
    const { client, clock, fake, errors } = sseClient();
    await clock.advance(0);
    client.channel('room').subscribe(() => {});
    await clock.advance(0);
    fake.lastStream().reply(403, { code: 'banned', reason: 'banned from the environment' });
    await settle();
    assert.equal(client.state, 'closed');
    assert.equal(errors[0]?.code, 'forbidden');
    assert.match(errors[0]!.reason!, /banned from the environment/);
  }
  {
    const { client, clock, fake } = sseClient();
    const retries: (number | undefined)[] = [];
    client.on('state', (state, change) => state === 'disconnected' && retries.push(change.retryInMs));
    await clock.advance(0);
    client.channel('room').subscribe(() => {});
    await clock.advance(0);
    fake.lastStream().reply(429, { code: 'rate_limited', reason: 'too many' }, { 'retry-after': '7' });
    await settle();
    assert.ok(retries[0]! >= 7_000, `waits the retry-after, got ${retries[0]}`);
  }
});

test('client sse - a silent stream is dropped after the watchdog; comments keep it alive', async () => {
  const { client, clock, fake } = sseClient();
  await clock.advance(0);
  client.channel('room').subscribe(() => {});
  await clock.advance(0);
  const stream = fake.lastStream();
  stream.open().frame(connectedFrame());
  await settle();
  for (let i = 0; i < 4; i++) {
    await clock.advance(15_000);
    stream.comment();
    await settle();
  }
  assert.equal(client.state, 'connected');
  await clock.advance(STREAM_SILENCE_MS);
  assert.notEqual(client.state, 'connected');
  assert.equal(stream.aborted, true);
});

test('client sse - past 20 channels a second stream opens; past 10 streams a subscribe is refused with rate_limited', async () => {
  const { client, clock, fake } = sseClient();
  await clock.advance(0);
  for (let i = 0; i <= MAX_STREAM_CHANNELS; i++) client.channel(`c${i}`).subscribe(() => {});
  await clock.advance(0);
  assert.equal(fake.openStreams.length, 2);
  assert.equal(fake.openStreams[0]!.channels!.split(',').length, MAX_STREAM_CHANNELS);
  assert.equal(fake.openStreams[1]!.channels, `c${MAX_STREAM_CHANNELS}`);
  for (let i = MAX_STREAM_CHANNELS + 1; i < 200; i++) client.channel(`c${i}`).subscribe(() => {});
  const over = client.channel('over').subscribe(() => {});
  await clock.advance(0);
  await assert.rejects(over.ready, { code: 'rate_limited' });
  assert.equal(fake.openStreams.length, 10);
});

test('client sse - moderation goes to the member and ban routes; other frames are refused with unsupported; ping is answered', async () => {
  const clock = new FakeClock();
  const fake = new FakeFetch();
  const frames: Record<string, unknown>[] = [];
  const session = new SseSession(
    { baseUrl: 'http://edge.test', fetch: fake.fetch, clock, token: async () => 't', frame: (f) => frames.push(f), lost: () => {}, resubscribe: () => {} },
    'opaque',
    [],
  );
  session.send({ op: 'ban-member', ref: 3, channelId: 'room', userId: 'bob', reason: 'spam' });
  session.send({ op: 'remove-member', ref: 5, channelId: 'room', userId: 'cid' });
  session.send({ op: 'frob', ref: 6 });
  session.send({ op: 'ping', ref: 4 });
  await settle();
  const ban = fake.requests.find((r) => r.path === '/v1/channels/room/bans/bob')!;
  assert.equal(ban.method, 'PUT');
  assert.deepEqual(ban.json(), { reason: 'spam' });
  ban.reply(200, { userId: 'bob', channelId: 'room', reason: 'spam', expiresAt: null, createdAt: '2026-01-01T00:00:00.000Z' });
  await settle();
  // one request per channel at a time: the removal follows the ban
  const removal = fake.requests.find((r) => r.path === '/v1/channels/room/members/cid')!;
  assert.equal(removal.method, 'DELETE');
  removal.reply(204, '');
  await settle();
  const byOp = (op: string) => frames.filter((f) => f.op === op);
  assert.deepEqual(
    byOp('connected'),
    [{ op: 'connected', userId: 'alice', expiresAt: '2100-01-01T00:00:00.000Z' }],
    'no stream: GET /v1/me says who and until when',
  );
  assert.deepEqual(byOp('member-banned'), [{ op: 'member-banned', ref: 3, channelId: 'room', userId: 'bob', reason: 'spam', expiresAt: null }]);
  assert.deepEqual(byOp('member-removed'), [{ op: 'member-removed', ref: 5, channelId: 'room', userId: 'cid' }]);
  assert.deepEqual(byOp('error'), [
    { op: 'error', ref: 6, code: 'unsupported', reason: 'frob needs the WebSocket transport; the client is on Server-Sent Events' },
  ]);
  assert.deepEqual(byOp('pong'), [{ op: 'pong', ref: 4 }]);
  assert.equal(fake.mes.length, 2, 'with no stream open a ping asks the server');
});

test('client sse - the inbox rides a stream (inbox=1, no channel), and a reopened stream resumes it after the last notification', async () => {
  const { client, clock, errors, fake } = sseClient();
  await clock.advance(0);
  const got: string[] = [];
  const inbox = client.inbox.subscribe((n) => got.push(n.id));
  await clock.advance(0);
  assert.equal(errors.length, 0);
  const first = fake.lastStream();
  assert.equal(first.url.searchParams.get('inbox'), '1');
  assert.equal(first.channels, '');
  first.open().frame(connectedFrame()).frame({ op: 'notification', id: 'ntf_1', type: 't', payload: {}, timestamp: 1 }).frame({ op: 'inbox-subscribed' });
  await inbox.ready;
  first.frame({ op: 'notification', id: 'ntf_2', type: 't', payload: {}, timestamp: 2 });
  await settle();
  assert.deepEqual(got, ['ntf_1', 'ntf_2']);
  // a channel joins: the stream is reopened with it and the inbox from its last id
  client.channel('room').subscribe(() => {});
  await clock.advance(0);
  const second = fake.lastStream();
  assert.notEqual(second, first);
  assert.equal(first.aborted, true);
  assert.equal(second.channels, 'room');
  assert.equal(second.url.searchParams.get('inbox'), 'ntf_2');
  second
    .open()
    .frame(connectedFrame())
    .frame({ op: 'notification', id: 'ntf_2', type: 't', payload: {}, timestamp: 2 })
    .frame({ op: 'notification', id: 'ntf_3', type: 't', payload: {}, timestamp: 3 });
  await settle();
  assert.deepEqual(got, ['ntf_1', 'ntf_2', 'ntf_3'], 'once each');
});

test('client sse - with no channel GET /v1/me stands for the connection: no answer or a refusal is no connection', async () => {
  const fake = new FakeFetch();
  fake.me = (request) => request.fail();
  const { client, clock, states } = sseClient({ fetch: fake.fetch });
  await clock.advance(0);
  assert.equal(client.state, 'disconnected');
  fake.me = (request) => request.reply(401, { code: 'unauthorized', reason: 'token expired' });
  while (fake.mes.length < 2) await clock.advance(100);
  await settle();
  assert.equal(client.state, 'disconnected');
  assert.equal(fake.mes[1]!.token, 'tok-1');
  fake.me = (request) => request.reply(200, { userId: 'alice', expiresAt: new Date(Date.UTC(2100, 0, 1)).toISOString() });
  while ((client.state as string) !== 'connected') await clock.advance(100);
  assert.equal(fake.mes[2]!.token, 'tok-2', 'a 401 fetches a new token');
  assert.equal(client.userId, 'alice');
  assert.equal(states[0], 'disconnected');
  assert.equal(states.at(-1), 'connected');
});

test('client sse - presence goes over HTTP with the connectionId of the stream carrying the channel', async () => {
  const { client, clock, fake } = sseClient();
  await clock.advance(0);
  const room = client.channel('room');
  const got: number[] = [];
  room.subscribe((m) => got.push(m.seq));
  const entering = room.presence.enter({ status: 'here' });
  await clock.advance(0);
  fake
    .lastStream()
    .open()
    .frame(connectedFrame({ connectionId: 'sock_s1' }))
    .frame({ op: 'subscribed', channelId: 'room', lastSeq: 0 });
  await settle();
  const put = fake.requests.find((r) => r.path === '/v1/channels/room/presence')!;
  assert.ok(put, 'entered over HTTP once subscribed');
  assert.equal(put.method, 'PUT');
  assert.deepEqual(put.json(), { connectionId: 'sock_s1', data: { status: 'here' } });
  put.reply(200, { channelId: 'room', userId: 'alice', data: { status: 'here' } });
  await entering;
  const leaving = room.presence.leave();
  await settle();
  const del = fake.requests.filter((r) => r.path === '/v1/channels/room/presence').at(-1)!;
  assert.equal(del.method, 'DELETE');
  assert.equal(del.url.searchParams.get('connectionId'), 'sock_s1');
  del.reply(403, { code: 'forbidden', reason: 'no' });
  await assert.rejects(leaving, { code: 'forbidden' });
  fake.lastStream().frame(messageFrame('room', 1));
  await settle();
  assert.deepEqual(got, [1]);
  assert.equal(fake.streams.length, 1);
});
