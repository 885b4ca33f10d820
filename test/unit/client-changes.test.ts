import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MessageUpdate, ReactionsUpdate, Retraction, WebSocketConstructor } from '@rtm/client';
import { VersionBook } from '../../libs/client/src/resume.ts';
import { fakeClient, lastSocket, messageFrame, settle, type FakeSocket } from '../helpers/client-fakes.ts';
import { connectedFrame, FakeFetch, ThrowingSocket } from '../helpers/sse-fakes.ts';

/** An `update` frame: message `seq` of `channelId` as it is now, at `eventSeq` of the channel's sequence. */
function updateFrame(channelId: string, seq: number, eventSeq: number, extra: Record<string, unknown> = {}) {
  return {
    op: 'update',
    eventSeq,
    ...messageFrame(channelId, seq, { version: 2, updatedAt: 5, updatedBy: 'bob', content: { n: seq, edited: true }, ...extra }),
  };
}

function summaryFrame(channelId: string, seq: number, eventSeq: number, reactions: Record<string, unknown>) {
  return { op: 'summary', channelId, eventSeq, id: `msg_${channelId}_${seq}`, seq, reactions };
}

/** A client subscribed to `room` (live at `lastSeq`), recording what the channel hands out. */
async function subscribedRoom(lastSeq: number, since?: number) {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  lastSocket().accept();
  const room = client.channel('room');
  const got = { messages: [] as number[], updates: [] as MessageUpdate[], summaries: [] as ReactionsUpdate[], retractions: [] as Retraction[] };
  room.on('update', (update) => got.updates.push(update));
  room.on('summary', (summary) => got.summaries.push(summary));
  room.on('retract', (retraction) => got.retractions.push(retraction));
  room.subscribe((message) => got.messages.push(message.seq), since === undefined ? {} : { since });
  const socket = lastSocket();
  const [subscribe] = socket.ops('subscribe');
  const live = () => socket.push({ op: 'subscribed', ref: subscribe.ref, channelId: 'room', lastSeq });
  return { client, clock, room, got, socket, subscribe, live };
}

/** The subscribe frame sent after the last unsubscribe is answered (a gap's re-subscription). */
function resubscribeAfterGap(socket: FakeSocket) {
  const unsubscribe = socket.ops('unsubscribe').at(-1);
  assert.ok(unsubscribe, 'the gap unsubscribed');
  socket.push({ op: 'unsubscribed', ref: unsubscribe.ref, channelId: 'room' });
  return socket.ops('subscribe').at(-1);
}

test('client changes - update, summary and retract frames are events and each advances the resume position by its eventSeq', async () => {
  const { client, clock, room, got, socket, live } = await subscribedRoom(5);
  live();
  socket.push(messageFrame('room', 6));
  socket.push(updateFrame('room', 6, 7));
  socket.push(summaryFrame('room', 6, 8, { '👍': { count: 1, users: ['bob'], clipped: false } }));
  socket.push({ op: 'skip', channelId: 'room', seq: 9 });
  socket.push({ op: 'retract', channelId: 'room', id: 'msg_room_6', seq: 6, eventSeq: 10, reason: 'typo' });
  assert.deepEqual(got.messages, [6]);
  assert.deepEqual(
    got.updates.map((u) => [u.id, u.seq, u.eventSeq, u.version, u.content, u.channelId]),
    [['msg_room_6', 6, 7, 2, { n: 6, edited: true }, 'room']],
  );
  assert.equal((got.updates[0] as unknown as { op?: string }).op, undefined, 'the event is the message, not the frame');
  assert.deepEqual(got.summaries, [
    { channelId: 'room', id: 'msg_room_6', seq: 6, eventSeq: 8, reactions: { '👍': { count: 1, users: ['bob'], clipped: false } } },
  ]);
  assert.deepEqual(got.retractions, [{ channelId: 'room', id: 'msg_room_6', seq: 6, eventSeq: 10, reason: 'typo' }]);
  assert.equal(room.lastSeq, 10, 'the position is the highest place seen: a change eventSeq counts');
  assert.equal(socket.ops('unsubscribe').length, 0, 'contiguous places: no gap');

  // a repeated change (a server resending after a repair) is dropped like a repeated message
  socket.push(updateFrame('room', 6, 7));
  assert.equal(got.updates.length, 1);

  // a reconnect resumes after the last change, not after the last message
  socket.drop(1006);
  await clock.advance(clock.nextIn()!);
  const second = lastSocket();
  second.accept();
  const [again] = second.ops('subscribe');
  assert.equal(again.since, 10);
  // the replay: an older message changed while away comes as its update, then the new message
  second.push(updateFrame('room', 3, 11, { version: 4 }));
  second.push(messageFrame('room', 12));
  second.push({ op: 'subscribed', ref: again.ref, channelId: 'room', lastSeq: 12 });
  second.push(summaryFrame('room', 12, 13, {}));
  assert.deepEqual(
    got.updates.map((u) => [u.seq, u.eventSeq]),
    [
      [6, 7],
      [3, 11],
    ],
  );
  assert.deepEqual(got.messages, [6, 12]);
  assert.deepEqual(got.summaries.at(-1)!.reactions, {}, 'the last reaction taken back: an empty summary');
  assert.equal(room.lastSeq, 13);
  client.close();
});

test('client changes - a change that jumps past the position live is a gap: re-subscribe from the position, the replay fills it', async () => {
  const { client, room, got, socket, live } = await subscribedRoom(5);
  live();
  socket.push(updateFrame('room', 2, 7)); // 6 is missing
  assert.equal(got.updates.length, 0, 'a change after a gap is not delivered');
  assert.equal(room.lastSeq, 5);
  socket.push(summaryFrame('room', 2, 8, {})); // belongs to the old subscription
  assert.equal(got.summaries.length, 0);
  const again = resubscribeAfterGap(socket);
  assert.equal(again.since, 5);
  socket.push(messageFrame('room', 6));
  socket.push(updateFrame('room', 2, 7));
  socket.push({ op: 'subscribed', ref: again.ref, channelId: 'room', lastSeq: 7 });
  socket.push(summaryFrame('room', 2, 8, { ok: { count: 1, users: ['bob'], clipped: false } }));
  assert.deepEqual(got.messages, [6]);
  assert.deepEqual(
    got.updates.map((u) => u.eventSeq),
    [7],
  );
  assert.deepEqual(
    got.summaries.map((s) => s.eventSeq),
    [8],
  );
  assert.equal(room.lastSeq, 8);

  // a retraction's eventSeq is a place too: one past a gap is held back the same way
  socket.push({ op: 'retract', channelId: 'room', id: 'msg_room_6', seq: 6, eventSeq: 10 });
  assert.equal(got.retractions.length, 0);
  assert.equal(resubscribeAfterGap(socket).since, 8);
  client.close();
});

test('client changes - an update older than the version already seen arrived late: not emitted, but its place counts', async () => {
  const { client, room, got, socket, live } = await subscribedRoom(20, 0);
  // the replay reads messages as they are when it reads them: message 3 already at version 3
  socket.push(messageFrame('room', 3, { version: 3, content: { n: 3, v: 3 } }));
  live();
  // the live edits that made version 2 and 3 come after it
  socket.push(updateFrame('room', 3, 21, { version: 2, content: { n: 3, v: 2 } }));
  assert.equal(got.updates.length, 0, 'version 2 after version 3: late, ignored');
  assert.equal(room.lastSeq, 21, 'its place still counts');
  socket.push(updateFrame('room', 3, 22, { version: 3, content: { n: 3, v: 3 } }));
  socket.push(updateFrame('room', 3, 23, { version: 4, content: { n: 3, v: 4 } }));
  assert.deepEqual(
    got.updates.map((u) => u.version),
    [3, 4],
  );
  socket.push(updateFrame('room', 3, 24, { version: 3 }));
  assert.deepEqual(
    got.updates.map((u) => u.version),
    [3, 4],
    'lower than an update seen: late',
  );
  // an update without version (a reaction change in a replay, never edited) is version 1
  socket.push(updateFrame('room', 5, 25, { version: undefined }));
  assert.equal(got.updates.at(-1)!.seq, 5);
  assert.equal(socket.ops('unsubscribe').length, 0, 'no gap along the way');
  assert.equal(room.lastSeq, 25);
  client.close();
});

test('client changes - a retract frame without eventSeq (an older server) is emitted and moves nothing', async () => {
  const { client, room, got, socket, live } = await subscribedRoom(5);
  live();
  socket.push({ op: 'retract', channelId: 'room', id: 'msg_room_4', seq: 4 });
  assert.deepEqual(got.retractions, [{ channelId: 'room', id: 'msg_room_4', seq: 4 }]);
  assert.equal(room.lastSeq, 5);
  socket.push(messageFrame('room', 6));
  assert.equal(socket.ops('unsubscribe').length, 0);
  client.close();
});

test('client changes - the version book keeps the highest version per message, forgets retracted ones and stays bounded', () => {
  const book = new VersionBook(2);
  assert.equal(book.accept('a', undefined), true);
  assert.equal(book.accept('a', 3), true);
  assert.equal(book.accept('a', 2), false);
  assert.equal(book.accept('a', 3), true, 'the same version again is not late');
  book.forget('a');
  assert.equal(book.accept('a', 2), true);
  assert.equal(book.accept('b', 5), true);
  assert.equal(book.accept('c', 5), true);
  assert.equal(book.accept('a', 1), true, 'the least recently seen was let go past the limit');
});

test('client changes - on Server-Sent Events a change advances the position a reopened stream resumes from', async () => {
  const fake = new FakeFetch();
  const { client, clock } = fakeClient({ WebSocket: ThrowingSocket as unknown as WebSocketConstructor, fetch: fake.fetch, transports: ['websocket', 'sse'] });
  await clock.advance(0);
  const updates: number[] = [];
  const room = client.channel('room');
  room.on('update', (u) => updates.push(u.eventSeq));
  room.subscribe(() => {});
  await clock.advance(0);
  const first = fake.lastStream();
  first.open().frame(connectedFrame()).frame({ op: 'subscribed', channelId: 'room', lastSeq: 1 });
  first
    .frame(messageFrame('room', 2))
    .frame(updateFrame('room', 2, 3))
    .frame(summaryFrame('room', 2, 4, {}));
  await settle();
  assert.deepEqual(updates, [3]);
  assert.equal(room.lastSeq, 4);
  // another channel joins: the stream is reopened, `room` from its position
  client.channel('other').subscribe(() => {});
  await clock.advance(0);
  assert.equal(first.aborted, true);
  assert.deepEqual(fake.lastStream().channels!.split(',').sort(), ['other', 'room~4']);
  client.close();
});
