import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, request } from './helpers/http.ts';

test('tokens - a secret key mints a user token; bad input and browser use are refused', async (t) => {
  const cluster = await startCluster(t, { gateways: 1 });
  const env = await cluster.createEnvironment();
  const control = client(cluster.gateways[0]!.controlUrl, env.secretKey);

  const minted = await control.post('/v1/tokens', { userId: 'alice', ttlSeconds: 120 });
  assert.equal(minted.status, 201);
  assert.equal(minted.body.userId, 'alice');
  assert.ok(Date.parse(minted.body.expiresAt) > Date.now() + 100_000);

  assert.equal(errorCode(await control.post('/v1/tokens', { userId: 'bad id' })), 'invalid_request');
  assert.equal(errorCode(await control.post('/v1/tokens', { userId: 'a', extra: 1 })), 'invalid_request');
  assert.equal(errorCode(await control.post('/v1/tokens', { userId: 'a', ttlSeconds: 59 })), 'invalid_request');
  const fromBrowser = await control.post('/v1/tokens', { userId: 'a' }, { origin: 'https://app.example.com' });
  assert.equal(fromBrowser.status, 403);
  assert.equal(errorCode(fromBrowser), 'origin_forbidden');
  const noKey = await request(cluster.gateways[0]!.controlUrl, 'POST', '/v1/tokens', { body: { userId: 'a' } });
  assert.equal(noKey.status, 401);
  assert.equal(errorCode(noKey), 'unauthorized');
});
