/**
 * @rtm/react's useChannel without React: followChannel (what the hook runs in its effect) on a
 * fake client, and the list helpers an application applies changes with.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Message, MessageUpdate } from '@rtm/client';
import { followChannel } from '../../libs/react/src/follow-channel.ts';
import { withRetraction, withSummary, withUpdate } from '../../libs/react/src/message-list.ts';
import { fakeClient, lastSocket, messageFrame, settle } from '../helpers/client-fakes.ts';
import { FakeFetch } from '../helpers/sse-fakes.ts';

const message = (seq: number, extra: Record<string, unknown> = {}) => ({ ...messageFrame('room', seq), ...extra }) as Message;
const update = (seq: number, eventSeq: number, version: number, text: string) =>
  ({ ...message(seq, { version, updatedAt: 9, updatedBy: 'bob', content: { text } }), eventSeq }) as MessageUpdate;

test('react useChannel - changes that arrive while the history is read follow the history, in arrival order', async () => {
  const fake = new FakeFetch();
  const { client, clock } = fakeClient({ fetch: fake.fetch });
  await clock.advance(0);
  const socket = lastSocket();
  socket.accept();
  let list: Message[] = [];
  const log: string[] = [];
  let ready = false;
  const stop = followChannel(client.channel('room'), 2, undefined, () => ({
    message: (m) => {
      log.push(`message ${m.seq}`);
      list = [...list, m];
    },
    update: (u) => {
      log.push(`update ${u.eventSeq}`);
      list = withUpdate(list, u);
    },
    summary: (s) => {
      log.push(`summary ${s.eventSeq}`);
      list = withSummary(list, s);
    },
    retract: (r) => {
      log.push(`retract ${r.eventSeq}`);
      list = withRetraction(list, r);
    },
    ready: () => (ready = true),
    error: (error) => assert.fail(error),
  }));
  const [subscribe] = socket.ops('subscribe');
  socket.push({ op: 'subscribed', ref: subscribe.ref, channelId: 'room', lastSeq: 3 });
  await settle();
  const [history] = fake.requests.filter((r) => r.path === '/v1/channels/room/history');
  assert.ok(history, 'the history is read once the subscription is live');
  // while the history is on its way: an edit of message 2, a reaction to 3, a new message, a retraction of 3
  socket.push({ op: 'update', ...update(2, 4, 2, 'edited'), channelId: 'room' });
  socket.push({ op: 'summary', channelId: 'room', id: 'msg_room_3', seq: 3, eventSeq: 5, reactions: { ok: { count: 1, users: ['bob'], clipped: false } } });
  socket.push(messageFrame('room', 6));
  assert.deepEqual(log, [], 'nothing before the history');
  history!.reply(200, { messages: [messageFrame('room', 2), messageFrame('room', 3)], hasMore: true });
  await settle();
  assert.equal(ready, true);
  assert.deepEqual(log, ['message 2', 'message 3', 'update 4', 'summary 5', 'message 6']);
  socket.push({ op: 'retract', channelId: 'room', id: 'msg_room_3', seq: 3, eventSeq: 7 });
  assert.deepEqual(log.at(-1), 'retract 7', 'live changes are handed over at once');
  assert.deepEqual(
    list.map((m) => [m.seq, m.content, m.version, m.retracted, m.reactions]),
    [
      [2, { text: 'edited' }, 2, false, undefined],
      [3, null, undefined, true, undefined],
      [6, { n: 6 }, undefined, false, undefined],
    ],
  );
  stop();
  socket.push({ op: 'update', ...update(2, 8, 3, 'after stop'), channelId: 'room' });
  assert.equal(log.at(-1), 'retract 7', 'nothing after stop');
  assert.equal(socket.ops('unsubscribe').length, 1);
  client.close();
});

test('react message list - withUpdate keeps the higher version; withSummary replaces reactions; withRetraction tombstones', () => {
  const list = [message(1), message(2, { version: 3, content: { text: 'v3' } })];
  const edited = withUpdate(list, update(1, 5, 2, 'new'));
  assert.deepEqual(edited[0]!.content, { text: 'new' });
  assert.equal(edited[0]!.version, 2);
  assert.equal((edited[0] as unknown as { eventSeq?: number }).eventSeq, undefined, 'a message, not the change');
  assert.equal(withUpdate(list, update(2, 6, 2, 'late')), list, 'a late (lower) version changes nothing');
  assert.equal(withUpdate(list, update(9, 7, 2, 'unknown')), list, 'a message not in the list stays out');

  const reactions = { '👍': { count: 2, users: ['a', 'b'], clipped: false } };
  const reacted = withSummary(list, { channelId: 'room', id: 'msg_room_1', seq: 1, eventSeq: 8, reactions });
  assert.deepEqual(reacted[0]!.reactions, reactions);
  const cleared = withSummary(reacted, { channelId: 'room', id: 'msg_room_1', seq: 1, eventSeq: 9, reactions: {} });
  assert.equal('reactions' in cleared[0]!, false, 'no reactions left: the field goes, as in history');

  const retracted = withRetraction(reacted, { channelId: 'room', id: 'msg_room_1', seq: 1, eventSeq: 10 });
  assert.deepEqual([retracted[0]!.retracted, retracted[0]!.content, retracted[0]!.reactions], [true, null, undefined]);
  assert.equal(withRetraction(retracted, { channelId: 'room', id: 'msg_room_1', seq: 1 }), retracted, 'already a tombstone');
  assert.deepEqual(list[0], message(1), 'the lists given are never changed');
});
