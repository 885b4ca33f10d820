import { test } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { RtmError, type Message, type Notification, type Retraction, type StateChange } from '@rtm/client';
import { startCluster } from './helpers/cluster.ts';
import { client as http, mintToken } from './helpers/http.ts';
import { tokenSigner } from './helpers/tokens.ts';
import { connected, dropConnection, nextState, sdkClient, seqsOf, sleep, until } from './helpers/sdk.ts';

test('sdk client - one connection for channels, inbox, history and presence against a real cluster', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const gw = cluster.gateways[0]!;
  const control = http(gw.controlUrl, env.secretKey);
  const tokenFor = (userId: string) => () => mintToken(gw.controlUrl, env.secretKey, userId);

  await t.test('subscribe, publish, ack: every message once, in seq order, with the envelope and channelId', async (t) => {
    const alice = sdkClient(t, gw.realtimeUrl, tokenFor('alice'));
    const bob = sdkClient(t, gw.realtimeUrl, tokenFor('bob'));
    const got: Message[] = [];
    const sub = alice.channel('room').subscribe((m) => got.push(m));
    assert.deepEqual(await sub.ready, { lastSeq: 0 });
    await connected(alice);
    assert.equal(alice.userId, 'alice');
    assert.match(alice.connectionId!, /^sock_/);
    const acks = await Promise.all(Array.from({ length: 10 }, (_, n) => bob.channel('room').publish({ n }, { type: 'chat' })));
    assert.deepEqual(
      acks.map((a) => a.seq).sort((a, b) => a - b),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    );
    for (const ack of acks) {
      assert.match(ack.id, /^msg_/);
      assert.equal(typeof ack.timestamp, 'number');
    }
    await until('alice has all ten', () => got.length === 10);
    assert.deepEqual(seqsOf(got), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const first = got[0]!;
    assert.equal(first.channelId, 'room');
    assert.equal(first.type, 'chat');
    assert.equal(first.kind, 'user');
    assert.deepEqual(first.sender, { id: 'bob', anon: false });
    assert.equal(first.id, acks.find((a) => a.seq === 1)!.id);
    // a subscription with since replays first
    const replay: number[] = [];
    const late = sdkClient(t, gw.realtimeUrl, tokenFor('carol'));
    assert.deepEqual(await late.channel('room').subscribe((m) => replay.push(m.seq), { since: 7 }).ready, { lastSeq: 10 });
    assert.deepEqual(replay, [8, 9, 10]);
    // an ephemeral publish is acked and reaches subscribers live without a seq of its own
    const eph = await bob.channel('room').publish({ typing: true }, { ephemeral: true });
    assert.equal(eph.ephemeral, true);
    await until('ephemeral arrives', () => got.some((m) => m.ephemeral));
    // refusals reject the call with the server's code
    await control.put('/v1/channels/locked', { access: 'members' });
    await assert.rejects(bob.channel('locked').publish({ x: 1 }), (error: RtmError) => error instanceof RtmError && error.code === 'forbidden');
    const denied = bob.channel('locked').subscribe(() => {});
    await assert.rejects(denied.ready, (error: RtmError) => error.code === 'forbidden');
    assert.equal(denied.active, false);
  });

  await t.test('many channels over one connection', async (t) => {
    let sockets = 0;
    class CountingWebSocket extends WebSocket {
      constructor(url: string) {
        super(url);
        sockets += 1;
      }
    }
    const alice = sdkClient(t, gw.realtimeUrl, tokenFor('alice'), { WebSocket: CountingWebSocket });
    const channels = Array.from({ length: 30 }, (_, i) => `many-${i}`);
    const got = new Map<string, number[]>(channels.map((c) => [c, []]));
    await Promise.all(channels.map((c) => alice.channel(c).subscribe((m) => got.get(c)!.push(m.seq)).ready));
    for (let round = 0; round < 3; round++) {
      await Promise.all(channels.map((c) => control.post(`/v1/channels/${c}/messages`, { content: { round } })));
    }
    await until('every channel has three messages', () => channels.every((c) => got.get(c)!.length === 3));
    for (const c of channels) assert.deepEqual(got.get(c), [1, 2, 3], c);
    assert.equal(sockets, 1, 'one WebSocket for thirty channels');
    assert.equal(alice.channel('many-0'), alice.channel('many-0'), 'the same object for the same id');
  });

  await t.test('history: an async iterator over pages, newest first, or oldest first with after', async (t) => {
    const alice = sdkClient(t, gw.realtimeUrl, tokenFor('alice'));
    for (let n = 1; n <= 23; n++) await control.post('/v1/channels/hist/messages', { content: { n } });
    const newestFirst: number[] = [];
    for await (const message of alice.channel('hist').history({ limit: 10 })) {
      assert.equal(message.channelId, 'hist');
      newestFirst.push(message.seq);
    }
    assert.deepEqual(
      newestFirst,
      Array.from({ length: 23 }, (_, i) => 23 - i),
    );
    const pages: number[][] = [];
    for await (const page of alice.channel('hist').history({ limit: 10, after: 5 }).pages()) pages.push(page.map((m) => m.seq));
    assert.deepEqual(pages, [
      [6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
      [16, 17, 18, 19, 20, 21, 22, 23],
    ]);
    const before: number[] = [];
    for await (const message of alice.channel('hist').history({ before: 4 })) before.push(message.seq);
    assert.deepEqual(before, [3, 2, 1]);
    // stopping early fetches no more pages
    let taken = 0;
    for await (const _ of alice.channel('hist').history({ limit: 2 })) if (++taken === 3) break;
    assert.equal(taken, 3);
    const empty: unknown[] = [];
    for await (const message of alice.channel('never-used').history()) empty.push(message);
    assert.deepEqual(empty, []);
    assert.throws(
      () => alice.channel('hist').history({ limit: 501 }),
      (error: RtmError) => error.code === 'invalid_request',
    );
    await control.put('/v1/channels/hidden', { access: 'members' });
    await assert.rejects(
      (async () => {
        for await (const _ of alice.channel('hidden').history()) break;
      })(),
      (error: RtmError) => error.code === 'forbidden',
    );
  });

  await t.test('presence: the roster over HTTP, join and leave from presence frames, occupancy', async (t) => {
    // presence frames are opt-in per namespace (joinLeave)
    assert.equal((await control.put('/v1/config', { namespaces: [{ prefix: 'lobby', joinLeave: true }] })).status, 200);
    const alice = sdkClient(t, gw.realtimeUrl, tokenFor('alice'));
    const joins: string[] = [];
    const leaves: string[] = [];
    const lobby = alice.channel('lobby');
    lobby.presence.on('join', (userId) => joins.push(userId));
    lobby.presence.on('leave', (userId) => leaves.push(userId));
    // one `change` per presence frame, after its join/leave events
    const batches: { channelId: string; joined: string[]; left: string[] }[] = [];
    lobby.presence.on('change', (batch) => {
      assert.ok(batch.joined.every((u) => joins.includes(u)) && batch.left.every((u) => leaves.includes(u)), 'join/leave events came first');
      batches.push(batch);
    });
    const counts: { connections: number; users: number }[] = [];
    lobby.on('occupancy', ({ connections, users }) => counts.push({ connections, users }));
    await lobby.subscribe(() => {}).ready;
    const bob = sdkClient(t, gw.realtimeUrl, tokenFor('bob'));
    await bob.channel('lobby').subscribe(() => {}).ready;
    await until('bob joins', () => joins.includes('bob'));
    await until('occupancy of two', () => lobby.occupancy?.users === 2);
    assert.deepEqual(lobby.occupancy, { channelId: 'lobby', connections: 2, users: 2 });
    assert.deepEqual(counts.at(-1), { connections: 2, users: 2 });
    const roster = await lobby.presence.get();
    assert.deepEqual(roster, [
      { userId: 'alice', role: 'member', online: true },
      { userId: 'bob', role: 'member', online: true },
    ]);
    bob.close();
    await until('bob leaves', () => leaves.includes('bob'));
    assert.deepEqual(
      (await lobby.presence.get()).map((m) => [m.userId, m.online]),
      [['alice', true]],
    );
    assert.deepEqual(
      batches.flatMap((b) => b.joined),
      joins,
    );
    assert.deepEqual(
      batches.flatMap((b) => b.left),
      leaves,
    );
    assert.ok(batches.every((b) => b.channelId === 'lobby'));
  });

  await t.test('inbox: notifications replayed then live, each once, resumed from the last id after a reconnect', async (t) => {
    const first = await control.post('/v1/notifications', { userIds: ['dora'], payload: { n: 1 } });
    assert.equal(first.status, 202);
    await control.post('/v1/notifications', { userIds: ['dora'], payload: { n: 2 } });
    const dora = sdkClient(t, gw.realtimeUrl, tokenFor('dora'));
    const got: Notification[] = [];
    const sub = dora.inbox.subscribe((n) => got.push(n), { since: first.body.ids[0] });
    await sub.ready;
    assert.deepEqual(
      got.map((n) => n.payload),
      [{ n: 2 }],
    );
    await control.post('/v1/notifications', { userIds: ['dora'], payload: { n: 3 }, type: 'ping' });
    await until('live notification', () => got.length === 2);
    assert.equal(got[1]!.type, 'ping');
    // the connection drops; a notification sent meanwhile arrives after the resume, nothing twice
    const dropped = nextState(dora, 'disconnected');
    dropConnection(dora);
    await dropped;
    await control.post('/v1/notifications', { userIds: ['dora'], payload: { n: 4 } });
    await connected(dora);
    await until('resumed', () => got.length === 3);
    await sleep(300);
    assert.deepEqual(
      got.map((n) => (n.payload as { n: number }).n),
      [2, 3, 4],
    );
  });

  await t.test('retract: the sender retracts, subscribers get a retract event, history shows the tombstone', async (t) => {
    const alice = sdkClient(t, gw.realtimeUrl, tokenFor('alice'));
    const bob = sdkClient(t, gw.realtimeUrl, tokenFor('bob'));
    const retractions: Retraction[] = [];
    bob.channel('news').on('retract', (r) => retractions.push(r));
    await bob.channel('news').subscribe(() => {}).ready;
    const sent = await alice.channel('news').publish({ text: 'tpyo' });
    // the retraction takes the channel's next place (`eventSeq`); the message keeps its seq
    assert.deepEqual(await alice.channel('news').retract(sent.id, 'typo'), { id: sent.id, seq: sent.seq, eventSeq: sent.seq + 1 });
    await until('retract event', () => retractions.length === 1);
    assert.deepEqual(retractions[0], { channelId: 'news', id: sent.id, seq: sent.seq, eventSeq: sent.seq + 1, reason: 'typo' });
    assert.equal(bob.channel('news').lastSeq, sent.seq + 1, 'the retraction moved the resume position');
    const history: Message[] = [];
    for await (const message of alice.channel('news').history()) history.push(message);
    const [tombstone] = history;
    assert.equal(tombstone!.retracted, true);
    assert.equal(tombstone!.content, null);
    await assert.rejects(bob.channel('news').retract(sent.id), (error: RtmError) => error.code === 'forbidden');
  });

  await t.test('a ban ends the subscription with unsubscribed {code: banned} and it is not re-subscribed', async (t) => {
    const mallory = sdkClient(t, gw.realtimeUrl, tokenFor('mallory'));
    const got: Message[] = [];
    const ends: unknown[] = [];
    const general = mallory.channel('general');
    general.on('unsubscribed', (info) => ends.push(info));
    const sub = general.subscribe((m) => got.push(m));
    const other: Message[] = [];
    mallory.channel('other').subscribe((m) => other.push(m));
    await sub.ready;
    await control.put('/v1/channels/general/bans/mallory', { reason: 'spam' });
    await until('banned', () => ends.length === 1);
    assert.deepEqual(ends[0], { code: 'banned', reason: 'spam', resubscribing: false });
    assert.equal(sub.active, false);
    assert.equal(general.subscribed, false);
    // lifted: still nothing, the SDK does not subscribe again on its own, not even after a reconnect
    await control.delete('/v1/channels/general/bans/mallory');
    const dropped = nextState(mallory, 'disconnected');
    dropConnection(mallory);
    await dropped;
    await connected(mallory);
    await control.post('/v1/channels/general/messages', { content: { after: 'ban' } });
    await control.post('/v1/channels/other/messages', { content: { marker: true } });
    await until('the other channel goes on', () => other.length === 1);
    await sleep(300);
    assert.deepEqual(got, []);
  });

  await t.test('token renewal in place: short-lived tokens are renewed with auth before expiry, the connection stays', async (t) => {
    const sign = await tokenSigner(cluster.db.pool, env.environmentId);
    const issued: string[] = [];
    const erin = sdkClient(t, gw.realtimeUrl, async () => {
      const token = await sign('erin', 5);
      issued.push(token);
      return token;
    });
    const changes: string[] = [];
    erin.on('state', (state) => changes.push(state));
    const got: number[] = [];
    await erin.channel('renew').subscribe((m) => got.push(m.seq)).ready;
    const connectionId = erin.connectionId;
    // three lifetimes of the first token
    for (let n = 1; n <= 15; n++) {
      await control.post('/v1/channels/renew/messages', { content: { n } });
      await sleep(1_000);
    }
    assert.ok(issued.length >= 4, `renewed ${issued.length - 1} times`);
    assert.deepEqual(changes, ['connected'], 'never disconnected');
    assert.equal(erin.connectionId, connectionId);
    await until('all fifteen', () => got.length === 15);
    assert.deepEqual(
      got,
      Array.from({ length: 15 }, (_, i) => i + 1),
    );
  });

  await t.test('4401: an expired token closes the connection; getToken is called and the client reconnects and resumes', async (t) => {
    const sign = await tokenSigner(cluster.db.pool, env.environmentId);
    let calls = 0;
    let renewals = true;
    const frank = sdkClient(t, gw.realtimeUrl, async () => {
      calls += 1;
      // renewals fail (the token server is "down") until the connection has expired
      if (calls > 1 && !renewals) throw new Error('token service unavailable');
      return sign('frank', 3);
    });
    const errors: RtmError[] = [];
    frank.on('error', (error) => errors.push(error));
    const got: number[] = [];
    await frank.channel('expiry').subscribe((m) => got.push(m.seq), { since: 0 }).ready;
    renewals = false;
    const firstConnection = frank.connectionId;
    const closed = await nextState(frank, 'disconnected', 10_000);
    assert.equal(closed.code, 4401);
    assert.equal(closed.retryInMs, 0, 'a token that expired while connected: reconnect at once');
    assert.ok(
      errors.some((e) => /token service unavailable/.test(e.message)),
      'failed renewals were reported',
    );
    renewals = true;
    await control.post('/v1/channels/expiry/messages', { content: { while: 'away' } });
    await connected(frank);
    assert.notEqual(frank.connectionId, firstConnection);
    await control.post('/v1/channels/expiry/messages', { content: { after: 'reconnect' } });
    await until('both messages', () => got.length === 2);
    assert.deepEqual(got, [1, 2]);
  });

  await t.test('4403 (banned from the environment) closes the client for good', async (t) => {
    const gus = sdkClient(t, gw.realtimeUrl, tokenFor('gus'));
    await connected(gus);
    const changes: Array<[string, StateChange]> = [];
    gus.on('state', (state, change) => changes.push([state, change]));
    const errors: RtmError[] = [];
    gus.on('error', (error) => errors.push(error));
    await control.put('/v1/bans/gus', { reason: 'abuse' });
    await until('closed', () => gus.state === 'closed');
    assert.equal(changes.at(-1)![1].code, 4403);
    assert.equal(errors.at(-1)?.code, 'forbidden');
    await assert.rejects(gus.channel('x').publish({ after: 'close' }), (error: RtmError) => error.code === 'closed');
    await sleep(1_500);
    assert.equal(gus.state, 'closed', 'no reconnect');
  });
});
