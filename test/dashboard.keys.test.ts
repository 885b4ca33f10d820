import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { errorCode, request } from './helpers/http.ts';
import { DashboardClient, createUser } from './helpers/dashboard.ts';
import { eventually } from './helpers/eventually.ts';
import { openSocket } from './helpers/ws.ts';

const PASSWORD = 'correct horse battery';
// far longer than any wait below: a refusal within the test can only come from the invalidation
const CACHE_MS = 60_000;

test('dashboard keys - a key made in the dashboard works, shows its last use, and revoking it is effective at once on every gateway', async (t) => {
  const cluster = await startCluster(t, { gateways: 2, env: { CREDENTIAL_CACHE_MS: String(CACHE_MS) } });
  const [a, b] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const olivia = await createUser(cluster.db.pool, { email: 'olivia@example.com', password: PASSWORD, organization: 'acme', role: 'admin' });
  const admin = new DashboardClient(a.controlUrl);
  assert.equal((await admin.signIn('olivia@example.com', PASSWORD)).status, 200);
  const project = await admin.post(`/v1/dashboard/organizations/${olivia.organizationId}/projects`, { name: 'chat' });
  const environment = await admin.post(`/v1/dashboard/projects/${project.body.id}/environments`, { name: 'prod' });
  const envId: string = environment.body.id;

  const mint = (controlUrl: string, key: string) => request(controlUrl, 'POST', '/v1/tokens', { token: key, body: { userId: 'alice' } });
  const anonymous = (controlUrl: string, key: string, origin?: string) =>
    request(controlUrl, 'POST', '/v1/tokens/anonymous', { headers: { 'x-service-key': key, ...(origin && { origin }) } });

  const secret = await admin.post(`/v1/dashboard/environments/${envId}/keys`, { kind: 'secret' });
  const spare = await admin.post(`/v1/dashboard/environments/${envId}/keys`, { kind: 'secret' });
  const publishable = await admin.post(`/v1/dashboard/environments/${envId}/keys`, { kind: 'publishable' });
  for (const made of [secret, spare, publishable]) assert.equal(made.status, 201, JSON.stringify(made.body));
  assert.match(secret.body.key, /^sk_/);
  assert.equal(secret.body.lastUsedAt, null);

  await t.test('the key works on both gateways, and its last use is recorded', async () => {
    for (const gateway of [a, b]) {
      assert.equal((await mint(gateway.controlUrl, secret.body.key)).status, 201, gateway.name);
      assert.equal((await mint(gateway.controlUrl, spare.body.key)).status, 201, gateway.name);
      assert.equal((await anonymous(gateway.controlUrl, publishable.body.key)).status, 201, gateway.name);
    }
    const lastUsed = async () => {
      const keys = await admin.get(`/v1/dashboard/environments/${envId}/keys`);
      return keys.body.data.find((k: { id: string }) => k.id === secret.body.id).lastUsedAt as string | null;
    };
    await eventually('lastUsedAt is set', async () => (await lastUsed()) !== null);
    const at = Date.parse((await lastUsed())!);
    assert.ok(at >= Date.parse(secret.body.createdAt) && at <= Date.now() + 1_000);
  });

  await t.test('revoked in the dashboard (on one gateway): both refuse it well within their cache time', async () => {
    // the environment's live log, on the other gateway, tells of the revocation
    const logsToken = await request(b.controlUrl, 'POST', `/v1/environments/${envId}/logs-token`, { token: spare.body.key });
    assert.equal(logsToken.status, 201);
    const logs = openSocket(b.realtimeUrl, `/v1/environments/${envId}/logs?token=${logsToken.body.token}`);
    await logs.waitFor('logs ready', (f) => f.op === 'ready');
    const revokedAt = Date.now();
    const revoked = await admin.post(`/v1/dashboard/environments/${envId}/keys/${secret.body.id}/revoke`);
    assert.equal(revoked.status, 200);
    // the gateway that answered the revocation refuses the key at once
    assert.equal(errorCode(await mint(a.controlUrl, secret.body.key)), 'unauthorized');
    await eventually(`${b.name} refuses the revoked key`, async () => (await mint(b.controlUrl, secret.body.key)).status === 401, 10_000);
    assert.ok(Date.now() - revokedAt < CACHE_MS, 'refused before the cached entry could have expired');
    assert.equal(errorCode(await mint(b.controlUrl, secret.body.key)), 'unauthorized');
    // the environment's other keys keep working
    for (const gateway of [a, b]) assert.equal((await mint(gateway.controlUrl, spare.body.key)).status, 201);
    const logged = await logs.waitFor('key.revoked log', (f) => f.op === 'log' && f.event === 'key.revoked');
    assert.deepEqual(logged.data, { keyId: secret.body.id, kind: 'secret', prefix: secret.body.prefix });
    await logs.close();
  });

  await t.test('an origin added or removed in the dashboard applies on both gateways at once', async () => {
    const added = await admin.post(`/v1/dashboard/environments/${envId}/origins`, { origin: 'https://app.example.com' });
    assert.equal(added.status, 201);
    for (const gateway of [a, b]) {
      await eventually(
        `${gateway.name} restricts the publishable key`,
        async () => (await anonymous(gateway.controlUrl, publishable.body.key, 'https://evil.example')).status === 403,
        10_000,
      );
      assert.equal((await anonymous(gateway.controlUrl, publishable.body.key, 'https://app.example.com')).status, 201);
    }
    assert.equal((await admin.delete(`/v1/dashboard/environments/${envId}/origins?origin=https://app.example.com`)).status, 204);
    for (const gateway of [a, b]) {
      await eventually(
        `${gateway.name} lifts the restriction`,
        async () => (await anonymous(gateway.controlUrl, publishable.body.key, 'https://evil.example')).status === 201,
        10_000,
      );
    }
  });

  await t.test('deleting the environment stops its keys on both gateways at once', async () => {
    assert.equal((await admin.delete(`/v1/dashboard/environments/${envId}`, { confirm: 'prod' })).status, 204);
    for (const gateway of [a, b]) {
      await eventually(
        `${gateway.name} refuses the deleted environment's key`,
        async () => (await mint(gateway.controlUrl, spare.body.key)).status === 401,
        10_000,
      );
      assert.equal(errorCode(await anonymous(gateway.controlUrl, publishable.body.key)), 'unauthorized');
    }
  });
});
