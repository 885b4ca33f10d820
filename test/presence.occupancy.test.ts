/**
 * Presence per namespace and occupancy, with two gateways: join/leave frames are opt-in
 * (`joinLeave`), occupancy counts every gateway's subscriptions (HTTP on both planes, and
 * `occupancy` frames only on change), and a namespace without presence tracks nothing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';
import { openSocket, type TestSocket } from './helpers/ws.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('presence - join/leave frames are opt-in per namespace; occupancy counts both gateways; presence off tracks nothing', async (t) => {
  const cluster = await startCluster(t, { gateways: 2 });
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const env = await cluster.createEnvironment();
  const control = client(gwA.controlUrl, env.secretKey);
  const deployed = await control.put('/v1/config', {
    namespaces: [
      { prefix: 'chat:', joinLeave: true },
      { prefix: 'quiet:', presence: false, joinLeave: true },
    ],
  });
  assert.equal(deployed.status, 200);
  assert.deepEqual(
    [deployed.body.config.channels, deployed.body.config.namespaces],
    [
      { access: 'open', presence: true, joinLeave: false },
      [
        { prefix: 'chat:', joinLeave: true },
        { prefix: 'quiet:', presence: false, joinLeave: true },
      ],
    ],
  );
  const tokens = new Map<string, string>();
  for (const user of ['ann', 'bob', 'cid', 'dee']) tokens.set(user, await mintToken(gwA.controlUrl, env.secretKey, user));
  const sockets: TestSocket[] = [];
  const connect = async (gw: typeof gwA, user: string, channels: string[], extra: object = {}) => {
    const socket = openSocket(gw.realtimeUrl, `/v1/connect?token=${tokens.get(user)}`);
    sockets.push(socket);
    await socket.waitFor('connected', (f) => f.op === 'connected');
    for (const [i, channelId] of channels.entries()) {
      socket.send({ op: 'subscribe', ref: i + 1, channelId, ...extra });
      await socket.waitFor(`subscribed to ${channelId}`, (f) => f.ref === i + 1 && (f.op === 'subscribed' || f.op === 'error'));
    }
    return socket;
  };
  t.after(() => Promise.all(sockets.map((s) => s.close())));
  const occupancy = async (gw: typeof gwA, channelId: string) => {
    const res = await client(gw.controlUrl, env.secretKey).get(`/v1/channels/${channelId}/occupancy`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as { channelId: string; connections: number; users: number };
  };

  // ann listens on gateway A to a channel with the default settings and to a chat: channel
  const ann = await connect(gwA, 'ann', ['room', 'chat:1']);
  // bob on gateway B (two connections), cid on both gateways
  await connect(gwB, 'bob', ['room', 'chat:1']);
  await connect(gwB, 'bob', ['room']);
  await connect(gwA, 'cid', ['room']);
  await connect(gwB, 'cid', ['room', 'chat:1']);

  // joins are framed where joinLeave is on, and only there
  await ann.waitFor('bob and cid joined chat:1', () =>
    ['bob', 'cid'].every((u) => ann.frames.some((f) => f.op === 'presence' && f.channelId === 'chat:1' && f.joined.includes(u))),
  );
  // occupancy across both gateways, from either one: ann, bob ×2 and cid ×2 on room
  for (const gw of [gwA, gwB]) {
    await eventually(`room's occupancy on ${gw === gwA ? 'A' : 'B'}`, async () => {
      const counts = await occupancy(gw, 'room');
      return counts.connections === 5 && counts.users === 3;
    });
  }
  assert.deepEqual(await occupancy(gwB, 'chat:1'), { channelId: 'chat:1', connections: 3, users: 3 });
  assert.deepEqual(await occupancy(gwA, 'nobody'), { channelId: 'nobody', connections: 0, users: 0 });
  // the default namespace sends no presence frames, however long one waits
  await sleep(1_000);
  assert.deepEqual(
    ann.frames.filter((f) => f.op === 'presence' && f.channelId === 'room'),
    [],
    'no presence frame on room (joinLeave off)',
  );

  // the realtime edge: the `presence` capability, as for the roster
  const withPresence = await mintToken(gwA.controlUrl, env.secretKey, 'eve', { capabilities: { '*': ['subscribe', 'presence'] } });
  const withoutPresence = await mintToken(gwA.controlUrl, env.secretKey, 'fay', { capabilities: { '*': ['subscribe'] } });
  const edge = await client(gwB.realtimeUrl, withPresence).get('/v1/channels/room/occupancy');
  assert.deepEqual([edge.status, edge.body], [200, { channelId: 'room', connections: 5, users: 3 }]);
  assert.equal(errorCode(await client(gwB.realtimeUrl, withoutPresence).get('/v1/channels/room/occupancy')), 'forbidden');

  // occupancy frames: one soon after subscribing, then only on change
  const dee = await connect(gwB, 'dee', ['room'], { occupancy: true });
  // the first frame may come before dee's own subscription is counted (within the 2 s): then the next one counts it
  const withDee = await dee.waitFor('occupancy counting dee', (f) => f.op === 'occupancy' && f.connections === 6);
  assert.deepEqual(withDee, { op: 'occupancy', connections: 6, users: 4, channelId: 'room' });
  const cidOnA = sockets[3]!;
  await cidOnA.close();
  const second = await dee.waitFor('occupancy after cid left gateway A', (f) => f.op === 'occupancy' && f.connections === 5);
  assert.equal(second.users, 4, 'cid is still on gateway B');
  const framesSoFar = dee.frames.filter((f) => f.op === 'occupancy').length;
  assert.ok(framesSoFar <= 3, `${framesSoFar} occupancy frames for two changes`);
  await sleep(2_500);
  assert.equal(dee.frames.filter((f) => f.op === 'occupancy').length, framesSoFar, 'no frame while nothing changes');
  const fay = openSocket(gwA.realtimeUrl, `/v1/connect?token=${withoutPresence}`);
  sockets.push(fay);
  await fay.waitFor('connected', (f) => f.op === 'connected');
  fay.send({ op: 'subscribe', ref: 1, channelId: 'room', occupancy: true });
  const refused = await fay.waitFor('occupancy without the presence capability', (f) => f.ref === 1);
  assert.deepEqual([refused.op, refused.code], ['error', 'forbidden']);

  // presence off: nobody online, no occupancy, no frames, even with joinLeave set
  const quiet = await connect(gwA, 'ann', ['quiet:1']);
  await connect(gwB, 'bob', ['quiet:1']);
  assert.equal(errorCode(await control.get('/v1/channels/quiet:1/occupancy')), 'forbidden');
  const roster = await control.get('/v1/channels/quiet:1/members');
  assert.deepEqual([roster.status, roster.body.members], [200, []]);
  quiet.send({ op: 'subscribe', ref: 9, channelId: 'quiet:2', occupancy: true });
  const quietRefusal = await quiet.waitFor('occupancy where presence is off', (f) => f.ref === 9);
  assert.deepEqual([quietRefusal.op, quietRefusal.code], ['error', 'forbidden']);
  await sleep(600);
  assert.deepEqual(
    quiet.frames.filter((f) => f.op === 'presence'),
    [],
  );

  // leaving: the frame where joinLeave is on, and the counts fall
  await sockets[1]!.close(); // bob's first connection: chat:1 and room
  await ann.waitFor('bob left chat:1', (f) => f.op === 'presence' && f.channelId === 'chat:1' && f.left.includes('bob'));
  await eventually('chat:1 without bob', async () => (await occupancy(gwA, 'chat:1')).connections === 2);
});
