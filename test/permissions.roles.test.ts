import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken } from './helpers/http.ts';
import { closeOf } from './helpers/closed.ts';
import { openSocket, type TestSocket } from './helpers/ws.ts';
import { ConnectServerFrame } from '@rtm/schemas';

const answer = (socket: TestSocket, ref: string) => socket.waitFor(`answer to ${ref}`, (f) => f.ref === ref);
const connect = async (url: string, token: string) => {
  const socket = openSocket(url, `/v1/connect?token=${token}`);
  await socket.waitFor('connected', (f) => f.op === 'connected');
  return socket;
};

test('roles - readonly reads but never publishes, on HTTP, the channel socket and /v1/connect', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const gw = cluster.gateways[0]!;
  const control = client(gw.controlUrl, env.secretKey);
  const put = await control.put('/v1/channels/hall/members/rita', { role: 'readonly' });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  assert.equal(put.body.role, 'readonly');
  await control.post('/v1/channels/hall/messages', { content: { n: 1 } });
  const rita = await mintToken(gw.controlUrl, env.secretKey, 'rita');
  const asRita = client(gw.realtimeUrl, rita);
  const refused = await asRita.post('/v1/channels/hall/messages', { content: { n: 2 } });
  assert.equal(errorCode(refused), 'forbidden');
  assert.match(refused.body.reason, /readonly/);
  assert.equal((await asRita.get('/v1/channels/hall/history')).body.messages.length, 1);
  assert.deepEqual((await asRita.get('/v1/channels/hall/members')).body.members, [{ userId: 'rita', role: 'readonly', online: false }]);
  // elsewhere her role does not follow her
  assert.equal((await asRita.post('/v1/channels/yard/messages', { content: { n: 1 } })).status, 201);

  const socket = openSocket(gw.realtimeUrl, `/v1/channels/hall?token=${rita}&since=0`);
  await socket.waitFor('ready', (f) => f.op === 'ready');
  socket.send({ op: 'publish', ref: 'p', content: { n: 3 } });
  assert.equal((await answer(socket, 'p')).code, 'forbidden');
  const connection = await connect(gw.realtimeUrl, rita);
  connection.send({ op: 'subscribe', ref: 's', channelId: 'hall', since: 0 });
  assert.equal((await answer(connection, 's')).op, 'subscribed');
  connection.send({ op: 'publish', ref: 'p', channelId: 'hall', content: { n: 4 } });
  assert.equal((await answer(connection, 'p')).code, 'forbidden');

  // promoted back to member, she publishes, also on the sockets already open (the role change
  // drops the cached decision at once)
  await control.put('/v1/channels/hall/members/rita', { role: 'member' });
  assert.equal((await asRita.post('/v1/channels/hall/messages', { content: { n: 5 } })).status, 201);
  socket.send({ op: 'publish', ref: 'p2', content: { n: 6 } });
  assert.equal((await answer(socket, 'p2')).op, 'ack');
  connection.send({ op: 'publish', ref: 'p2', channelId: 'hall', content: { n: 7 } });
  assert.equal((await answer(connection, 'p2')).op, 'ack');
  // and demoted again, refused again on the same socket
  await control.put('/v1/channels/hall/members/rita', { role: 'readonly' });
  socket.send({ op: 'publish', ref: 'p3', content: { n: 8 } });
  assert.equal((await answer(socket, 'p3')).code, 'forbidden');
  await socket.close();
  await connection.close();
});

test('roles - a moderator retracts any message, removes and bans members from the realtime edge; members may not', async (t) => {
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 1 });
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const env = await cluster.createEnvironment();
  const control = client(gwA.controlUrl, env.secretKey);
  await control.put('/v1/channels/club/members/mona', { role: 'moderator' });
  await control.put('/v1/channels/club/members/max', { role: 'moderator' });
  await control.put('/v1/channels/club/members/bob');
  const [mona, bob, carl] = await Promise.all(['mona', 'bob', 'carl'].map((user) => mintToken(gwA.controlUrl, env.secretKey, user)));
  const asMona = client(gwA.realtimeUrl, mona!);
  const asBob = client(gwB.realtimeUrl, bob!);
  const asCarl = client(gwB.realtimeUrl, carl!);

  const said = await Promise.all([1, 2, 3, 4].map((n) => asCarl.post('/v1/channels/club/messages', { content: { n } })));
  const ids = said.map((res) => res.body.id as string);

  // a member may retract only their own
  const notOwn = await asBob.delete(`/v1/channels/club/messages/${ids[0]}`);
  assert.equal(errorCode(notOwn), 'forbidden');
  // the moderator retracts anyone's: HTTP, the channel socket, /v1/connect
  const retracted = await asMona.delete(`/v1/channels/club/messages/${ids[0]}`, { reason: 'spam' });
  assert.equal(retracted.status, 200, JSON.stringify(retracted.body));
  assert.equal(retracted.body.retracted, true);
  const socket = openSocket(gwA.realtimeUrl, `/v1/channels/club?token=${mona}`);
  await socket.waitFor('ready', (f) => f.op === 'ready');
  socket.send({ op: 'retract', ref: 'r', id: ids[1] });
  assert.equal((await answer(socket, 'r')).retracted, true);
  const connection = await connect(gwA.realtimeUrl, mona!);
  connection.send({ op: 'retract', ref: 'r', channelId: 'club', id: ids[2] });
  assert.equal((await answer(connection, 'r')).retracted, true);
  const bobSocket = openSocket(gwB.realtimeUrl, `/v1/channels/club?token=${bob}`);
  await bobSocket.waitFor('ready', (f) => f.op === 'ready');
  bobSocket.send({ op: 'retract', ref: 'r', id: ids[3] });
  assert.equal((await answer(bobSocket, 'r')).code, 'forbidden');
  const bobConnection = await connect(gwB.realtimeUrl, bob!);
  bobConnection.send({ op: 'retract', ref: 'r', channelId: 'club', id: ids[3] });
  assert.equal((await answer(bobConnection, 'r')).code, 'forbidden');
  // a moderator of another channel is nobody here
  const there = (await asCarl.post('/v1/channels/other/messages', { content: { n: 0 } })).body.id;
  const elsewhere = await asMona.delete(`/v1/channels/other/messages/${there}`);
  assert.equal(errorCode(elsewhere), 'forbidden');

  // members may not remove or ban; moderators may not act on moderators
  assert.equal(errorCode(await asBob.delete('/v1/channels/club/members/carl')), 'forbidden');
  assert.equal(errorCode(await asBob.put('/v1/channels/club/bans/carl', { reason: 'x' })), 'forbidden');
  assert.equal(errorCode(await asMona.delete('/v1/channels/club/members/max')), 'forbidden');
  assert.equal(errorCode(await asMona.put('/v1/channels/club/bans/max')), 'forbidden');

  // removal closes bob's socket on the other gateway with 4403 and ends his subscription
  bobConnection.send({ op: 'subscribe', ref: 's', channelId: 'club' });
  assert.equal((await answer(bobConnection, 's')).op, 'subscribed');
  assert.equal((await asMona.delete('/v1/channels/club/members/bob')).status, 204);
  assert.equal((await closeOf(bobSocket)).code, 4403);
  const ended = await bobConnection.waitFor('club ended', (f) => f.op === 'unsubscribed' && f.ref === undefined);
  assert.equal(ended.code, 'forbidden');
  const { rows } = await cluster.db.pool.query(`select user_id from memberships where channel_id = 'club' order by user_id`);
  assert.deepEqual(
    rows.map((row) => row.user_id),
    ['max', 'mona'],
  );

  // a channel ban from the realtime edge, then lifted
  const ban = await asMona.put('/v1/channels/club/bans/carl', { reason: 'flooding' });
  assert.equal(ban.status, 200, JSON.stringify(ban.body));
  assert.deepEqual([ban.body.userId, ban.body.channelId, ban.body.reason], ['carl', 'club', 'flooding']);
  const banned = await asCarl.post('/v1/channels/club/messages', { content: { n: 5 } });
  assert.equal(errorCode(banned), 'banned');
  assert.equal(banned.body.reason, 'flooding');
  assert.equal((await asCarl.post('/v1/channels/other/messages', { content: { n: 5 } })).status, 201, 'only the channel');
  assert.equal(errorCode(await asMona.put('/v1/channels/club/bans/carl', { expiresAt: '2000-01-01T00:00:00Z' })), 'invalid_request');
  assert.equal((await asMona.delete('/v1/channels/club/bans/carl')).status, 204);
  assert.equal((await asCarl.post('/v1/channels/club/messages', { content: { n: 6 } })).status, 201);

  // the same from /v1/connect: frames for the moderator, error frames for anyone else
  const carlConnection = await connect(gwB.realtimeUrl, carl!);
  carlConnection.send({ op: 'subscribe', ref: 's', channelId: 'club' });
  assert.equal((await answer(carlConnection, 's')).op, 'subscribed');
  carlConnection.send({ op: 'ban-member', ref: 'b', channelId: 'club', userId: 'mona' });
  assert.equal((await answer(carlConnection, 'b')).code, 'forbidden');
  connection.send({ op: 'ban-member', ref: 'b', channelId: 'club', userId: 'carl', reason: 'again' });
  assert.deepEqual(await answer(connection, 'b'), { op: 'member-banned', ref: 'b', channelId: 'club', userId: 'carl', reason: 'again', expiresAt: null });
  const carlEnded = await carlConnection.waitFor('club ended for carl', (f) => f.op === 'unsubscribed' && f.ref === undefined);
  assert.equal(carlEnded.code, 'banned');
  assert.equal(errorCode(await asCarl.post('/v1/channels/club/messages', { content: { n: 7 } })), 'banned');
  connection.send({ op: 'unban-member', ref: 'u', channelId: 'club', userId: 'carl' });
  assert.deepEqual(await answer(connection, 'u'), { op: 'member-unbanned', ref: 'u', channelId: 'club', userId: 'carl' });
  assert.equal((await asCarl.post('/v1/channels/club/messages', { content: { n: 8 } })).status, 201);
  await control.put('/v1/channels/club/members/carl');
  connection.send({ op: 'remove-member', ref: 'm', channelId: 'club', userId: 'carl' });
  assert.deepEqual(await answer(connection, 'm'), { op: 'member-removed', ref: 'm', channelId: 'club', userId: 'carl' });
  connection.send({ op: 'remove-member', ref: 'm2', channelId: 'club', userId: 'max' });
  assert.equal((await answer(connection, 'm2')).code, 'forbidden');
  connection.send({ op: 'ban-member', ref: 'bad', channelId: 'club', userId: 'bad user' });
  assert.equal((await answer(connection, 'bad')).code, 'invalid_request');
  await carlConnection.close();
  assert.equal(errorCode(await client(gwA.realtimeUrl, 'not-a-jwt').delete('/v1/channels/club/members/carl')), 'unauthorized');
  // every frame the connections received is a documented server frame (docs/asyncapi.yaml)
  for (const frame of [...connection.frames, ...bobConnection.frames, ...carlConnection.frames]) {
    assert.ok(ConnectServerFrame.safeParse(frame).success, `undocumented frame ${JSON.stringify(frame)}`);
  }
  for (const s of [socket, connection, bobConnection]) await s.close();
});
