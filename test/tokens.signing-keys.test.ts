import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeProtectedHeader } from 'jose';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';
import { openSocket } from './helpers/ws.ts';

const kidOf = (token: string) => decodeProtectedHeader(token).kid;

test('signing keys - rotation keeps the old key verifying for its grace period, then its tokens are refused everywhere', { timeout: 120_000 }, async (t) => {
  const cluster = await startCluster(t, { gateways: 2 });
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const env = await cluster.createEnvironment();
  const control = client(gwA.controlUrl, env.secretKey);
  const old = await mintToken(gwB.controlUrl, env.secretKey, 'alice');
  for (const gw of cluster.gateways) assert.equal((await client(gw.realtimeUrl, old).get('/v1/me')).status, 200);

  const listed = await control.get('/v1/signing-keys');
  assert.equal(listed.status, 200);
  assert.deepEqual(
    listed.body.keys.map((k: any) => [k.id, k.state]),
    [[kidOf(old), 'active']],
  );

  const rotated = await control.post('/v1/signing-keys/rotate', { graceSeconds: 3600 });
  assert.equal(rotated.status, 200);
  assert.notEqual(rotated.body.id, kidOf(old));
  assert.equal(rotated.body.retired.length, 1);
  assert.equal(rotated.body.retired[0].id, kidOf(old));
  const ends = Date.parse(rotated.body.retired[0].retiresAt) - Date.now();
  assert.ok(ends > 3_500_000 && ends <= 3_600_000, `grace ends in about an hour (${ends} ms)`);

  // both gateways sign with the new key (the rotating one at once, the other once the invalidation arrives) …
  await eventually('the other gateway signs with the new key', async () => kidOf(await mintToken(gwB.controlUrl, env.secretKey, 'alice')) === rotated.body.id);
  for (const gw of cluster.gateways) {
    const fresh = await mintToken(gw.controlUrl, env.secretKey, 'alice');
    assert.equal(kidOf(fresh), rotated.body.id);
    assert.equal((await client(gw.realtimeUrl, fresh).get('/v1/me')).status, 200);
    // … and the old key's token still works during the grace period
    assert.equal((await client(gw.realtimeUrl, old).get('/v1/me')).status, 200);
  }
  const states = (await control.get('/v1/signing-keys')).body.keys.map((k: any) => [k.id, k.state]);
  assert.deepEqual(states, [
    [rotated.body.id, 'active'],
    [kidOf(old), 'grace'],
  ]);

  // the grace period ends (moved to now, as time would): every gateway refuses the old token
  await cluster.db.pool.query('update signing_keys set retired_at = now() where id = $1', [kidOf(old)]);
  for (const gw of cluster.gateways) {
    await eventually(`${gw.name} refuses the retired key's token`, async () => (await client(gw.realtimeUrl, old).get('/v1/me')).status === 401);
    const refused = await client(gw.realtimeUrl, old).get('/v1/me');
    assert.equal(errorCode(refused), 'unauthorized');
    assert.equal(refused.body.reason, 'unknown signing key');
  }
  assert.equal((await control.get('/v1/signing-keys')).body.keys[1].state, 'retired');

  // a rotation without grace refuses the current key's tokens at once, on every gateway
  const current = await mintToken(gwA.controlUrl, env.secretKey, 'bob');
  for (const gw of cluster.gateways) assert.equal((await client(gw.realtimeUrl, current).get('/v1/me')).status, 200);
  // … and closes the sockets opened with them (4401), on every gateway
  const socketA = openSocket(gwA.realtimeUrl, `/v1/channels/general?token=${current}`);
  const socketB = openSocket(gwB.realtimeUrl, `/v1/connect?token=${current}`);
  await socketA.waitFor('ready', (f) => f.op === 'ready');
  await socketB.waitFor('connected', (f) => f.op === 'connected');
  const now = await client(gwB.controlUrl, env.secretKey).post('/v1/signing-keys/rotate', { graceSeconds: 0 });
  assert.equal(now.status, 200);
  for (const closed of await Promise.all([socketA.closed, socketB.closed])) assert.equal(closed.code, 4401);
  const afterRotation = await mintToken(gwA.controlUrl, env.secretKey, 'bob');
  const survivor = openSocket(gwA.realtimeUrl, `/v1/channels/general?token=${afterRotation}`);
  await survivor.waitFor('ready', (f) => f.op === 'ready');
  assert.equal((await client(gwB.realtimeUrl, current).get('/v1/me')).status, 401);
  await eventually('the other gateway refuses the rotated-out key', async () => (await client(gwA.realtimeUrl, current).get('/v1/me')).status === 401);
  // bad grace values are clear 400s
  assert.equal(errorCode(await control.post('/v1/signing-keys/rotate', { graceSeconds: -1 })), 'invalid_request');
  assert.equal(errorCode(await control.post('/v1/signing-keys/rotate', { graceSeconds: 8 * 86_400 })), 'invalid_request');
  // another environment's keys are untouched
  const other = await cluster.createEnvironment('other');
  const theirs = await mintToken(gwA.controlUrl, other.secretKey, 'carol');
  assert.equal((await client(gwA.realtimeUrl, theirs).get('/v1/me')).status, 200);
  assert.equal(survivor.ws.readyState, survivor.ws.OPEN);
  await survivor.close();
});
