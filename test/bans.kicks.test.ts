import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken } from './helpers/http.ts';
import { openSocket } from './helpers/ws.ts';

test('bans - channel and environment bans refuse access and close live sockets on every gateway with 4403', async (t) => {
  const cluster = await startCluster(t, { gateways: 2 });
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const env = await cluster.createEnvironment();
  const control = client(gwA.controlUrl, env.secretKey);
  const mallory = await mintToken(gwA.controlUrl, env.secretKey, 'mallory');
  const trent = await mintToken(gwA.controlUrl, env.secretKey, 'trent');
  const asMallory = client(gwB.realtimeUrl, mallory);

  // channel ban: sockets on both gateways closed, the other channel untouched
  const onA = openSocket(gwA.realtimeUrl, `/v1/channels/general?token=${mallory}`);
  const onB = openSocket(gwB.realtimeUrl, `/v1/channels/general?token=${mallory}`);
  const elsewhere = openSocket(gwB.realtimeUrl, `/v1/channels/random?token=${mallory}`);
  const bystander = openSocket(gwA.realtimeUrl, `/v1/channels/general?token=${trent}`);
  await Promise.all([onA, onB, elsewhere, bystander].map((s) => s.waitFor('ready', (f) => f.op === 'ready')));
  const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
  const ban = await control.put('/v1/channels/general/bans/mallory', { reason: 'spam', expiresAt });
  assert.equal(ban.status, 200);
  assert.deepEqual({ ...ban.body, createdAt: undefined }, { userId: 'mallory', channelId: 'general', reason: 'spam', expiresAt, createdAt: undefined });
  const [closedA, closedB] = await Promise.all([onA.closed, onB.closed]);
  assert.equal(closedA.code, 4403);
  assert.equal(closedB.code, 4403);
  assert.equal(elsewhere.ws.readyState, elsewhere.ws.OPEN);
  assert.equal(bystander.ws.readyState, bystander.ws.OPEN);
  const history = await asMallory.get('/v1/channels/general/history');
  assert.equal(history.status, 403);
  assert.equal(errorCode(history), 'banned');
  assert.equal(history.body.reason, 'spam');
  assert.equal(errorCode(await asMallory.post('/v1/channels/general/messages', { content: { text: 'hi' } })), 'banned');
  assert.equal(errorCode(await asMallory.get('/v1/channels/general/members')), 'banned');
  assert.equal((await openSocket(gwB.realtimeUrl, `/v1/channels/general?token=${mallory}`).closed).code, 4403);
  assert.equal((await control.get('/v1/channels/general/bans/mallory')).body.reason, 'spam');
  assert.equal(errorCode(await control.get('/v1/channels/random/bans/mallory')), 'not_found');
  // a banned user is left out of the roster
  await control.put('/v1/channels/general/members/mallory');
  assert.deepEqual(
    (await control.get('/v1/channels/general/members')).body.members.map((m: any) => m.userId),
    ['trent'],
  );

  // lifting it restores access; DELETE is idempotent
  assert.equal((await control.delete('/v1/channels/general/bans/mallory')).status, 204);
  assert.equal((await control.delete('/v1/channels/general/bans/mallory')).status, 204);
  assert.equal(errorCode(await control.get('/v1/channels/general/bans/mallory')), 'not_found');
  assert.equal((await asMallory.get('/v1/channels/general/history')).status, 200);

  // an expired ban no longer counts
  await cluster.db.pool.query(
    `insert into bans (environment_id, channel_id, user_id, expires_at) values ($1, 'general', 'mallory', now() - interval '1 minute')`,
    [env.environmentId],
  );
  assert.equal((await asMallory.get('/v1/channels/general/history')).status, 200);
  assert.equal(errorCode(await control.get('/v1/channels/general/bans/mallory')), 'not_found');

  // removing a member closes their sockets on the channel too
  const again = openSocket(gwA.realtimeUrl, `/v1/channels/general?token=${mallory}`);
  await again.waitFor('ready', (f) => f.op === 'ready');
  assert.equal((await control.delete('/v1/channels/general/members/mallory')).status, 204);
  assert.equal((await again.closed).code, 4403);

  // switching a channel to members-only closes the sockets of non-members only
  await control.put('/v1/channels/general/members/trent');
  const outsider = openSocket(gwB.realtimeUrl, `/v1/channels/general?token=${mallory}`);
  await outsider.waitFor('ready', (f) => f.op === 'ready');
  assert.equal((await control.put('/v1/channels/general', { access: 'members' })).body.access, 'members');
  assert.equal((await outsider.closed).code, 4403);
  assert.equal(bystander.ws.readyState, bystander.ws.OPEN);

  // environment-wide ban: every socket of the user on every gateway (channel and inbox), and no new token
  const inboxA = openSocket(gwA.realtimeUrl, `/inbox?token=${mallory}`);
  await inboxA.waitFor('inbox ready', (f) => f.op === 'ready');
  const envBan = await control.put('/v1/bans/mallory', { reason: 'abuse' });
  assert.equal(envBan.status, 200);
  assert.equal(envBan.body.channelId, null);
  assert.equal(envBan.body.expiresAt, null);
  assert.equal((await elsewhere.closed).code, 4403);
  assert.equal((await inboxA.closed).code, 4403);
  const token = await control.post('/v1/tokens', { userId: 'mallory' });
  assert.equal(token.status, 403);
  assert.equal(errorCode(token), 'banned');
  assert.equal(errorCode(await asMallory.get('/v1/channels/random/history')), 'banned');
  assert.equal(errorCode(await asMallory.get('/v1/inbox')), 'banned');
  assert.equal((await openSocket(gwB.realtimeUrl, `/inbox?token=${mallory}`).closed).code, 4403);
  assert.equal((await control.get('/v1/bans/mallory')).body.reason, 'abuse');
  assert.equal((await control.delete('/v1/bans/mallory')).status, 204);
  assert.equal((await control.post('/v1/tokens', { userId: 'mallory' })).status, 201);

  // bad input
  assert.equal(errorCode(await control.put('/v1/bans/mallory', { expiresAt: new Date(Date.now() - 1000).toISOString() })), 'invalid_request');
  assert.equal(errorCode(await control.put('/v1/bans/mallory', { expiresAt: 'tomorrow' })), 'invalid_request');
  assert.equal(errorCode(await control.put('/v1/bans/mallory', { reason: 'x', extra: true })), 'invalid_request');
  assert.equal(errorCode(await control.put('/v1/bans/a%20b')), 'invalid_request');
  assert.equal(errorCode(await control.get('/v1/bans/nobody')), 'not_found');
  assert.equal(errorCode(await client(gwA.controlUrl).put('/v1/bans/mallory')), 'unauthorized');
  // every kick is counted where it happened
  const metrics = await (await fetch(`${gwB.internalUrl}/internal/metrics`)).text();
  assert.match(metrics, /gateway_kicked_sockets_total\{[^}]*scope="channel"[^}]*\} [1-9]/);
  assert.match(metrics, /gateway_kicked_sockets_total\{[^}]*scope="environment"[^}]*\} [1-9]/);
  assert.match(metrics, /gateway_kicked_sockets_total\{[^}]*scope="recheck"[^}]*\} [1-9]/);
  await bystander.close();
});
