/**
 * The client SDK's edits and reactions (libs/client/README.md, "Edits and reactions") against a
 * real gateway, channel-node, Postgres and NATS: `edit`, `react`, `unreact` and `versions` on a
 * WebSocket and on Server-Sent Events (HTTP), the `update` and `summary` events, and a resume that
 * catches up on what changed while the client was away, from a position changes moved.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RtmError, Message, MessageUpdate, ReactionsUpdate, Retraction } from '@rtm/client';
import { startCluster } from './helpers/cluster.ts';
import { client as http, mintToken } from './helpers/http.ts';
import { connected, nextState, sdkClient, until } from './helpers/sdk.ts';

/** What a channel hands out, in arrival order. */
function recorder() {
  const events: { messages: Message[]; updates: MessageUpdate[]; summaries: ReactionsUpdate[]; retractions: Retraction[] } = {
    messages: [],
    updates: [],
    summaries: [],
    retractions: [],
  };
  return events;
}

test('sdk message changes - edits, reactions and resume against a real cluster', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const gw = cluster.gateways[0]!;
  const control = http(gw.controlUrl, env.secretKey);
  const tokenFor =
    (userId: string, extra: object = {}) =>
    () =>
      mintToken(gw.controlUrl, env.secretKey, userId, extra);

  await t.test('live: the sender edits, everyone gets the update; reactions come as summaries; versions lists both contents', async (t) => {
    const alice = sdkClient(t, gw.realtimeUrl, tokenFor('alice'));
    const bob = sdkClient(t, gw.realtimeUrl, tokenFor('bob'));
    const seen = { alice: recorder(), bob: recorder() };
    for (const [name, client] of [
      ['alice', alice],
      ['bob', bob],
    ] as const) {
      const room = client.channel('changes');
      room.on('update', (u) => seen[name].updates.push(u));
      room.on('summary', (s) => seen[name].summaries.push(s));
      await room.subscribe((m) => seen[name].messages.push(m)).ready;
    }
    const sent = await alice.channel('changes').publish({ text: 'helo' });
    const edited = await alice.channel('changes').edit(sent.id, { text: 'hello' });
    assert.equal(edited.id, sent.id);
    assert.equal(edited.seq, sent.seq);
    assert.equal(edited.version, 2);
    assert.equal(edited.eventSeq, sent.seq + 1, "the edit takes the channel's next place");
    assert.equal(typeof edited.updatedAt, 'number');
    for (const name of ['alice', 'bob'] as const) {
      await until(`${name} gets the update`, () => seen[name].updates.length === 1);
      const [update] = seen[name].updates;
      assert.deepEqual(
        {
          id: update!.id,
          seq: update!.seq,
          eventSeq: update!.eventSeq,
          content: update!.content,
          version: update!.version,
          updatedBy: update!.updatedBy,
          channelId: update!.channelId,
        },
        { id: sent.id, seq: sent.seq, eventSeq: edited.eventSeq, content: { text: 'hello' }, version: 2, updatedBy: 'alice', channelId: 'changes' },
      );
    }
    // only the sender may edit
    await assert.rejects(bob.channel('changes').edit(sent.id, { text: 'mine now' }), (error: RtmError) => error.code === 'forbidden');

    const reacted = await bob.channel('changes').react(sent.id, '👍');
    assert.deepEqual(reacted, { id: sent.id, seq: sent.seq, type: '👍', reacted: true });
    for (const name of ['alice', 'bob'] as const) {
      await until(`${name} gets the summary`, () => seen[name].summaries.length === 1);
      const [summary] = seen[name].summaries;
      assert.deepEqual(summary!.reactions, { '👍': { count: 1, users: ['bob'], clipped: false } });
      assert.equal(summary!.id, sent.id);
      assert.equal(summary!.seq, sent.seq);
      assert.ok(summary!.eventSeq > edited.eventSeq);
    }
    assert.deepEqual(await bob.channel('changes').unreact(sent.id, '👍'), { id: sent.id, seq: sent.seq, type: '👍', reacted: false });
    await until('bob sees the reaction gone', () => seen.bob.summaries.length === 2);
    assert.deepEqual(seen.bob.summaries[1]!.reactions, {});
    // every place of the channel was delivered in order: the position is the last change's
    const last = seen.bob.summaries[1]!.eventSeq;
    assert.equal(bob.channel('changes').lastSeq, last);
    assert.deepEqual(
      seen.bob.messages.map((m) => m.seq),
      [sent.seq],
      'changes are not messages',
    );

    const versions = await bob.channel('changes').versions(sent.id);
    assert.deepEqual(
      versions.map((v) => [v.version, v.content, v.updatedBy]),
      [
        [1, { text: 'helo' }, null],
        [2, { text: 'hello' }, 'alice'],
      ],
    );
    // a token without the react capability is refused
    const reader = sdkClient(t, gw.realtimeUrl, tokenFor('carol', { capabilities: { '*': ['subscribe', 'history'] } }));
    await assert.rejects(reader.channel('changes').react(sent.id, 'ok'), (error: RtmError) => error.code === 'forbidden');
  });

  await t.test('resume: what changed while the client was away comes as update and retract events, from the last change seen', async (t) => {
    const alice = sdkClient(t, gw.realtimeUrl, tokenFor('alice'));
    const carol = sdkClient(t, gw.realtimeUrl, tokenFor('carol'));
    const seen = recorder();
    const room = carol.channel('resume');
    room.on('update', (u) => seen.updates.push(u));
    room.on('retract', (r) => seen.retractions.push(r));
    const resumes: boolean[] = [];
    room.on('subscribed', (info) => resumes.push(info.resumed));
    await room.subscribe((m) => seen.messages.push(m)).ready;
    const first = await alice.channel('resume').publish({ text: 'one' });
    const second = await alice.channel('resume').publish({ text: 'two' });
    const edit = await alice.channel('resume').edit(first.id, { text: 'one, edited' });
    await until('carol is at the edit', () => room.lastSeq === edit.eventSeq);
    assert.equal(seen.updates.length, 1);

    carol.close();
    // while carol is away: an edit and a reaction of older messages, a new message, a retraction
    const again = await alice.channel('resume').edit(first.id, { text: 'one, edited twice' });
    await control.post(`/v1/channels/resume/messages/${second.id}/reactions`, { type: 'ok', userId: 'dave' });
    const third = await alice.channel('resume').publish({ text: 'three' });
    const retracted = await alice.channel('resume').retract(second.id);
    assert.equal(retracted.eventSeq, third.seq + 1);

    carol.connect();
    await nextState(carol, 'connected');
    await until('carol resumed', () => resumes.length === 2);
    assert.deepEqual(resumes, [false, true]);
    // each changed older message once, as it is now, in the sequence's order, and the new message
    assert.deepEqual(
      seen.updates.map((u) => [u.id, u.eventSeq, u.version, u.content]),
      [
        [first.id, edit.eventSeq, 2, { text: 'one, edited' }],
        [first.id, again.eventSeq, 3, { text: 'one, edited twice' }],
      ],
    );
    assert.deepEqual(
      seen.messages.map((m) => m.seq),
      [first.seq, second.seq, third.seq],
    );
    assert.deepEqual(
      seen.retractions.map((r) => [r.id, r.seq, r.eventSeq]),
      [[second.id, second.seq, retracted.eventSeq]],
    );
    assert.equal(room.lastSeq, retracted.eventSeq, "the position is the retraction's place");
    // and live again from there
    const fourth = await alice.channel('resume').publish({ text: 'four' });
    await until('carol gets the next message live', () => seen.messages.length === 4);
    assert.equal(fourth.seq, retracted.eventSeq! + 1);
    assert.equal(room.lastSeq, fourth.seq);
  });

  await t.test('Server-Sent Events: edits and reactions go over HTTP, changes arrive on the event stream', async (t) => {
    const dave = sdkClient(t, gw.realtimeUrl, tokenFor('dave'), { transports: ['sse'] });
    const erin = sdkClient(t, gw.realtimeUrl, tokenFor('erin'), { transports: ['sse'] });
    await Promise.all([connected(dave), connected(erin)]);
    assert.equal(dave.transport, 'sse');
    const seen = recorder();
    const room = erin.channel('sse-changes');
    room.on('update', (u) => seen.updates.push(u));
    room.on('summary', (s) => seen.summaries.push(s));
    await room.subscribe((m) => seen.messages.push(m)).ready;
    const sent = await dave.channel('sse-changes').publish({ text: 'over http' });
    const edited = await dave.channel('sse-changes').edit(sent.id, { text: 'edited over http' });
    assert.equal(edited.version, 2);
    assert.equal(edited.eventSeq, sent.seq + 1);
    const reacted = await erin.channel('sse-changes').react(sent.id, 'heart');
    assert.deepEqual(reacted, { id: sent.id, seq: sent.seq, type: 'heart', reacted: true });
    await until('erin gets the update and the summary', () => seen.updates.length === 1 && seen.summaries.length === 1);
    assert.deepEqual(seen.updates[0]!.content, { text: 'edited over http' });
    assert.deepEqual(seen.summaries[0]!.reactions, { heart: { count: 1, users: ['erin'], clipped: false } });
    assert.equal(room.lastSeq, seen.summaries[0]!.eventSeq);
    await assert.rejects(erin.channel('sse-changes').edit(sent.id, { text: 'no' }), (error: RtmError) => error.code === 'forbidden');
    assert.equal((await dave.channel('sse-changes').versions(sent.id)).length, 2);
  });
});
