import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { errorCode, request } from './helpers/http.ts';
import { admin, runAdmin } from './helpers/admin.ts';
import { eventually } from './helpers/eventually.ts';

test('revocation - a revoked key stops working on every gateway, other keys keep working', async (t) => {
  // credentials cached for a minute: only the bus invalidation can make a gateway refuse the key
  // within the 10 s this test waits (with it removed, the test fails)
  const cluster = await startCluster(t, { gateways: 2, env: { CREDENTIAL_CACHE_MS: '60000' } });
  const env = await cluster.createEnvironment('revoke');
  const spare = await admin(cluster.env, ['create-key', '--env', env.environmentId, '--kind', 'secret', '--json']);
  assert.match(spare.key, /^sk_/);

  const mint = (controlUrl: string, key: string) => request(controlUrl, 'POST', '/v1/tokens', { token: key, body: { userId: 'alice' } });
  const anonymous = (controlUrl: string, key: string) => request(controlUrl, 'POST', '/v1/tokens/anonymous', { headers: { 'x-service-key': key } });

  // both gateways have the keys in their credential caches before the revocation
  for (const gateway of cluster.gateways) {
    assert.equal((await mint(gateway.controlUrl, env.secretKey)).status, 201);
    assert.equal((await mint(gateway.controlUrl, spare.key)).status, 201);
    assert.equal((await anonymous(gateway.controlUrl, env.publishableKey)).status, 201);
  }

  const revoked = await admin(cluster.env, ['revoke-key', '--key', env.secretKey]);
  assert.match(revoked.revoked, /^key_/);
  const { rows } = await cluster.db.pool.query<{ id: string }>("select id from api_keys where environment_id = $1 and kind = 'publishable'", [
    env.environmentId,
  ]);
  await admin(cluster.env, ['revoke-key', '--id', rows[0]!.id]);

  for (const gateway of cluster.gateways) {
    await eventually(`${gateway.name} refuses the revoked secret key`, async () => (await mint(gateway.controlUrl, env.secretKey)).status === 401, 10_000);
    await eventually(
      `${gateway.name} refuses the revoked publishable key`,
      async () => (await anonymous(gateway.controlUrl, env.publishableKey)).status === 401,
      10_000,
    );
    const refused = await mint(gateway.controlUrl, env.secretKey);
    assert.equal(errorCode(refused), 'unauthorized');
    assert.equal(errorCode(await anonymous(gateway.controlUrl, env.publishableKey)), 'unauthorized');
    // the environment's other key is untouched
    assert.equal((await mint(gateway.controlUrl, spare.key)).status, 201);
  }

  // revoking twice is an operator error, not a silent success
  const again = await runAdmin(cluster.env, ['revoke-key', '--key', env.secretKey]);
  assert.equal(again.code, 64);
  assert.match(again.stderr, /no such active key/);
});
