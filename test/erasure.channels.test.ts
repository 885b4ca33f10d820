import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken } from './helpers/http.ts';
import { openSocket } from './helpers/ws.ts';

test('erasure - deleting a channel removes its messages, members and bans and closes its sockets on every gateway', { timeout: 180_000 }, async (t) => {
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 1, dispatchers: 1 });
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const env = await cluster.createEnvironment();
  const control = client(gwA.controlUrl, env.secretKey);
  const aliceToken = await mintToken(gwA.controlUrl, env.secretKey, 'alice');
  const alice = client(gwA.realtimeUrl, aliceToken);
  for (let i = 0; i < 5; i++) assert.equal((await alice.post('/v1/channels/doomed/messages', { content: { n: i } })).status, 201);
  assert.equal((await alice.post('/v1/channels/kept/messages', { content: { n: 0 } })).status, 201);
  assert.equal((await control.put('/v1/channels/doomed/members/alice', { role: 'moderator' })).status, 200);
  assert.equal((await control.put('/v1/channels/doomed/members/bob')).status, 200);
  assert.equal((await control.put('/v1/channels/doomed/bans/mallory', { reason: 'spam' })).status, 200);
  assert.equal((await control.put('/v1/channels/kept/members/alice')).status, 200);

  const onA = openSocket(gwA.realtimeUrl, `/v1/channels/doomed?token=${aliceToken}`);
  const onB = openSocket(gwB.realtimeUrl, `/v1/channels/doomed?token=${aliceToken}`);
  const multiplexed = openSocket(gwB.realtimeUrl, `/v1/connect?token=${aliceToken}`);
  const elsewhere = openSocket(gwA.realtimeUrl, `/v1/channels/kept?token=${aliceToken}`);
  await Promise.all([onA, onB, elsewhere].map((s) => s.waitFor('ready', (f) => f.op === 'ready')));
  await multiplexed.waitFor('connected', (f) => f.op === 'connected');
  multiplexed.send({ op: 'subscribe', ref: 'd', channelId: 'doomed' });
  multiplexed.send({ op: 'subscribe', ref: 'k', channelId: 'kept' });
  await multiplexed.waitFor('subscribed d', (f) => f.op === 'subscribed' && f.ref === 'd');
  await multiplexed.waitFor('subscribed k', (f) => f.op === 'subscribed' && f.ref === 'k');

  const deleted = await client(gwB.controlUrl, env.secretKey).delete('/v1/channels/doomed');
  assert.equal(deleted.status, 200);
  assert.deepEqual(deleted.body, { channelId: 'doomed', deleted: { messages: 5, members: 2, bans: 1 } });
  for (const closed of await Promise.all([onA.closed, onB.closed])) assert.deepEqual(closed, { code: 4403, reason: 'channel deleted' });
  const ended = await multiplexed.waitFor('doomed ends', (f) => f.op === 'unsubscribed' && f.channelId === 'doomed');
  assert.equal(ended.code, 'forbidden');
  assert.equal(multiplexed.ws.readyState, multiplexed.ws.OPEN);
  assert.equal(elsewhere.ws.readyState, elsewhere.ws.OPEN);

  // nothing of it is left; the other channel is untouched
  assert.deepEqual((await control.get('/v1/channels/doomed/history')).body.messages, []);
  assert.deepEqual((await control.get('/v1/channels/doomed/members')).body.members, []);
  assert.equal(errorCode(await control.get('/v1/channels/doomed/bans/mallory')), 'not_found');
  assert.equal((await control.get('/v1/channels/kept/history')).body.messages.length, 1);
  assert.equal((await control.get('/v1/channels/kept/members')).body.members.length, 1);

  // re-created by a publish: seqs continue after the old ones, never reused
  const again = await alice.post('/v1/channels/doomed/messages', { content: { n: 'new' } });
  assert.equal(again.status, 201);
  assert.equal(again.body.seq, 6);
  const resumed = openSocket(gwA.realtimeUrl, `/v1/channels/doomed?token=${aliceToken}&since=5`);
  const replayed = await resumed.waitFor('the new message', (f) => f.seq === 6);
  assert.deepEqual(replayed.content, { n: 'new' });
  await resumed.close();

  // deleting twice: the second time there is still the new message; an unknown channel is 404
  assert.equal((await control.delete('/v1/channels/doomed')).body.deleted.messages, 1);
  assert.equal(errorCode(await control.delete('/v1/channels/never-was')), 'not_found');
  // another environment's key cannot reach it
  const other = await cluster.createEnvironment('other');
  assert.equal(errorCode(await client(gwA.controlUrl, other.secretKey).delete('/v1/channels/kept')), 'not_found');
  assert.equal((await control.get('/v1/channels/kept/history')).body.messages.length, 1);
  await Promise.all([multiplexed.close(), elsewhere.close()]);
});
