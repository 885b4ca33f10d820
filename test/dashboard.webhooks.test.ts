import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_LIMITS } from '@rtm/rules';
import { startCluster } from './helpers/cluster.ts';
import { errorCode, request } from './helpers/http.ts';
import { DashboardClient, createUser } from './helpers/dashboard.ts';
import { eventually } from './helpers/eventually.ts';
import { startReceiver } from './helpers/webhook-receiver.ts';
import { openSocket } from './helpers/ws.ts';

const PASSWORD = 'correct horse battery';

test("dashboard webhooks and logs token - deploy with the validator's reason, secret, ledger, retry; sessions mint logs tokens", async (t) => {
  // one retry 1 s after the first attempt, then dropped
  const cluster = await startCluster(t, { channelNodes: 1, dispatchers: 1, env: { WEBHOOK_RETRY_SCHEDULE: '1s' } });
  const gateway = cluster.gateways[0]!;
  const owner = await createUser(cluster.db.pool, { email: 'olivia@example.com', password: PASSWORD, organization: 'acme', role: 'owner' });
  await createUser(cluster.db.pool, { email: 'victor@example.com', password: PASSWORD, organization: owner.organizationId, role: 'viewer' });
  await createUser(cluster.db.pool, { email: 'oscar@example.com', password: PASSWORD, organization: 'globex', role: 'owner' });
  const admin = new DashboardClient(gateway.controlUrl);
  const viewer = new DashboardClient(gateway.controlUrl);
  const outsider = new DashboardClient(gateway.controlUrl);
  for (const [who, email] of [
    [admin, 'olivia'],
    [viewer, 'victor'],
    [outsider, 'oscar'],
  ] as const) {
    assert.equal((await who.signIn(`${email}@example.com`, PASSWORD)).status, 200);
  }
  const project = await admin.post(`/v1/dashboard/organizations/${owner.organizationId}/projects`, { name: 'chat' });
  const environment = await admin.post(`/v1/dashboard/projects/${project.body.id}/environments`, { name: 'prod' });
  const envId: string = environment.body.id;
  const secretKey: string = (await admin.post(`/v1/dashboard/environments/${envId}/keys`, { kind: 'secret' })).body.key;
  const base = `/v1/dashboard/environments/${envId}/webhook`;
  let failing = true;
  const receiver = await startReceiver(t, () => ({ status: failing ? 500 : 204 }));
  const audit = async () => (await admin.get(`/v1/dashboard/organizations/${owner.organizationId}/audit?limit=100`)).body.data as any[];

  await t.test(
    "deploy: a refused URL is 400 with the validator's reason and deploys nothing; viewers, other organizations and missing CSRF refused",
    async () => {
      const before = await viewer.get(base);
      assert.deepEqual(before.body, { url: null, deploymentId: null, activatedAt: null, secretConfigured: false });
      assert.equal(errorCode(await admin.get(`${base}/secret`)), 'webhooks_not_configured');

      const refused = await admin.put(base, { url: 'https://10.1.2.3/hook' });
      assert.equal(refused.status, 400);
      assert.equal(refused.body.code, 'invalid_request');
      assert.match(refused.body.reason, /private|not allowed|address/i);
      const plain = await admin.put(base, { url: 'http://example.com/hook' });
      assert.equal(plain.status, 400);
      assert.match(plain.body.reason, /https/);
      assert.equal(errorCode(await viewer.put(base, { url: receiver.url })), 'forbidden');
      assert.equal(errorCode(await admin.put(base, { url: receiver.url }, { 'x-csrf-token': undefined })), 'forbidden');
      assert.equal(errorCode(await outsider.put(base, { url: receiver.url })), 'not_found');
      assert.equal(errorCode(await outsider.get(base)), 'not_found');
      assert.deepEqual((await viewer.get(base)).body, before.body, 'nothing deployed');
      assert.equal((await request(gateway.controlUrl, 'GET', '/v1/config', { token: secretKey })).body.config.webhooks, null);

      // channel access set with the secret key survives a webhook deploy from the dashboard
      assert.equal((await request(gateway.controlUrl, 'PUT', '/v1/config', { token: secretKey, body: { channels: { access: 'members' } } })).status, 200);
      const deployed = await admin.put(base, { url: receiver.url });
      assert.equal(deployed.status, 200, JSON.stringify(deployed.body));
      assert.equal(deployed.body.url, receiver.url);
      assert.equal(deployed.body.secretConfigured, true);
      const config = (await request(gateway.controlUrl, 'GET', '/v1/config', { token: secretKey })).body;
      assert.equal(config.deploymentId, deployed.body.deploymentId);
      assert.deepEqual(config.config.webhooks, { url: receiver.url });
      assert.deepEqual(config.config.channels, { access: 'members', presence: true, joinLeave: false });
      const entry = (await audit()).find((e) => e.action === 'webhook.deployed');
      assert.deepEqual(entry.details, { url: receiver.url, deploymentId: deployed.body.deploymentId });
    },
  );

  await t.test('the signing secret: revealed and rotated by admins only, the same one the secret-key API shows', async () => {
    assert.equal(errorCode(await viewer.get(`${base}/secret`)), 'forbidden');
    assert.equal(errorCode(await outsider.get(`${base}/secret`)), 'not_found');
    const revealed = await admin.get(`${base}/secret`);
    assert.equal(revealed.status, 200);
    assert.equal(revealed.body.secret, (await request(gateway.controlUrl, 'GET', '/v1/webhooks/secret', { token: secretKey })).body.secret);
    assert.equal(errorCode(await viewer.post(`${base}/secret/rotate`)), 'forbidden');
    assert.equal(errorCode(await admin.post(`${base}/secret/rotate`, undefined, { 'x-csrf-token': undefined })), 'forbidden');
    const rotated = await admin.post(`${base}/secret/rotate`);
    assert.equal(rotated.status, 200);
    assert.match(rotated.body.secret, /^whsec_/);
    assert.notEqual(rotated.body.secret, revealed.body.secret);
    assert.equal((await admin.get(`${base}/secret`)).body.secret, rotated.body.secret);
    const actions = (await audit()).map((e) => e.action);
    assert.ok(actions.includes('webhook.secret_revealed') && actions.includes('webhook.secret_rotated'), actions.join());
    assert.ok(!JSON.stringify(await audit()).includes(rotated.body.secret), 'no secret in the audit log');
  });

  await t.test('the ledger: status filter, attempt log, retry of a dropped delivery', async () => {
    const published = await request(gateway.controlUrl, 'POST', '/v1/channels/room-1/messages', { token: secretKey, body: { content: { text: 'hi' } } });
    assert.equal(published.status, 201);
    let dropped: any;
    await eventually(
      'the delivery is dropped',
      async () => {
        const list = await viewer.get(`${base}/deliveries?status=dropped`);
        dropped = list.body.data[0];
        return list.body.data.length === 1;
      },
      20_000,
    );
    assert.equal(dropped.attempts, 2);
    assert.equal(dropped.lastError, 'status 500');
    assert.deepEqual((await viewer.get(`${base}/deliveries?status=delivered`)).body.data, []);
    assert.equal(errorCode(await viewer.get(`${base}/deliveries?status=lost`)), 'invalid_request');
    const detail = await viewer.get(`${base}/deliveries/${dropped.id}`);
    assert.equal(detail.status, 200);
    assert.deepEqual(
      detail.body.attemptLog.map((a: any) => a.statusCode),
      [500, 500],
    );
    assert.equal(errorCode(await outsider.get(`${base}/deliveries`)), 'not_found');
    assert.equal(errorCode(await outsider.get(`${base}/deliveries/${dropped.id}`)), 'not_found');

    const retry = `${base}/deliveries/${dropped.id}/retry`;
    assert.equal(errorCode(await viewer.post(retry)), 'forbidden');
    assert.equal(errorCode(await admin.post(retry, undefined, { 'x-csrf-token': undefined })), 'forbidden');
    assert.equal(errorCode(await outsider.post(retry)), 'not_found');
    failing = false;
    const retried = await admin.post(retry);
    assert.equal(retried.status, 200, JSON.stringify(retried.body));
    assert.equal(retried.body.status, 'pending');
    await eventually(
      'the retried delivery is delivered',
      async () => (await viewer.get(`${base}/deliveries/${dropped.id}`)).body.status === 'delivered',
      20_000,
    );
    assert.equal(errorCode(await admin.post(retry)), 'invalid_request', 'only a dropped delivery');
    const entry = (await audit()).find((e) => e.action === 'delivery.retried');
    assert.deepEqual(entry.target, { type: 'delivery', id: dropped.id });
  });

  await t.test('logs token: a session with its CSRF token mints one (any member); the secret-key form still works', async () => {
    const path = `/v1/environments/${envId}/logs-token`;
    assert.equal(errorCode(await admin.post(path, {}, { 'x-csrf-token': undefined })), 'forbidden');
    assert.equal(errorCode(await admin.post(path, {}, { origin: 'https://evil.example' })), 'forbidden');
    assert.equal(errorCode(await outsider.post(path, {})), 'not_found');
    assert.equal(errorCode(await request(gateway.controlUrl, 'POST', path, { body: {} })), 'unauthorized');
    const minted = await viewer.post(path, { ttlSeconds: 120 });
    assert.equal(minted.status, 201, JSON.stringify(minted.body));
    assert.equal(minted.headers.get('cache-control'), 'no-store');
    const logs = openSocket(gateway.realtimeUrl, `/v1/environments/${envId}/logs?token=${minted.body.token}`);
    await logs.waitFor('logs ready', (f) => f.op === 'ready');
    assert.equal((await admin.put(`/v1/dashboard/environments/${envId}/channels/room-1/members/carol`)).status, 200);
    await logs.waitFor('a live log event', (f) => f.op === 'log' && f.event === 'member.put');
    await logs.close();
    const byKey = await request(gateway.controlUrl, 'POST', path, { token: secretKey, body: {} });
    assert.equal(byKey.status, 201);
    assert.ok(byKey.body.token);
  });

  await t.test('a webhook deploy with secret-key PATCHes committing meanwhile: every change survives', async () => {
    // raised, never lowered: a limit lowered mid-window may refuse this test's own requests
    const names = Object.keys(DEFAULT_LIMITS).slice(0, 8) as (keyof typeof DEFAULT_LIMITS)[];
    const wanted = (name: keyof typeof DEFAULT_LIMITS, round: number) => DEFAULT_LIMITS[name] + 1 + round;
    // one after another while the deploy is in flight, so that some commit during it whatever its timing
    const patchEach = async (round: number) => {
      const answers = [];
      for (const name of names) {
        answers.push(await request(gateway.controlUrl, 'PATCH', '/v1/config', { token: secretKey, body: { limits: { [name]: wanted(name, round) } } }));
      }
      return answers;
    };
    for (let round = 0; round < 8; round++) {
      const url = `${receiver.url}?round=${round}`;
      const [deployed, patched] = await Promise.all([admin.put(base, { url }), patchEach(round)]);
      assert.equal(deployed.status, 200, `round ${round}: ${JSON.stringify(deployed.body)}`);
      for (const answer of patched) assert.equal(answer.status, 200, `round ${round}: ${JSON.stringify(answer.body)}`);
      const active = await request(gateway.controlUrl, 'GET', '/v1/config', { token: secretKey });
      assert.equal(active.status, 200, JSON.stringify(active.body));
      assert.deepEqual(active.body.config.webhooks, { url: new URL(url).href }, `round ${round}: the dashboard's URL`);
      const lost = names.filter((name) => active.body.config.limits[name] !== wanted(name, round));
      assert.deepEqual(lost, [], `round ${round}: the webhook deploy undid these PATCHes`);
    }
  });
});
