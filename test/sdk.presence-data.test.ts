/**
 * The client SDK's presence entry against a real cluster (two gateways): `channel.presence.enter`,
 * `.update`, `.leave`, `.get()` with the data, the `enter`/`update`/`exit` events on another
 * gateway's client, the entry entered again after a dropped connection, and refusals.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RtmError } from '@rtm/client';
import { startCluster } from './helpers/cluster.ts';
import { client as http, mintToken } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';
import { dropConnection, sdkClient, until } from './helpers/sdk.ts';

test('sdk presence data - enter, update, leave, get and events over two gateways; re-entered after a reconnect', async (t) => {
  const cluster = await startCluster(t, { gateways: 2 });
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const env = await cluster.createEnvironment();
  const control = http(gwA.controlUrl, env.secretKey);
  const deployed = await control.put('/v1/config', {
    limits: { userRosterReadsPerSecond: 1_000 },
    namespaces: [{ prefix: 'room:', joinLeave: true }],
  });
  assert.equal(deployed.status, 200, JSON.stringify(deployed.body));
  const tokenFor =
    (userId: string, extra: object = {}) =>
    () =>
      mintToken(gwA.controlUrl, env.secretKey, userId, extra);

  const alice = sdkClient(t, gwA.realtimeUrl, tokenFor('alice'));
  const bob = sdkClient(t, gwB.realtimeUrl, tokenFor('bob'));
  const events: unknown[] = [];
  const watched = bob.channel('room:1');
  watched.presence.on('enter', (userId, data) => events.push(['enter', userId, data]));
  watched.presence.on('update', (userId, data) => events.push(['update', userId, data]));
  watched.presence.on('exit', (userId) => events.push(['exit', userId]));
  await watched.subscribe(() => {}).ready;

  const room = alice.channel('room:1');
  await assert.rejects(room.presence.enter({ x: 1 }), (error: RtmError) => error.code === 'invalid_request', 'not subscribed: refused');
  room.subscribe(() => {});
  // entered as soon as the subscription is live
  await room.presence.enter({ status: 'here', n: 1 });
  assert.equal(room.presence.entered, true);
  await until('bob saw alice enter', () => events.some((e) => JSON.stringify(e) === JSON.stringify(['enter', 'alice', { status: 'here', n: 1 }])));
  const dataOf = async (client: typeof bob, userId: string) => (await client.channel('room:1').presence.get()).find((m) => m.userId === userId)?.data as any;
  await eventually('the roster on gateway B shows the data', async () => JSON.stringify(await dataOf(bob, 'alice')) === '{"status":"here","n":1}');

  await room.presence.update({ status: 'busy' });
  await until('bob saw the update', () => events.some((e) => JSON.stringify(e) === JSON.stringify(['update', 'alice', { status: 'busy' }])));
  await eventually(
    'the roster on both gateways',
    async () => (await dataOf(bob, 'alice'))?.status === 'busy' && (await dataOf(alice, 'alice'))?.status === 'busy',
  );

  // a dropped connection: the server forgets the entry with the subscription, the SDK enters again
  dropConnection(alice);
  await room.presence.update({ status: 'back' });
  await eventually('re-entered with the latest data', async () => (await dataOf(bob, 'alice'))?.status === 'back');
  assert.ok(room.presence.entered);
  // frames of a channel come in order: once bob has seen 'back', nothing older is still to come
  const isBack = (e: unknown) => ['enter', 'update'].includes((e as unknown[])[0] as string) && ((e as unknown[])[2] as any)?.status === 'back';
  await until('bob saw alice back', () => events.some(isBack));

  const seen = events.length;
  await room.presence.leave();
  assert.equal(room.presence.entered, false);
  await until('bob saw alice exit', () => events.slice(seen).some((e) => JSON.stringify(e) === '["exit","alice"]'));
  await eventually('no data on the roster, alice still online', async () => {
    const entry = (await watched.presence.get()).find((m) => m.userId === 'alice');
    return entry?.online === true && !('data' in entry);
  });

  // refusals come back as RtmErrors
  await assert.rejects(room.presence.update({ a: 1 }), (error: RtmError) => error.code === 'invalid_request');
  await assert.rejects(room.presence.enter('z'.repeat(2000)), (error: RtmError) => error.code === 'payload_too_large');
  const carol = sdkClient(t, gwA.realtimeUrl, tokenFor('carol', { capabilities: { '*': ['subscribe', 'publish', 'history'] } }));
  const carolRoom = carol.channel('room:1');
  carolRoom.subscribe(() => {});
  await assert.rejects(carolRoom.presence.enter({ hi: 1 }), (error: RtmError) => error.code === 'forbidden');
  assert.equal(carolRoom.presence.entered, false);
});
