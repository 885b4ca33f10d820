import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ChannelPosition, InboxPosition } from '../../libs/client/src/resume.ts';
import { fakeClient, lastSocket, messageFrame, settle } from '../helpers/client-fakes.ts';

test('client resume - replay delivers ascending seqs (jumps allowed), live demands position + 1', () => {
  const position = new ChannelPosition(3);
  assert.equal(position.startReplay(), 3);
  assert.equal(position.accept(2), 'duplicate');
  assert.equal(position.accept(3), 'duplicate');
  assert.equal(position.accept(4), 'deliver');
  assert.equal(position.accept(7), 'deliver', 'a replay may skip seqs addressed to others');
  assert.equal(position.accept(7), 'duplicate');
  position.subscribed(9);
  assert.equal(position.position, 9, 'subscribed confirms everything up to lastSeq');
  assert.equal(position.accept(9), 'duplicate');
  assert.equal(position.accept(11), 'gap');
  assert.equal(position.position, 9, 'a gap does not move the position');
  assert.equal(position.accept(10), 'deliver');
  assert.equal(position.startReplay(), 10, 'a re-subscription resumes from the last seq');
});

test('client resume - without since the position starts at the lastSeq of subscribed', () => {
  const position = new ChannelPosition();
  assert.equal(position.startReplay(), undefined);
  position.subscribed(41);
  assert.equal(position.accept(41), 'duplicate');
  assert.equal(position.accept(42), 'deliver');
  // a lastSeq below the position (a since beyond the channel's end) never moves it back
  position.startReplay();
  position.subscribed(5);
  assert.equal(position.position, 42);
});

test('client resume - whatever frames arrive (repeats, reordering, re-subscriptions), delivered seqs strictly increase and a live gap is never delivered', () => {
  fc.assert(
    fc.property(
      fc.array(fc.oneof(fc.record({ seq: fc.integer({ min: 0, max: 60 }) }), fc.record({ subscribed: fc.integer({ min: 0, max: 60 }) })), { maxLength: 200 }),
      fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
      (events, since) => {
        const position = new ChannelPosition(since);
        position.startReplay();
        const delivered: number[] = [];
        for (const event of events) {
          if ('subscribed' in event) {
            position.subscribed(event.subscribed);
            continue;
          }
          const before = position.position;
          const live = position.live;
          const verdict = position.accept(event.seq);
          if (verdict === 'deliver') {
            delivered.push(event.seq);
            if (live && before !== undefined) assert.equal(event.seq, before + 1);
          }
          if (verdict === 'gap') {
            // what the client does: unsubscribe, then subscribe again from the position
            position.startReplay();
          }
        }
        for (let i = 1; i < delivered.length; i++) assert.ok(delivered[i]! > delivered[i - 1]!, `delivered ${delivered}`);
        if (since !== undefined) assert.ok(delivered.every((seq) => seq > since));
      },
    ),
  );
});

test('client resume - inbox: each notification id once, since = the newest id', () => {
  const inbox = new InboxPosition('ntf_b');
  assert.equal(inbox.accept('ntf_c'), true);
  assert.equal(inbox.accept('ntf_c'), false);
  assert.equal(inbox.accept('ntf_a'), true, 'an older id not seen before is new (two producers may interleave)');
  assert.equal(inbox.since, 'ntf_c');
  const bounded = new InboxPosition(undefined, 3);
  for (const id of ['n1', 'n2', 'n3', 'n4']) bounded.accept(id);
  assert.equal(bounded.accept('n4'), false);
  assert.equal(bounded.accept('n1'), true, 'only the most recent ids are remembered');
});

test('client resume - after a reconnect every channel re-subscribes from its last seq and sees each seq once, in order', async () => {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  lastSocket().accept();
  const got: Record<string, number[]> = { a: [], b: [] };
  client.channel('a').subscribe((m) => got.a!.push(m.seq), { since: 0 });
  client.channel('b').subscribe((m) => got.b!.push(m.seq));
  const first = lastSocket();
  const [subA, subB] = first.ops('subscribe');
  assert.deepEqual(subA, { op: 'subscribe', ref: subA.ref, channelId: 'a', since: 0 });
  assert.deepEqual(subB, { op: 'subscribe', ref: subB.ref, channelId: 'b' });
  for (const seq of [1, 2, 3]) first.push(messageFrame('a', seq));
  first.push({ op: 'subscribed', ref: subA.ref, channelId: 'a', lastSeq: 3 });
  first.push({ op: 'subscribed', ref: subB.ref, channelId: 'b', lastSeq: 10 });
  first.push(messageFrame('a', 4));
  first.push(messageFrame('b', 11));
  first.drop(4503, 'gateway draining');
  await clock.advance(clock.nextIn()!);

  const second = lastSocket();
  assert.notEqual(second, first);
  second.accept();
  const [again, againB] = second.ops('subscribe');
  assert.equal(again.since, 4, 'a resumes after its last delivered seq');
  assert.equal(againB.since, 11, 'b resumes after its last delivered seq');
  // the replay overlaps what was delivered (a server may resend): duplicates are dropped
  for (const seq of [3, 4, 5, 6]) second.push(messageFrame('a', seq));
  second.push({ op: 'subscribed', ref: again.ref, channelId: 'a', lastSeq: 6 });
  second.push({ op: 'subscribed', ref: againB.ref, channelId: 'b', lastSeq: 11 });
  second.push(messageFrame('a', 6));
  second.push(messageFrame('a', 7));
  second.push(messageFrame('b', 12));
  assert.deepEqual(got.a, [1, 2, 3, 4, 5, 6, 7]);
  assert.deepEqual(got.b, [11, 12]);
  client.close();
});

test('client resume - a gap seen live re-subscribes from the last seq; frames of the old subscription are ignored', async () => {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  const socket = lastSocket();
  socket.accept();
  const got: number[] = [];
  client.channel('a').subscribe((m) => got.push(m.seq));
  const sub = socket.ops('subscribe')[0];
  socket.push({ op: 'subscribed', ref: sub.ref, channelId: 'a', lastSeq: 5 });
  socket.push(messageFrame('a', 6));
  socket.push(messageFrame('a', 8)); // 7 is missing
  const unsub = socket.ops('unsubscribe');
  assert.equal(unsub.length, 1, 'the gap starts a re-subscription');
  assert.equal(socket.ops('subscribe').length, 1, 'the new subscribe waits for the unsubscribe answer');
  socket.push(messageFrame('a', 9)); // still the old subscription: ignored
  socket.push({ op: 'unsubscribed', ref: unsub[0].ref, channelId: 'a' });
  const resub = socket.ops('subscribe')[1];
  assert.equal(resub.since, 6);
  for (const seq of [7, 8, 9]) socket.push(messageFrame('a', seq));
  socket.push({ op: 'subscribed', ref: resub.ref, channelId: 'a', lastSeq: 9 });
  socket.push(messageFrame('a', 10));
  assert.deepEqual(got, [6, 7, 8, 9, 10]);
  client.close();
  await settle();
});

test('client resume - a skip (a seq addressed to others) advances the position without a delivery or a re-subscription', async () => {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  const socket = lastSocket();
  socket.accept();
  const got: number[] = [];
  client.channel('a').subscribe((m) => got.push(m.seq));
  const sub = socket.ops('subscribe')[0];
  socket.push({ op: 'subscribed', ref: sub.ref, channelId: 'a', lastSeq: 5 });
  socket.push(messageFrame('a', 6));
  socket.push({ op: 'skip', channelId: 'a', seq: 7 });
  socket.push({ op: 'skip', channelId: 'a', seq: 7 });
  socket.push(messageFrame('a', 8));
  assert.deepEqual(got, [6, 8]);
  assert.equal(socket.ops('unsubscribe').length, 0, 'no re-subscription');
  client.close();
  await settle();
});

test('client resume - ephemeral messages are delivered live without moving the position', async () => {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  const socket = lastSocket();
  socket.accept();
  const got: string[] = [];
  client.channel('a').subscribe((m) => got.push(`${m.ephemeral ? 'e' : 'p'}${m.seq}`));
  const sub = socket.ops('subscribe')[0];
  socket.push({ op: 'subscribed', ref: sub.ref, channelId: 'a', lastSeq: 2 });
  socket.push(messageFrame('a', 2, { ephemeral: true, id: 'eph_1' }));
  socket.push(messageFrame('a', 3));
  socket.push(messageFrame('a', 3, { ephemeral: true, id: 'eph_2' }));
  assert.deepEqual(got, ['e2', 'p3', 'e3']);
  assert.equal(socket.ops('unsubscribe').length, 0);
  client.close();
});

test('client resume - the inbox re-subscribes from the newest delivered id and drops repeats', async () => {
  const { client, clock } = fakeClient();
  await clock.advance(0);
  lastSocket().accept();
  const got: string[] = [];
  client.inbox.subscribe((n) => got.push(n.id));
  const first = lastSocket();
  const sub = first.ops('subscribe-inbox')[0];
  assert.deepEqual(sub, { op: 'subscribe-inbox', ref: sub.ref });
  const note = (id: string) => ({ op: 'notification', id, type: 't', payload: {}, timestamp: 1 });
  first.push(note('ntf_1'));
  first.push({ op: 'inbox-subscribed', ref: sub.ref });
  first.push(note('ntf_2'));
  first.drop(1006);
  await clock.advance(clock.nextIn()!);
  const second = lastSocket();
  second.accept();
  const again = second.ops('subscribe-inbox')[0];
  assert.equal(again.since, 'ntf_2');
  second.push(note('ntf_2'));
  second.push(note('ntf_3'));
  second.push({ op: 'inbox-subscribed', ref: again.ref });
  assert.deepEqual(got, ['ntf_1', 'ntf_2', 'ntf_3']);
  client.close();
});
