/**
 * Presence data over two gateways: a user enters with data on gateway A (`presence-enter` on
 * /v1/connect); a subscriber on gateway B gets the announcement with the data, and the roster
 * shows it on both hosts of both gateways; an update changes it everywhere; a leave and the close
 * of the last entered connection remove it. Refusals: no `presence` capability, data over 1 KiB,
 * an update before entering, a namespace without presence, no subscription.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, mintToken } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';
import { openSocket, type TestSocket } from './helpers/ws.ts';

const CHANNEL = 'chat:lobby';

test('presence data - enter, update and leave are seen on every gateway, in frames and in rosters; refusals', async (t) => {
  const cluster = await startCluster(t, { gateways: 2 });
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const env = await cluster.createEnvironment();
  const control = client(gwA.controlUrl, env.secretKey);
  const deployed = await control.put('/v1/config', {
    // the test reads rosters in a loop while presence settles
    limits: { userRosterReadsPerSecond: 1_000 },
    channels: { access: 'open' },
    namespaces: [
      { prefix: 'chat:', joinLeave: true },
      { prefix: 'quiet:', presence: false },
    ],
  });
  assert.equal(deployed.status, 200, JSON.stringify(deployed.body));
  const tokens = new Map<string, string>();
  for (const user of ['ann', 'bob', 'cid']) tokens.set(user, await mintToken(gwA.controlUrl, env.secretKey, user));
  tokens.set('dee', await mintToken(gwA.controlUrl, env.secretKey, 'dee', { capabilities: { '*': ['subscribe', 'publish', 'history'] } }));
  const sockets: TestSocket[] = [];
  t.after(() => Promise.all(sockets.map((s) => s.close())));
  let ref = 0;
  const connect = async (gw: typeof gwA, user: string, channels: string[]) => {
    const socket = openSocket(gw.realtimeUrl, `/v1/connect?token=${tokens.get(user)}`);
    sockets.push(socket);
    await socket.waitFor(`${user} connected`, (f) => f.op === 'connected');
    for (const channelId of channels) {
      const r = ++ref;
      socket.send({ op: 'subscribe', ref: r, channelId });
      await socket.waitFor(`${user} subscribed to ${channelId}`, (f) => f.ref === r && f.op === 'subscribed');
    }
    return socket;
  };
  /** Sends a request frame and resolves with its answer (the frame echoing its ref). */
  const ask = async (socket: TestSocket, frame: Record<string, unknown>) => {
    const r = ++ref;
    socket.send({ ...frame, ref: r });
    return socket.waitFor(`answer to ${frame.op}`, (f) => f.ref === r);
  };
  /** The roster entries of `userId` on both hosts of `gw` (the realtime edge read as `reader`). */
  const rosterEntries = async (gw: typeof gwA, userId: string, reader = 'cid') => {
    const onControl = await client(gw.controlUrl, env.secretKey).get(`/v1/channels/${CHANNEL}/members`);
    const onEdge = await client(gw.realtimeUrl, tokens.get(reader)).get(`/v1/channels/${CHANNEL}/members`);
    assert.equal(onControl.status, 200, JSON.stringify(onControl.body));
    assert.equal(onEdge.status, 200, JSON.stringify(onEdge.body));
    return [onControl, onEdge].map((res) => res.body.members.find((m: any) => m.userId === userId)) as (
      | { userId: string; online: boolean; data?: any }
      | undefined
    )[];
  };
  const rosterEntry = async (gw: typeof gwA, userId: string) => (await rosterEntries(gw, userId))[0];
  /** Waits until both hosts of both gateways show an entry of `userId` that `match` accepts. */
  const everywhere = async (userId: string, match: (entry: any) => boolean) => {
    for (const gw of [gwA, gwB]) {
      await eventually(`${userId}'s roster entry on both hosts of ${gw === gwA ? 'A' : 'B'}`, async () => (await rosterEntries(gw, userId)).every(match));
    }
  };
  const presenceFrames = (socket: TestSocket) => socket.frames.filter((f) => f.op === 'presence' && f.channelId === CHANNEL);

  // bob listens on gateway B; ann subscribes on gateway A and enters with data
  const bob = await connect(gwB, 'bob', [CHANNEL]);
  const ann = await connect(gwA, 'ann', [CHANNEL, 'quiet:1']);
  const data = { status: 'away', tags: ['x', 1, null], nested: { ok: true } };
  assert.deepEqual(await ask(ann, { op: 'presence-enter', channelId: CHANNEL, data }), { op: 'presence-entered', ref: ref, channelId: CHANNEL });
  await bob.waitFor(
    'ann entered, with her data',
    (f) => f.op === 'presence' && f.entered?.some((e: any) => e.userId === 'ann' && JSON.stringify(e.data) === JSON.stringify(data)),
  );
  await everywhere('ann', (entry) => entry?.online === true && JSON.stringify(entry.data) === JSON.stringify(data));
  assert.equal((await rosterEntry(gwA, 'bob'))?.data, undefined, 'a user who did not enter has no data');
  assert.equal('data' in (await rosterEntry(gwB, 'bob'))!, false);

  // an update replaces it everywhere
  assert.equal((await ask(ann, { op: 'presence-update', channelId: CHANNEL, data: 'back' })).op, 'presence-updated');
  await bob.waitFor('ann updated', (f) => f.op === 'presence' && f.updated?.some((e: any) => e.userId === 'ann' && e.data === 'back'));
  await everywhere('ann', (entry) => entry?.data === 'back');
  assert.ok(
    presenceFrames(bob).every((f) => Array.isArray(f.joined) && Array.isArray(f.left)),
    'joined and left are in every frame',
  );
  assert.ok(!presenceFrames(bob).some((f) => f.joined.includes('ann') && f.updated), 'an update is not a join');

  // an explicit leave: the entry goes, ann stays online
  assert.equal((await ask(ann, { op: 'presence-leave', channelId: CHANNEL })).op, 'presence-left');
  await bob.waitFor('ann exited', (f) => f.op === 'presence' && f.exited?.includes('ann'));
  await everywhere('ann', (entry) => entry?.online === true && !('data' in entry));
  assert.equal((await ask(ann, { op: 'presence-leave', channelId: CHANNEL })).op, 'presence-left', 'leaving again is fine');

  // refusals, each an error frame echoing ref and channelId; the connection stays open
  const refused = async (socket: TestSocket, frame: Record<string, unknown>, code: string) => {
    const answer = await ask(socket, frame);
    assert.deepEqual([answer.op, answer.ref, answer.channelId, answer.code], ['error', ref, frame.channelId, code], JSON.stringify(answer));
    assert.equal(typeof answer.reason, 'string');
  };
  await refused(ann, { op: 'presence-update', channelId: CHANNEL, data: 1 }, 'invalid_request'); // not entered (left above)
  await refused(ann, { op: 'presence-enter', channelId: CHANNEL, data: 'x'.repeat(1023) }, 'payload_too_large'); // 1025 bytes serialized
  await refused(ann, { op: 'presence-enter', channelId: 'quiet:1', data: 1 }, 'forbidden'); // presence off in quiet:
  await refused(ann, { op: 'presence-enter', channelId: 'chat:other', data: 1 }, 'invalid_request'); // not subscribed here
  await refused(ann, { op: 'presence-update', channelId: CHANNEL }, 'invalid_request'); // update needs data
  const dee = await connect(gwA, 'dee', [CHANNEL]);
  await refused(dee, { op: 'presence-enter', channelId: CHANNEL, data: 1 }, 'forbidden'); // no presence capability
  // 1 KiB exactly is taken
  assert.equal((await ask(ann, { op: 'presence-enter', channelId: CHANNEL, data: 'y'.repeat(1022) })).op, 'presence-entered');
  await everywhere('ann', (entry) => entry?.data === 'y'.repeat(1022));
  assert.equal((await ask(ann, { op: 'presence-update', channelId: CHANNEL, data: { v: 2 } })).op, 'presence-updated');
  await everywhere('ann', (entry) => entry?.data?.v === 2);

  // cid enters on both gateways; the close of one connection keeps the other's entry, the last removes it
  const cidA = await connect(gwA, 'cid', [CHANNEL]);
  const cidB = await connect(gwB, 'cid', [CHANNEL]);
  assert.equal((await ask(cidA, { op: 'presence-enter', channelId: CHANNEL, data: 'on A' })).op, 'presence-entered');
  await everywhere('cid', (entry) => entry?.data === 'on A');
  await bob.waitFor('cid entered on A', (f) => f.op === 'presence' && f.entered?.some((e: any) => e.userId === 'cid' && e.data === 'on A'));
  assert.equal((await ask(cidB, { op: 'presence-enter', channelId: CHANNEL, data: 'on B' })).op, 'presence-entered');
  await everywhere('cid', (entry) => entry?.data === 'on B');
  // a second entry of the same user is an update of the user's entry
  await bob.waitFor('cid updated to B', (f) => f.op === 'presence' && f.updated?.some((e: any) => e.userId === 'cid' && e.data === 'on B'));
  await cidB.close();
  await everywhere('cid', (entry) => entry?.online === true && entry.data === 'on A');
  await bob.waitFor('cid back to its data on A', (f) => f.op === 'presence' && f.updated?.some((e: any) => e.userId === 'cid' && e.data === 'on A'));

  // ann's last connection closes: she leaves (offline, and her entry with her)
  await ann.close();
  await bob.waitFor('ann left and exited', (f) => f.op === 'presence' && f.left.includes('ann') && f.exited?.includes('ann'));
  await everywhere('ann', (entry) => entry === undefined || (entry.online === false && !('data' in entry)));
  await cidA.close();
  await everywhere('cid', (entry) => entry === undefined);
});
