import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken } from './helpers/http.ts';
import { openSocket } from './helpers/ws.ts';

const jtiOf = (token: string) => String(decodeJwt(token).jti);

test('token revocation - one token by jti: refused on every gateway, its sockets close with 4401, others untouched', { timeout: 120_000 }, async (t) => {
  const cluster = await startCluster(t, { gateways: 2 });
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const env = await cluster.createEnvironment();
  const other = await cluster.createEnvironment('other');
  const control = client(gwA.controlUrl, env.secretKey);
  const revoked = await mintToken(gwA.controlUrl, env.secretKey, 'alice');
  const kept = await mintToken(gwA.controlUrl, env.secretKey, 'alice');

  // both gateways have verified (and cached) both tokens before the revocation
  for (const gw of cluster.gateways) {
    assert.equal((await client(gw.realtimeUrl, revoked).get('/v1/me')).status, 200);
    assert.equal((await client(gw.realtimeUrl, kept).get('/v1/me')).status, 200);
  }
  const channelA = openSocket(gwA.realtimeUrl, `/v1/channels/general?token=${revoked}`);
  const inboxB = openSocket(gwB.realtimeUrl, `/inbox?token=${revoked}`);
  const connectB = openSocket(gwB.realtimeUrl, `/v1/connect?token=${revoked}`);
  const survivor = openSocket(gwA.realtimeUrl, `/v1/channels/general?token=${kept}`);
  await Promise.all([
    channelA.waitFor('ready', (f) => f.op === 'ready'),
    inboxB.waitFor('inbox ready', (f) => f.op === 'ready'),
    connectB.waitFor('connected', (f) => f.op === 'connected'),
    survivor.waitFor('ready', (f) => f.op === 'ready'),
  ]);

  // another environment's secret key revoking the same jti changes nothing here
  assert.equal((await client(gwA.controlUrl, other.secretKey).post('/v1/tokens/revoke', { jti: jtiOf(revoked) })).status, 200);
  assert.equal((await client(gwB.realtimeUrl, revoked).get('/v1/me')).status, 200);

  const res = await control.post('/v1/tokens/revoke', { jti: jtiOf(revoked) });
  assert.equal(res.status, 200);
  assert.equal(res.body.jti, jtiOf(revoked));
  assert.equal(res.body.revoked, true);
  const closes = await Promise.all([channelA.closed, inboxB.closed, connectB.closed]);
  for (const closed of closes) assert.deepEqual(closed, { code: 4401, reason: 'token revoked' });
  for (const gw of cluster.gateways) {
    const refused = await client(gw.realtimeUrl, revoked).get('/v1/me');
    assert.equal(refused.status, 401);
    assert.equal(errorCode(refused), 'unauthorized');
    assert.equal(refused.body.reason, 'token revoked');
    assert.equal((await openSocket(gw.realtimeUrl, `/v1/channels/general?token=${revoked}`).closed).code, 4401);
    assert.equal((await client(gw.realtimeUrl, kept).get('/v1/me')).status, 200);
  }
  assert.equal(survivor.ws.readyState, survivor.ws.OPEN);

  // revoking again is idempotent; a bad body is a clear 400
  assert.equal((await control.post('/v1/tokens/revoke', { jti: jtiOf(revoked) })).status, 200);
  assert.equal(errorCode(await control.post('/v1/tokens/revoke', { jti: '' })), 'invalid_request');
  // a NUL cannot be stored in Postgres text: refused as input, never a 500
  assert.equal(errorCode(await control.post('/v1/tokens/revoke', { jti: '\u0000' })), 'invalid_request');
  assert.equal(errorCode(await control.post('/v1/tokens/revoke', {})), 'invalid_request');
  // a user token cannot revoke: a valid credential of the wrong kind on the control plane
  assert.equal((await client(gwA.controlUrl, kept).post('/v1/tokens/revoke', { jti: jtiOf(kept) })).status, 403);

  // a gateway started now (an empty cache) knows the revocation from Postgres
  const late = await cluster.start('gateway');
  assert.equal((await client(late.realtimeUrl, revoked).get('/v1/me')).status, 401);
  assert.equal((await client(late.realtimeUrl, kept).get('/v1/me')).status, 200);
  await survivor.close();
});

test("token revocation - all of a user's tokens: sockets close on every gateway, tokens minted afterwards work", { timeout: 120_000 }, async (t) => {
  const cluster = await startCluster(t, { gateways: 2 });
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const env = await cluster.createEnvironment();
  const control = client(gwB.controlUrl, env.secretKey);
  const first = await mintToken(gwA.controlUrl, env.secretKey, 'mallory');
  const second = await mintToken(gwB.controlUrl, env.secretKey, 'mallory');
  const bystander = await mintToken(gwA.controlUrl, env.secretKey, 'trent');
  const sockets = [
    openSocket(gwA.realtimeUrl, `/v1/channels/general?token=${first}`),
    openSocket(gwB.realtimeUrl, `/v1/connect?token=${second}`),
    openSocket(gwA.realtimeUrl, `/inbox?token=${second}`),
  ];
  const trentSocket = openSocket(gwB.realtimeUrl, `/v1/channels/general?token=${bystander}`);
  await Promise.all([...sockets, trentSocket].map((s) => s.waitFor('open', (f) => f.op === 'ready' || f.op === 'connected')));

  const res = await control.delete('/v1/users/mallory/tokens');
  assert.equal(res.status, 200);
  assert.equal(res.body.userId, 'mallory');
  // minted right after the answer (most often within the same second): works
  const fresh = await mintToken(gwA.controlUrl, env.secretKey, 'mallory');
  for (const socket of sockets) assert.deepEqual(await socket.closed, { code: 4401, reason: 'token revoked' });
  for (const gw of cluster.gateways) {
    for (const old of [first, second]) {
      const refused = await client(gw.realtimeUrl, old).get('/v1/me');
      assert.equal(refused.status, 401);
      assert.equal(refused.body.reason, 'token revoked');
    }
    assert.equal((await client(gw.realtimeUrl, fresh).get('/v1/me')).status, 200);
    assert.equal((await client(gw.realtimeUrl, bystander).get('/v1/me')).status, 200);
  }
  const again = openSocket(gwB.realtimeUrl, `/v1/channels/general?token=${fresh}`);
  await again.waitFor('ready', (f) => f.op === 'ready');
  assert.equal(trentSocket.ws.readyState, trentSocket.ws.OPEN);

  // a multiplexed connection that re-authenticated with a new token is judged by the new one
  const renewed = openSocket(gwA.realtimeUrl, `/v1/connect?token=${fresh}`);
  await renewed.waitFor('connected', (f) => f.op === 'connected');
  const newest = await mintToken(gwA.controlUrl, env.secretKey, 'mallory');
  renewed.send({ op: 'auth', ref: 1, token: newest });
  await renewed.waitFor('authenticated', (f) => f.op === 'authenticated');
  // revoke exactly `fresh` by id: `again` (fresh) closes, `renewed` (now newest) stays
  assert.equal((await control.post('/v1/tokens/revoke', { jti: jtiOf(fresh) })).status, 200);
  assert.equal((await again.closed).code, 4401);
  assert.equal((await client(gwA.realtimeUrl, newest).get('/v1/me')).status, 200);
  assert.equal(renewed.ws.readyState, renewed.ws.OPEN);

  // the cutoff is persisted: a gateway started now refuses the old tokens, takes the new ones
  const late = await cluster.start('gateway');
  assert.equal((await client(late.realtimeUrl, first).get('/v1/me')).status, 401);
  assert.equal((await client(late.realtimeUrl, newest).get('/v1/me')).status, 200);

  // unknown-user revocation is fine (idempotent), a malformed user id is a 400
  assert.equal((await control.delete('/v1/users/nobody/tokens')).status, 200);
  assert.equal(errorCode(await control.delete(`/v1/users/${'x'.repeat(300)}/tokens`)), 'invalid_request');
  await Promise.all([renewed.close(), trentSocket.close()]);
});

test('token revocation - expired revocations are swept from Postgres', { timeout: 120_000 }, async (t) => {
  const cluster = await startCluster(t, { gateways: 1 });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  const control = client(gw.controlUrl, env.secretKey);
  await cluster.db.pool.query(`insert into revoked_tokens (environment_id, jti, expires_at) values ($1, 'jti_old', now() - interval '1 second')`, [
    env.environmentId,
  ]);
  await cluster.db.pool.query(
    `insert into user_token_cutoffs (environment_id, user_id, valid_after, expires_at)
     values ($1, 'gone', now() - interval '2 days', now() - interval '1 second')`,
    [env.environmentId],
  );
  assert.equal((await control.post('/v1/tokens/revoke', { jti: 'jti_new' })).status, 200);
  const { rows } = await cluster.db.pool.query<{ jti: string }>('select jti from revoked_tokens where environment_id = $1', [env.environmentId]);
  assert.deepEqual(
    rows.map((r) => r.jti),
    ['jti_new'],
  );
  const cutoffs = await cluster.db.pool.query('select 1 from user_token_cutoffs where environment_id = $1', [env.environmentId]);
  assert.equal(cutoffs.rowCount, 0);
});
