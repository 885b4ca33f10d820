/**
 * The event stream's two ways to the rest of the multiplexed connection (docs/protocol.md,
 * "Server-sent events"; docs/presence.md): the inbox on a stream (`inbox=`), resumed by its event
 * id, and presence entries over HTTP (`PUT`/`DELETE /v1/channels/{channelId}/presence`) for a
 * stream held by another gateway than the one asked. Real gateways, channel-node, Postgres, NATS.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';
import { openStream } from './helpers/sse.ts';
import { openSocket } from './helpers/ws.ts';
import { createClient, type Notification } from '@rtm/client';
import { connected, until } from './helpers/sdk.ts';

const CHANNEL = 'chat:lobby';

test('events inbox - notifications on a stream with inbox=1, resumed from Last-Event-ID on another gateway with no gap and no duplicate', async (t) => {
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const control = client(gwA.controlUrl, env.secretKey);
  const ann = await mintToken(gwA.controlUrl, env.secretKey, 'ann');
  const notify = async (n: number): Promise<string> => {
    const sent = await control.post('/v1/notifications', { userIds: ['ann'], type: 'n', payload: { n } });
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
    return sent.body.ids[0];
  };
  const notificationsOf = (frames: any[]) => frames.filter((f) => f.op === 'notification').map((f) => f.payload.n);

  // no channel and no inbox: refused; no channel with the inbox: fine
  const none = await openStream(gwA.realtimeUrl, `/v1/events?token=${ann}`);
  assert.equal(none.status, 400);
  assert.equal(none.body.code, 'invalid_request');
  assert.equal((await openStream(gwA.realtimeUrl, `/v1/events?inbox=a.b&token=${ann}`)).status, 400);

  const before = await notify(1);
  const first = await openStream(gwA.realtimeUrl, `/v1/events?inbox=1&token=${ann}`);
  assert.equal(first.status, 200);
  await first.waitFor('inbox subscribed', (f) => f.op === 'inbox-subscribed');
  assert.deepEqual(
    first.frames.find((f) => f.op === 'inbox-subscribed'),
    { op: 'inbox-subscribed' },
  );
  // inbox=1 is subscribe-inbox without since: the retained one, then live
  assert.deepEqual(notificationsOf(first.frames), [1]);
  assert.equal(first.events.find((e) => e.data.op === 'notification')!.id, `inbox~${before}`);
  const ids = [before];
  for (let n = 2; n <= 4; n++) ids.push(await notify(n));
  await first.waitFor('notification 4', (f) => f.op === 'notification' && f.payload.n === 4);
  assert.deepEqual(notificationsOf(first.frames), [1, 2, 3, 4]);
  assert.equal(first.lastId, `inbox~${ids[3]}`);
  first.cut();
  await first.ended;

  // sent while no stream is open: the resumed stream replays exactly those, then goes live
  for (let n = 5; n <= 6; n++) ids.push(await notify(n));
  // the URL a browser first opened (inbox=1) with the newer id in the header: the header wins
  const second = await openStream(gwB.realtimeUrl, `/v1/events?inbox=1&token=${ann}`, { 'last-event-id': first.lastId });
  assert.equal(second.status, 200);
  await second.waitFor('inbox subscribed again', (f) => f.op === 'inbox-subscribed');
  ids.push(await notify(7));
  await second.waitFor('notification 7', (f) => f.op === 'notification' && f.payload.n === 7);
  assert.deepEqual(notificationsOf(second.frames), [5, 6, 7]);
  assert.equal(second.lastId, `inbox~${ids[6]}`);
  second.cut();

  // inbox=<id> resumes after it, as subscribe-inbox since; with a channel, both entries in the id
  const third = await openStream(gwA.realtimeUrl, `/v1/events?channels=${CHANNEL}&inbox=${ids[5]}&token=${ann}`);
  await third.waitFor('inbox subscribed', (f) => f.op === 'inbox-subscribed');
  await third.waitFor('channel subscribed', (f) => f.op === 'subscribed');
  assert.deepEqual(notificationsOf(third.frames), [7]);
  assert.match(third.lastId, new RegExp(`~0,inbox~${ids[6]}$`));
  third.cut();
});

test('presence over HTTP - a stream on gateway A enters through gateway B: seen with data, left, gone on close; another user is 404', async (t) => {
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const control = client(gwA.controlUrl, env.secretKey);
  const deployed = await control.put('/v1/config', {
    limits: { userRosterReadsPerSecond: 1_000 },
    channels: { access: 'open' },
    namespaces: [{ prefix: 'chat:', joinLeave: true }],
  });
  assert.equal(deployed.status, 200, JSON.stringify(deployed.body));
  const ann = await mintToken(gwA.controlUrl, env.secretKey, 'ann');
  const bob = await mintToken(gwA.controlUrl, env.secretKey, 'bob');
  const viaB = client(gwB.realtimeUrl, ann);

  // bob watches on /v1/connect; ann's stream is on gateway A
  const watcher = openSocket(gwB.realtimeUrl, `/v1/connect?token=${bob}`);
  t.after(() => watcher.close());
  await watcher.waitFor('bob connected', (f) => f.op === 'connected');
  watcher.send({ op: 'subscribe', ref: 1, channelId: CHANNEL });
  await watcher.waitFor('bob subscribed', (f) => f.ref === 1 && f.op === 'subscribed');
  const stream = await openStream(gwA.realtimeUrl, `/v1/events?channels=${CHANNEL}&token=${ann}`);
  assert.equal(stream.status, 200);
  const connectionId = (await stream.waitFor('connected', (f) => f.op === 'connected')).connectionId;
  await stream.waitFor('subscribed', (f) => f.op === 'subscribed');

  const rosterEntry = async (userId: string) => {
    const res = await client(gwB.controlUrl, env.secretKey).get(`/v1/channels/${CHANNEL}/members`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.members.find((m: any) => m.userId === userId);
  };

  // entered through gateway B, which does not hold the stream
  const data = { status: 'away', n: [1, 2] };
  const entered = await viaB.put(`/v1/channels/${CHANNEL}/presence`, { connectionId, data });
  assert.equal(entered.status, 200, JSON.stringify(entered.body));
  assert.deepEqual(entered.body, { channelId: CHANNEL, userId: 'ann', data });
  await watcher.waitFor(
    'ann entered with data',
    (f) => f.op === 'presence' && f.entered?.some((e: any) => e.userId === 'ann' && JSON.stringify(e.data) === JSON.stringify(data)),
  );
  await eventually('ann in the roster with her data', async () => JSON.stringify((await rosterEntry('ann'))?.data) === JSON.stringify(data));

  // an update through the gateway that holds it, then a leave through the other
  const updated = await client(gwA.realtimeUrl, ann).put(`/v1/channels/${CHANNEL}/presence`, { connectionId, data: 'back' });
  assert.equal(updated.status, 200, JSON.stringify(updated.body));
  await eventually('the roster shows the new data', async () => (await rosterEntry('ann'))?.data === 'back');
  const left = await viaB.delete(`/v1/channels/${CHANNEL}/presence?connectionId=${connectionId}`);
  assert.equal(left.status, 204);
  await watcher.waitFor('ann exited', (f) => f.op === 'presence' && f.exited?.includes('ann'));
  await eventually('the entry is gone, ann online', async () => {
    const entry = await rosterEntry('ann');
    return entry?.online === true && !('data' in entry);
  });

  // refusals in the envelope: data over 1 KiB, a channel the stream does not carry, bad ids, another user's stream
  const tooBig = await viaB.put(`/v1/channels/${CHANNEL}/presence`, { connectionId, data: 'x'.repeat(1100) });
  assert.equal(tooBig.status, 413);
  assert.equal(errorCode(tooBig), 'payload_too_large');
  const notCarried = await viaB.put('/v1/channels/chat:other/presence', { connectionId });
  assert.equal(notCarried.status, 400);
  assert.equal(errorCode(notCarried), 'invalid_request');
  assert.equal(errorCode(await viaB.put(`/v1/channels/${CHANNEL}/presence`, { connectionId: 'nope' })), 'invalid_request');
  assert.equal(errorCode(await viaB.put(`/v1/channels/${CHANNEL}/presence`, {})), 'invalid_request');
  for (const gw of [gwA, gwB]) {
    const asBob = await client(gw.realtimeUrl, bob).put(`/v1/channels/${CHANNEL}/presence`, { connectionId });
    assert.equal(asBob.status, 404, JSON.stringify(asBob.body));
    assert.equal(errorCode(asBob), 'not_found');
  }
  assert.equal((await client(gwB.realtimeUrl, bob).delete(`/v1/channels/${CHANNEL}/presence?connectionId=${connectionId}`)).status, 404);
  assert.equal((await client(gwB.realtimeUrl).put(`/v1/channels/${CHANNEL}/presence`, { connectionId })).status, 401);

  // entered again, then the stream closes: the entry and ann go
  assert.equal((await viaB.put(`/v1/channels/${CHANNEL}/presence`, { connectionId })).status, 200);
  await eventually('ann entered without data', async () => (await rosterEntry('ann'))?.data === null);
  stream.cut();
  await stream.ended;
  await watcher.waitFor('ann left', (f) => f.op === 'presence' && f.left?.includes('ann'));
  await eventually('ann is gone from the roster', async () => (await rosterEntry('ann')) === undefined);
  // a closed stream is unknown everywhere
  const gone = await viaB.put(`/v1/channels/${CHANNEL}/presence`, { connectionId });
  assert.equal(gone.status, 404);
  assert.equal(errorCode(gone), 'not_found');
});

test('sdk on sse - presence enter with data and leave over HTTP, and inbox notifications, with the same API as on a WebSocket', async (t) => {
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const control = client(gwA.controlUrl, env.secretKey);
  const deployed = await control.put('/v1/config', { channels: { access: 'open' }, namespaces: [{ prefix: 'chat:', joinLeave: true }] });
  assert.equal(deployed.status, 200, JSON.stringify(deployed.body));
  const bob = await mintToken(gwA.controlUrl, env.secretKey, 'bob');
  const watcher = openSocket(gwB.realtimeUrl, `/v1/connect?token=${bob}`);
  t.after(() => watcher.close());
  await watcher.waitFor('bob connected', (f) => f.op === 'connected');
  watcher.send({ op: 'subscribe', ref: 1, channelId: CHANNEL });
  await watcher.waitFor('bob subscribed', (f) => f.ref === 1 && f.op === 'subscribed');

  const ann = createClient({ url: gwA.realtimeUrl, getToken: () => mintToken(gwA.controlUrl, env.secretKey, 'ann'), transports: ['sse'] });
  t.after(() => ann.close());
  await connected(ann);
  assert.equal(ann.transport, 'sse');
  const notifications: Notification[] = [];
  const before = await control.post('/v1/notifications', { userIds: ['ann'], type: 'hello', payload: { n: 1 } });
  assert.equal(before.status, 202);
  await ann.inbox.subscribe((n) => notifications.push(n)).ready;
  assert.deepEqual(
    notifications.map((n) => n.payload),
    [{ n: 1 }],
  );

  const room = ann.channel(CHANNEL);
  await room.subscribe(() => {}).ready;
  const data = { status: 'here', n: 7 };
  await room.presence.enter(data);
  await watcher.waitFor(
    'ann entered with data',
    (f) => f.op === 'presence' && f.entered?.some((e: any) => e.userId === 'ann' && JSON.stringify(e.data) === JSON.stringify(data)),
  );
  await room.presence.update('busy');
  await watcher.waitFor('ann updated', (f) => f.op === 'presence' && f.updated?.some((e: any) => e.userId === 'ann' && e.data === 'busy'));

  // the inbox kept going when the channel's subscribe reopened the stream: live, and no duplicate
  const live = await control.post('/v1/notifications', { userIds: ['ann'], type: 'hello', payload: { n: 2 } });
  assert.equal(live.status, 202);
  await until('the live notification', () => notifications.length >= 2);
  assert.deepEqual(
    notifications.map((n) => n.payload),
    [{ n: 1 }, { n: 2 }],
  );
  assert.deepEqual(
    notifications.map((n) => n.id),
    [before.body.ids[0], live.body.ids[0]],
  );

  await room.presence.leave();
  await watcher.waitFor('ann exited', (f) => f.op === 'presence' && f.exited?.includes('ann'));
  assert.equal(ann.transport, 'sse');
});
