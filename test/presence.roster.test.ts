import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';
import { openSocket } from './helpers/ws.ts';

test('presence - rosters show who is online on any gateway, presence frames cross gateways, a dead gateway expires', async (t) => {
  const cluster = await startCluster(t, { gateways: 2, env: { PRESENCE_TTL_MS: '2000' } });
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const env = await cluster.createEnvironment();
  const controlA = client(gwA.controlUrl, env.secretKey);
  // presence frames are opt-in (channels.joinLeave)
  assert.equal((await controlA.put('/v1/config', { channels: { access: 'open', joinLeave: true } })).status, 200);
  const [alice, bob, carol] = await Promise.all(['alice', 'bob', 'carol'].map((u) => mintToken(gwA.controlUrl, env.secretKey, u)));
  const roster = async (token: string, channel: string, gw = gwA) => client(gw.realtimeUrl, token).get(`/v1/channels/${channel}/members`);

  // a members-only channel: access and roles are managed on the control plane
  assert.equal((await controlA.put('/v1/channels/room.1', { access: 'members' })).status, 200);
  assert.equal(errorCode(await roster(alice!, 'room.1')), 'forbidden');
  const put = await controlA.put('/v1/channels/room.1/members/alice', { role: 'moderator' });
  assert.equal(put.status, 200);
  assert.deepEqual([put.body.channelId, put.body.userId, put.body.role], ['room.1', 'alice', 'moderator']);
  assert.equal((await controlA.put('/v1/channels/room.1/members/bob')).status, 200);
  const empty = await roster(alice!, 'room.1');
  assert.equal(empty.status, 200);
  assert.deepEqual(empty.body.members, [
    { userId: 'alice', role: 'moderator', online: false },
    { userId: 'bob', role: 'member', online: false },
  ]);
  // carol is not a member: no socket either
  const refused = openSocket(gwB.realtimeUrl, `/v1/channels/room.1?token=${carol}`);
  assert.equal((await refused.closed).code, 4403);

  // bob listens on gateway A; alice joins on gateway B
  const bobSocket = openSocket(gwA.realtimeUrl, `/v1/channels/room.1?token=${bob}`);
  await bobSocket.waitFor('bob ready', (f) => f.op === 'ready');
  const aliceSocket = openSocket(gwB.realtimeUrl, `/v1/channels/room.1?token=${alice}`);
  await aliceSocket.waitFor('alice ready', (f) => f.op === 'ready');
  await bobSocket.waitFor('alice online frame', (f) => f.op === 'presence' && f.joined.includes('alice'));
  const both = await roster(bob!, 'room.1', gwA);
  assert.deepEqual(both.body.members, [
    { userId: 'alice', role: 'moderator', online: true },
    { userId: 'bob', role: 'member', online: true },
  ]);

  // a second socket of alice on gateway A, then she closes the first: still online, no offline frame
  const aliceAgain = openSocket(gwA.realtimeUrl, `/v1/channels/room.1?token=${alice}`);
  await aliceAgain.waitFor('alice ready again', (f) => f.op === 'ready');
  await aliceSocket.close();
  await eventually('roster after alice left gateway B', async () => {
    const r = await roster(bob!, 'room.1', gwB);
    return r.body.members.find((m: any) => m.userId === 'alice')?.online === true;
  });
  await aliceAgain.close();
  await bobSocket.waitFor('alice offline frame', (f) => f.op === 'presence' && f.left.includes('alice'));
  assert.equal((await roster(bob!, 'room.1', gwB)).body.members.find((m: any) => m.userId === 'alice').online, false);
  assert.equal(bobSocket.frames.filter((f) => f.op === 'presence' && f.left.includes('alice')).length, 1, 'one offline frame though alice had two sockets');

  // an open channel lists members plus whoever is online, as role member
  await controlA.put('/v1/channels/lobby/members/bob', { role: 'moderator' });
  const carolLobby = openSocket(gwB.realtimeUrl, `/v1/channels/lobby?token=${carol}`);
  await carolLobby.waitFor('carol ready', (f) => f.op === 'ready');
  await eventually('carol in the open roster', async () => (await roster(alice!, 'lobby')).body.members.some((m: any) => m.userId === 'carol'));
  assert.deepEqual((await roster(alice!, 'lobby')).body.members, [
    { userId: 'bob', role: 'moderator', online: false },
    { userId: 'carol', role: 'member', online: true },
  ]);
  // the control plane reads the same roster with a secret key
  assert.deepEqual(
    (await controlA.get('/v1/channels/lobby/members')).body.members.map((m: any) => m.userId),
    ['bob', 'carol'],
  );

  // bad input
  assert.equal(errorCode(await controlA.put('/v1/channels/room.1/members/bad%20id')), 'invalid_request');
  assert.equal(errorCode(await controlA.put('/v1/channels/room.1/members/dave', { role: 'owner' })), 'invalid_request');
  assert.equal(errorCode(await controlA.put('/v1/channels/room.1', { access: 'closed' })), 'invalid_request');
  assert.equal(errorCode(await controlA.put('/v1/channels/room.1', {})), 'invalid_request');
  assert.equal(errorCode(await client(gwA.realtimeUrl, env.secretKey).get('/v1/channels/lobby/members')), 'forbidden');

  // gateway B drains: it gives carol's presence up at once (offline frame, roster), no TTL wait
  const bobLobby = openSocket(gwA.realtimeUrl, `/v1/channels/lobby?token=${bob}`);
  await bobLobby.waitFor('bob ready in lobby', (f) => f.op === 'ready');
  assert.equal(await gwB.stop(), 0);
  assert.equal((await carolLobby.closed).code, 4503);
  await bobLobby.waitFor('carol offline after drain', (f) => f.op === 'presence' && f.left.includes('carol'));
  assert.equal(
    (await roster(alice!, 'lobby')).body.members.find((m: any) => m.userId === 'carol'),
    undefined,
  );

  // gateway C dies without a goodbye: carol's presence there expires instead of leaking
  const gwC = await cluster.start('gateway');
  const carolOnC = openSocket(gwC.realtimeUrl, `/v1/channels/lobby?token=${carol}`);
  await carolOnC.waitFor('carol ready on C', (f) => f.op === 'ready');
  await eventually('carol online again', async () => (await roster(alice!, 'lobby')).body.members.some((m: any) => m.userId === 'carol' && m.online));
  await gwC.kill();
  await eventually('carol expired from the roster', async () => {
    const r = await roster(alice!, 'lobby');
    return r.status === 200 && r.body.members.find((m: any) => m.userId === 'carol') === undefined;
  });
  await bobLobby.close();
});
