/**
 * Messages that change, through the real processes (two gateways, a channel-node, a dispatcher):
 * edits and reactions reach every subscriber once and in the channel's order; history and versions
 * show the latest state; a resume replays what changed while away, exactly; reactions are
 * coalesced into summaries; webhook endpoints get `message.updated` and `message.reactions`,
 * verified with the Standard Webhooks library; bad requests get the documented errors.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Webhook } from 'standardwebhooks';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken } from './helpers/http.ts';
import { openSocket, type TestSocket } from './helpers/ws.ts';
import { eventually, startReceiver } from './helpers/webhook-receiver.ts';
import { ConnectServerFrame } from '@rtm/schemas';

/** A frame's place in the channel's sequence (messages by seq, changes by eventSeq, skips). */
const positionOf = (f: any): number | undefined =>
  f.op === undefined ? (f.ephemeral ? undefined : f.seq) : f.op === 'skip' ? f.seq : ['update', 'summary', 'retract'].includes(f.op) ? f.eventSeq : undefined;

/** The sequenced frames of `channelId` received on a /v1/connect socket, in order. */
const sequenced = (socket: TestSocket, channelId: string) =>
  socket.frames.filter((f) => f.channelId === channelId && positionOf(f) !== undefined && f.op !== 'subscribed');

const upTo = (socket: TestSocket, channelId: string, position: number) =>
  socket.waitFor(`${channelId} at ${position}`, (f) => f.channelId === channelId && positionOf(f) === position, 20_000);

/** A /v1/connect socket once the server said `connected`. */
async function connect(baseUrl: string, token: string): Promise<TestSocket> {
  const socket = openSocket(baseUrl, `/v1/connect?token=${token}`);
  await socket.waitFor('connected', (f) => f.op === 'connected');
  return socket;
}

function assertDocumented(socket: TestSocket): void {
  for (const frame of socket.frames) assert.ok(ConnectServerFrame.safeParse(frame).success, `undocumented frame ${JSON.stringify(frame)}`);
}

function assertContiguous(frames: any[], from: number, to: number): void {
  assert.deepEqual(
    frames.map(positionOf),
    Array.from({ length: to - from + 1 }, (_, i) => from + i),
    'every position once, in order',
  );
}

test('message changes - edits, reactions, retractions in order on two gateways; resume; history; webhooks', async (t) => {
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 1, dispatchers: 1 });
  const env = await cluster.createEnvironment();
  const [gw0, gw1] = [cluster.gateways[0]!, cluster.gateways[1]!];
  const control = client(gw0.controlUrl, env.secretKey);
  const tokens = Object.fromEntries(
    await Promise.all(['alice', 'bob', 'carol', 'dave'].map(async (u) => [u, await mintToken(gw0.controlUrl, env.secretKey, u)] as const)),
  );
  const http = (user: string, gw = gw0) => client(gw.realtimeUrl, tokens[user]!);

  const receiver = await startReceiver(t);
  const endpoint = await control.post('/v1/webhook-endpoints', {
    url: receiver.url,
    eventTypes: ['message.updated', 'message.reactions'],
  });
  assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));

  await t.test('an edit and reactions reach every subscriber once, in order with the messages', async () => {
    const alice = await connect(gw0.realtimeUrl, tokens.alice!);
    const bob = await connect(gw1.realtimeUrl, tokens.bob!);
    for (const s of [alice, bob]) {
      s.send({ op: 'subscribe', ref: 'sub', channelId: 'chat', since: 0 });
      await s.waitFor('subscribed', (f) => f.ref === 'sub' && f.op === 'subscribed');
    }
    const first = await control.post('/v1/channels/chat/messages', { content: { text: 'from the bot' } });
    alice.send({ op: 'publish', ref: 'p1', channelId: 'chat', content: { text: 'helo' } });
    const published = await alice.waitFor('ack p1', (f) => f.ref === 'p1');
    alice.send({ op: 'edit', ref: 'e1', channelId: 'chat', id: published.id, content: { text: 'hello', edited: true } });
    const edited = await alice.waitFor('ack e1', (f) => f.ref === 'e1');
    assert.equal(edited.op, 'ack', JSON.stringify(edited));
    assert.equal(edited.version, 2);
    assert.equal(edited.eventSeq, published.seq + 1);
    // bob reacts over HTTP on the other gateway, carol through the control plane, while more is published
    const reacted = await http('bob', gw1).post(`/v1/channels/chat/messages/${published.id}/reactions`, { type: 'thumbsup' });
    assert.equal(reacted.status, 200, JSON.stringify(reacted.body));
    assert.deepEqual(reacted.body, { id: published.id, seq: published.seq, type: 'thumbsup', reacted: true });
    const [third, carol] = await Promise.all([
      control.post('/v1/channels/chat/messages', { content: { text: 'third' } }),
      control.post(`/v1/channels/chat/messages/${published.id}/reactions`, { type: 'thumbsup', userId: 'carol' }),
    ]);
    assert.equal(third.status, 201);
    assert.equal(carol.status, 200);
    const retracted = await control.delete(`/v1/channels/chat/messages/${first.body.id}`);
    assert.equal(retracted.status, 200);
    const last = retracted.body.eventSeq as number;
    assert.ok(last > third.body.seq, 'the retraction took a seq after the publishes');

    for (const s of [alice, bob]) await upTo(s, 'chat', last);
    const seenByAlice = sequenced(alice, 'chat');
    const seenByBob = sequenced(bob, 'chat');
    assertContiguous(seenByAlice, 1, last);
    assert.deepEqual(
      seenByBob.map((f) => ({ ...f })),
      seenByAlice.map((f) => ({ ...f })),
      'both gateways sent the same frames in the same order',
    );
    const update = seenByAlice.find((f) => f.op === 'update')!;
    assert.deepEqual(
      [update.id, update.version, update.content, update.updatedBy, update.eventSeq],
      [published.id, 2, { text: 'hello', edited: true }, 'alice', edited.eventSeq],
    );
    const summaries = seenByAlice.filter((f) => f.op === 'summary');
    assert.ok(summaries.length >= 1 && summaries.length <= 2, `one summary per 250 ms: ${summaries.length}`);
    assert.deepEqual(summaries.at(-1)!.reactions, { thumbsup: { count: 2, users: ['bob', 'carol'], clipped: false } });
    assert.deepEqual(seenByAlice.at(-1), { op: 'retract', channelId: 'chat', id: first.body.id, seq: first.body.seq, eventSeq: last });
    assertDocumented(alice);
    assertDocumented(bob);
    await Promise.all([alice.close(), bob.close()]);

    // history (through the other gateway) shows the latest version and the summary
    const history = await http('bob', gw1).get('/v1/channels/chat/history');
    const byId = new Map(history.body.messages.map((m: any) => [m.id, m]));
    const shown: any = byId.get(published.id);
    assert.deepEqual([shown.content, shown.version, shown.updatedBy, shown.reactions.thumbsup.count], [{ text: 'hello', edited: true }, 2, 'alice', 2]);
    assert.equal((byId.get(first.body.id) as any).retracted, true);
    assert.equal('version' in (byId.get(third.body.id) as any), false, 'an unedited message has no version fields');
    const versions = await http('carol').get(`/v1/channels/chat/messages/${published.id}/versions`);
    assert.deepEqual(
      versions.body.versions.map((v: any) => [v.version, v.content, v.updatedBy]),
      [
        [1, { text: 'helo' }, null],
        [2, { text: 'hello', edited: true }, 'alice'],
      ],
    );
    assert.deepEqual(
      (await control.get(`/v1/channels/chat/messages/${first.body.id}/versions`)).body,
      { versions: [] },
      'a retracted message keeps no version',
    );
  });

  await t.test('a resume replays what changed while away, exactly once per message', async () => {
    const ids: string[] = [];
    for (let n = 1; n <= 4; n++) ids.push((await control.post('/v1/channels/resume/messages', { content: { n } })).body.id);
    const dave = await connect(gw0.realtimeUrl, tokens.dave!);
    dave.send({ op: 'subscribe', ref: 'sub', channelId: 'resume', since: 0 });
    await dave.waitFor('subscribed', (f) => f.ref === 'sub' && f.op === 'subscribed');
    const seen = Math.max(...sequenced(dave, 'resume').map((f) => positionOf(f)!));
    assert.equal(seen, 4);
    await dave.close();

    // while dave is away: an edit of 1, reactions to 2, a retraction of 3, an edit of 3 refused, a new message 5 edited twice
    assert.equal((await control.patch(`/v1/channels/resume/messages/${ids[0]}`, { content: { n: 1, v: 2 }, userId: 'ops' })).status, 200);
    await Promise.all(['alice', 'bob'].map((u) => http(u).post(`/v1/channels/resume/messages/${ids[1]}/reactions`, { type: 'heart' })));
    assert.equal((await control.delete(`/v1/channels/resume/messages/${ids[2]}`)).status, 200);
    const conflict = await control.patch(`/v1/channels/resume/messages/${ids[2]}`, { content: { n: 3 } });
    assert.deepEqual([conflict.status, errorCode(conflict)], [409, 'conflict']);
    const fifth = await control.post('/v1/channels/resume/messages', { content: { n: 5 } });
    await control.patch(`/v1/channels/resume/messages/${fifth.body.id}`, { content: { n: 5, v: 2 } });
    const lastEdit = await control.patch(`/v1/channels/resume/messages/${fifth.body.id}`, { content: { n: 5, v: 3 } });
    const last = lastEdit.body.eventSeq as number;

    for (const [name, open] of [
      [
        '/v1/connect',
        async () => {
          const s = await connect(gw1.realtimeUrl, tokens.dave!);
          s.send({ op: 'subscribe', ref: 'again', channelId: 'resume', since: seen });
          return s;
        },
      ],
      ['channel socket', async () => openSocket(gw1.realtimeUrl, `/v1/channels/resume?since=${seen}&token=${tokens.dave}`)],
    ] as const) {
      const socket = await open();
      const ready = await socket.waitFor('replay over', (f) => f.op === 'subscribed' || f.op === 'ready');
      assert.equal(ready.lastSeq, last, name);
      const replayed = socket.frames.filter((f) => positionOf(f) !== undefined);
      const shape = replayed.map((f) => [f.op ?? 'message', f.id ?? f.seq]);
      assert.deepEqual(
        shape,
        [
          ['update', ids[0]],
          ['update', ids[1]],
          ['retract', ids[2]],
          ['message', fifth.body.id],
        ],
        `${name}: each changed message once, in the order of its last change, then the new message`,
      );
      assert.deepEqual([replayed[0].content, replayed[0].version, replayed[0].updatedBy], [{ n: 1, v: 2 }, 2, 'ops']);
      assert.deepEqual(replayed[1].reactions.heart.users.sort(), ['alice', 'bob']);
      assert.deepEqual([replayed[3].content, replayed[3].version], [{ n: 5, v: 3 }, 3], 'the new message as it is now');
      const positions = replayed.map(positionOf) as number[];
      assert.deepEqual(
        [...positions].sort((a, b) => a - b),
        positions,
        `${name}: in the sequence's order`,
      );
      assert.ok(positions.every((p) => p > seen && p <= last));
      await socket.close();
    }

    // nothing changed since: nothing replayed
    const quiet = await connect(gw0.realtimeUrl, tokens.dave!);
    quiet.send({ op: 'subscribe', ref: 'q', channelId: 'resume', since: last });
    await quiet.waitFor('subscribed', (f) => f.ref === 'q' && f.op === 'subscribed');
    assert.equal(sequenced(quiet, 'resume').length, 0);
    await quiet.close();
  });

  await t.test('reactions are coalesced: a burst makes a few summaries with every reaction counted', async () => {
    const message = await control.post('/v1/channels/storm/messages', { content: { text: 'react to me' } });
    const watcher = await connect(gw1.realtimeUrl, tokens.dave!);
    watcher.send({ op: 'subscribe', ref: 'w', channelId: 'storm', since: 0 });
    await watcher.waitFor('subscribed', (f) => f.ref === 'w' && f.op === 'subscribed');
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 120 }, (_, i) =>
        control.post(`/v1/channels/storm/messages/${message.body.id}/reactions`, { type: i % 2 ? 'fire' : 'clap', userId: `user-${i}` }),
      ),
    );
    const elapsed = Date.now() - started;
    assert.ok(answers.every((a) => a.status === 200 && a.body.reacted === true));
    const summary = await watcher.waitFor(
      'full summary',
      (f) => f.op === 'summary' && f.reactions.fire?.count === 60 && f.reactions.clap?.count === 60,
      20_000,
    );
    assert.equal(summary.reactions.fire.users.length, 10);
    assert.equal(summary.reactions.fire.clipped, true);
    const summaries = watcher.frames.filter((f) => f.op === 'summary');
    // at most one per 250 ms while they arrived, plus the first and the last
    assert.ok(summaries.length <= Math.ceil((Date.now() - started) / 250) + 2, `${summaries.length} summaries in ${elapsed} ms`);
    assert.ok(summaries.length < 60, `${summaries.length} summaries for 120 reactions`);
    // removing one of the first users named: the next summary has one less, and names the next one
    const before = summary.reactions.fire.users as string[];
    const gone = before[0]!;
    assert.equal((await control.delete(`/v1/channels/storm/messages/${message.body.id}/reactions/fire?userId=${gone}`)).body.reacted, false);
    const after = await watcher.waitFor('one less', (f) => f.op === 'summary' && f.reactions.fire?.count === 59);
    assert.deepEqual(after.reactions.fire.users.slice(0, 9), before.slice(1), 'the others keep their order');
    assert.equal(after.reactions.fire.users.length, 10, 'and the next one in order takes the tenth place');
    assert.ok(!after.reactions.fire.users.includes(gone));
    assert.deepEqual(after.reactions.clap, summary.reactions.clap, 'a type the change did not touch is as it was');
    // the summary stored (history) says the same
    const stored = await control.get(`/v1/channels/storm/history`);
    const shown = stored.body.messages.find((m: any) => m.id === message.body.id);
    assert.deepEqual([shown.reactions.fire.count, shown.reactions.clap.count], [59, 60]);
    await watcher.close();
  });

  await t.test('reaction caps: 16 types per user on a message, 64 types per message', async () => {
    const message = await control.post('/v1/channels/caps/messages', { content: { text: 'cap me' } });
    const url = `/v1/channels/caps/messages/${message.body.id}/reactions`;
    const statuses = (answers: { status: number }[]) => answers.map((a) => a.status);
    // one user: 16 types, then a 17th refused; the same type again is still answered
    const mine = await Promise.all(Array.from({ length: 16 }, (_, i) => control.post(url, { type: `t${i}`, userId: 'capped' })));
    assert.deepEqual(statuses(mine), Array(16).fill(200));
    const seventeenth = await control.post(url, { type: 't16', userId: 'capped' });
    assert.deepEqual([seventeenth.status, errorCode(seventeenth)], [409, 'conflict']);
    assert.equal((await control.post(url, { type: 't3', userId: 'capped' })).body.reacted, true);
    // the message: 48 more types from others (64), then a 65th refused; a type it carries is still open to anyone
    const others = await Promise.all(Array.from({ length: 48 }, (_, i) => control.post(url, { type: `t${16 + i}`, userId: `other-${i}` })));
    assert.deepEqual(statuses(others), Array(48).fill(200));
    const sixtyFifth = await control.post(url, { type: 't64', userId: 'newcomer' });
    assert.deepEqual([sixtyFifth.status, errorCode(sixtyFifth)], [409, 'conflict']);
    assert.equal((await control.post(url, { type: 't40', userId: 'newcomer' })).body.reacted, true);
    // once a type's last reaction is gone, a new type has room again
    assert.equal((await control.delete(`${url}/t63?userId=other-47`)).body.reacted, false);
    assert.equal((await control.post(url, { type: 't64', userId: 'newcomer' })).status, 200);
  });

  await t.test('bad edits and reactions get the documented errors', async () => {
    const own = await http('alice').post('/v1/channels/errors/messages', { content: { text: 'mine' } });
    const cases: [string, ReturnType<typeof control.get>, number, string][] = [
      ['another user edits', http('bob').patch(`/v1/channels/errors/messages/${own.body.id}`, { content: { x: 1 } }), 403, 'forbidden'],
      ['unknown message', control.patch('/v1/channels/errors/messages/msg_nope', { content: { x: 1 } }), 404, 'not_found'],
      ['content not an object', http('alice').patch(`/v1/channels/errors/messages/${own.body.id}`, { content: 'text' }), 400, 'invalid_request'],
      [
        'content too large',
        http('alice').patch(`/v1/channels/errors/messages/${own.body.id}`, { content: { x: 'y'.repeat(70_000) } }),
        413,
        'payload_too_large',
      ],
      ['reaction type with a space', http('bob').post(`/v1/channels/errors/messages/${own.body.id}/reactions`, { type: 'a b' }), 400, 'invalid_request'],
      ['reaction type too long', http('bob').post(`/v1/channels/errors/messages/${own.body.id}/reactions`, { type: 'x'.repeat(33) }), 400, 'invalid_request'],
      [
        'reaction without a user on the control plane',
        control.post(`/v1/channels/errors/messages/${own.body.id}/reactions`, { type: 'ok' }),
        400,
        'invalid_request',
      ],
      ['reaction to an unknown message', http('bob').post('/v1/channels/errors/messages/msg_nope/reactions', { type: 'ok' }), 404, 'not_found'],
    ];
    for (const [what, pending, status, code] of cases) {
      const answer = await pending;
      assert.deepEqual([answer.status, errorCode(answer)], [status, code], what);
    }
    // a token without the edit / react capabilities
    const limited = client(gw0.realtimeUrl, await mintToken(gw0.controlUrl, env.secretKey, 'alice', { capabilities: { '*': ['subscribe', 'publish'] } }));
    assert.equal(errorCode(await limited.patch(`/v1/channels/errors/messages/${own.body.id}`, { content: { x: 1 } })), 'forbidden');
    assert.equal(errorCode(await limited.post(`/v1/channels/errors/messages/${own.body.id}/reactions`, { type: 'ok' })), 'forbidden');
    // a reaction to a retracted message
    await http('alice').delete(`/v1/channels/errors/messages/${own.body.id}`);
    assert.equal(errorCode(await http('bob').post(`/v1/channels/errors/messages/${own.body.id}/reactions`, { type: 'ok' })), 'conflict');
  });

  await t.test('webhook endpoints get message.updated and message.reactions, verified by the Standard Webhooks library', async () => {
    const secret = endpoint.body.secret as string;
    const events = await eventually(
      'the events of the changes',
      async () => {
        const bodies: any[] = receiver.received.map((r) => JSON.parse(r.raw.toString('utf8')));
        const storm = bodies.filter((b) => b.type === 'message.reactions' && b.channelId === 'storm');
        return bodies.some((b) => b.type === 'message.updated') && storm.at(-1)?.data.reactions.fire?.count === 59 && bodies;
      },
      30_000,
    );
    for (const received of receiver.received) {
      const headers = {
        'webhook-id': String(received.headers['webhook-id']),
        'webhook-timestamp': String(received.headers['webhook-timestamp']),
        'webhook-signature': String(received.headers['webhook-signature']),
      };
      assert.deepEqual(new Webhook(secret).verify(received.raw.toString('utf8'), headers), JSON.parse(received.raw.toString('utf8')));
    }
    assert.ok(
      events.every((e: any) => e.type === 'message.updated' || e.type === 'message.reactions'),
      "the endpoint's filter holds",
    );
    const update = events.find((e: any) => e.type === 'message.updated' && e.channelId === 'chat');
    assert.deepEqual([update.data.version, update.data.content], [2, { text: 'hello', edited: true }]);
    const storm = events.filter((e: any) => e.type === 'message.reactions' && e.channelId === 'storm');
    assert.ok(storm.length < 60, `coalesced: ${storm.length} events for 121 reaction changes`);
    assert.equal(storm.at(-1).data.reactions.fire.count, 59);
  });
});
