import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster, type RunningProcess } from './helpers/cluster.ts';
import { errorCode, request } from './helpers/http.ts';
import { admin } from './helpers/admin.ts';
import { eventually } from './helpers/eventually.ts';

async function cacheMisses(gateway: RunningProcess): Promise<number> {
  const text = await (await fetch(`${gateway.internalUrl}/internal/metrics`)).text();
  const match = /^gateway_credential_cache_lookups_total\{[^}]*result="miss"[^}]*\} (\d+)/m.exec(text);
  return match ? Number(match[1]) : 0;
}

test("invalidation - revoking a key drops only its environment from every gateway's credential cache", async (t) => {
  // entries would live a minute: only an invalidation can explain a refusal or a reload
  const cluster = await startCluster(t, { gateways: 2, env: { CREDENTIAL_CACHE_MS: '60000' } });
  const envA = await cluster.createEnvironment('a');
  const envB = await cluster.createEnvironment('b');
  const mint = (gateway: RunningProcess, key: string) => request(gateway.controlUrl, 'POST', '/v1/tokens', { token: key, body: { userId: 'someone' } });

  for (const gateway of cluster.gateways) {
    assert.equal((await mint(gateway, envA.secretKey)).status, 201);
    assert.equal((await mint(gateway, envB.secretKey)).status, 201);
  }

  await admin(cluster.env, ['revoke-key', '--key', envA.secretKey]);
  for (const gateway of cluster.gateways) {
    await eventually(`${gateway.name} refuses A's revoked key`, async () => (await mint(gateway, envA.secretKey)).status === 401, 2_000);
    assert.equal(errorCode(await mint(gateway, envA.secretKey)), 'unauthorized');
  }

  // B's entries survived: its requests are served from the cache, no lookup reaches Postgres
  for (const gateway of cluster.gateways) {
    const before = await cacheMisses(gateway);
    assert.ok(before > 0);
    for (let i = 0; i < 3; i++) assert.equal((await mint(gateway, envB.secretKey)).status, 201);
    assert.equal(await cacheMisses(gateway), before, `${gateway.name} reloaded B's credentials`);
  }
});
