import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { errorCode, request } from './helpers/http.ts';
import { DashboardClient, createUser } from './helpers/dashboard.ts';

const PASSWORD = 'correct horse battery';

/**
 * The dashboard's webhook endpoint routes: any member reads, admins and owners change (with the
 * session's CSRF token), another organization sees nothing, and every change, reveal, test and
 * recovery is in the audit log under the member who made it. Deliveries themselves are the
 * control plane's (webhooks.endpoints.test.ts); this file holds the session's rules.
 */
test('dashboard webhook endpoints - viewers read, admins change with CSRF, other organizations get 404, changes audited', async (t) => {
  const cluster = await startCluster(t, { gateways: 1 });
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
  const envId: string = (await admin.post(`/v1/dashboard/projects/${project.body.id}/environments`, { name: 'prod' })).body.id;
  const secretKey: string = (await admin.post(`/v1/dashboard/environments/${envId}/keys`, { kind: 'secret' })).body.key;
  const base = `/v1/dashboard/environments/${envId}/webhook-endpoints`;
  const audit = async () => (await admin.get(`/v1/dashboard/organizations/${owner.organizationId}/audit?limit=100`)).body.data as any[];
  const body = { url: 'https://hooks.example.com/in', description: 'billing', eventTypes: ['message.published'], channels: ['room-*'] };

  let id = '';
  let secret = '';
  await t.test('create: admins only, with the CSRF token and a URL the policy allows', async () => {
    assert.equal(errorCode(await viewer.post(base, body)), 'forbidden');
    assert.equal(errorCode(await admin.post(base, body, { 'x-csrf-token': undefined })), 'forbidden');
    assert.equal(errorCode(await outsider.post(base, body)), 'not_found');
    assert.equal(errorCode(await admin.post(base, { ...body, url: 'https://10.1.2.3/hook' })), 'invalid_webhook_url');
    assert.equal(errorCode(await admin.post(base, { ...body, eventTypes: ['nope'] })), 'invalid_request');
    assert.deepEqual((await viewer.get(base)).body, { data: [], nextCursor: null }, 'nothing created by the refusals');

    const created = await admin.post(base, body);
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.match(created.body.id, /^ep_/);
    assert.match(created.body.secret, /^whsec_/);
    id = created.body.id;
    secret = created.body.secret;
    const byKey = await request(gateway.controlUrl, 'GET', `/v1/webhook-endpoints/${id}`, { token: secretKey });
    assert.deepEqual([byKey.body.url, byKey.body.eventTypes, byKey.body.channels], [body.url, body.eventTypes, body.channels], 'the secret-key API sees it');
  });

  await t.test('reads: any member; another organization 404', async () => {
    const listed = await viewer.get(base);
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.data.map((e: any) => e.id),
      [id],
    );
    assert.equal((await viewer.get(`${base}/${id}`)).body.description, 'billing');
    const types = await viewer.get(`/v1/dashboard/environments/${envId}/webhook-event-types`);
    assert.ok(types.body.data.some((e: any) => e.name === 'webhook.test'));
    assert.equal(errorCode(await viewer.get(`${base}/not-an-id`)), 'invalid_request');
    assert.equal(errorCode(await viewer.get(`${base}/ep_00000000000000000000000000`)), 'not_found');
    for (const path of [base, `${base}/${id}`, `/v1/dashboard/environments/${envId}/webhook-event-types`]) {
      assert.equal(errorCode(await outsider.get(path)), 'not_found', path);
    }
  });

  await t.test('changes, secrets, tests and recoveries: forbidden to viewers and without CSRF, 404 to another organization', async () => {
    const changes: [string, string, unknown][] = [
      ['PATCH', `${base}/${id}`, { disabled: true }],
      ['DELETE', `${base}/${id}`, undefined],
      ['POST', `${base}/${id}/secret/rotate`, undefined],
      ['POST', `${base}/${id}/test`, {}],
      ['POST', `${base}/${id}/recover`, { since: new Date(Date.now() - 60_000).toISOString() }],
    ];
    for (const [method, path, payload] of changes) {
      assert.equal(errorCode(await viewer.call(method, path, payload)), 'forbidden', `viewer ${method} ${path}`);
      assert.equal(errorCode(await admin.call(method, path, payload, { 'x-csrf-token': undefined })), 'forbidden', `no CSRF ${method} ${path}`);
      assert.equal(errorCode(await outsider.call(method, path, payload)), 'not_found', `outsider ${method} ${path}`);
    }
    assert.equal(errorCode(await viewer.get(`${base}/${id}/secret`)), 'forbidden');
    assert.equal(errorCode(await outsider.get(`${base}/${id}/secret`)), 'not_found');
    const after = (await viewer.get(`${base}/${id}`)).body;
    assert.equal(after.disabled, false, 'nothing changed');
    assert.equal((await request(gateway.controlUrl, 'GET', `/v1/webhook-endpoints/${id}/secret`, { token: secretKey })).body.secret, secret, 'not rotated');
    assert.deepEqual((await viewer.get(`/v1/dashboard/environments/${envId}/webhook/deliveries?endpointId=${id}`)).body.data, [], 'no test sent');
  });

  await t.test('admins: change, disable and enable, reveal and rotate, test (in the ledger per endpoint), recover, delete', async () => {
    const patched = await admin.patch(`${base}/${id}`, { description: 'payments', channels: null });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.deepEqual([patched.body.description, patched.body.channels], ['payments', null]);
    assert.equal(errorCode(await admin.patch(`${base}/${id}`, { url: 'http://169.254.169.254/' })), 'invalid_webhook_url');
    assert.equal((await admin.patch(`${base}/${id}`, { disabled: true })).body.disabledReason, 'manual');
    assert.equal(errorCode(await admin.post(`${base}/${id}/test`, {})), 'invalid_request', 'a disabled endpoint gets no test');
    assert.equal((await admin.patch(`${base}/${id}`, { disabled: false })).body.disabled, false);

    assert.equal((await admin.get(`${base}/${id}/secret`)).body.secret, secret);
    const rotated = await admin.post(`${base}/${id}/secret/rotate`);
    assert.equal(rotated.status, 200);
    assert.notEqual(rotated.body.secret, secret);
    assert.equal((await request(gateway.controlUrl, 'GET', `/v1/webhook-endpoints/${id}/secret`, { token: secretKey })).body.secret, rotated.body.secret);

    const sent = await admin.post(`${base}/${id}/test`, {});
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
    assert.equal(sent.body.eventType, 'webhook.test');
    const ledger = `/v1/dashboard/environments/${envId}/webhook/deliveries`;
    assert.deepEqual(
      (await viewer.get(`${ledger}?endpointId=${id}`)).body.data.map((d: any) => d.id),
      [sent.body.deliveryId],
    );
    assert.deepEqual((await viewer.get(`${ledger}?endpointId=default`)).body.data, [], 'the default endpoint has none');
    assert.equal(errorCode(await viewer.get(`${ledger}?endpointId=ep_nope`)), 'invalid_request');

    const started = await admin.post(`${base}/${id}/recover`, { since: new Date(Date.now() - 60_000).toISOString() });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const taskPath = `/v1/dashboard/environments/${envId}/webhook-tasks/${started.body.taskId}`;
    assert.equal(started.headers.get('location'), taskPath);
    const task = await viewer.get(taskPath);
    assert.equal(task.status, 200);
    assert.deepEqual([task.body.endpointId, task.body.kind], [id, 'recover']);
    assert.equal(errorCode(await outsider.get(taskPath)), 'not_found');
    assert.equal(
      errorCode(await admin.post(`${base}/${id}/recover`, { since: new Date().toISOString(), until: new Date(Date.now() - 3_600_000).toISOString() })),
      'invalid_request',
    );

    assert.equal((await admin.delete(`${base}/${id}`)).status, 204);
    assert.equal(errorCode(await viewer.get(`${base}/${id}`)), 'not_found');
  });

  await t.test('the audit log: one entry per change, under the member, without a secret', async () => {
    const all = (await audit()).filter((entry) => entry.target.type === 'webhook_endpoint');
    // the secret key's two reads of the secret above are audited too, under the key
    const byKey = all.filter((entry) => entry.actor.kind === 'key');
    assert.deepEqual(
      byKey.map((entry) => entry.action),
      ['webhook_endpoint.secret_revealed', 'webhook_endpoint.secret_revealed'],
    );
    const entries = all.filter((entry) => entry.actor.kind === 'user');
    assert.deepEqual(
      entries.map((entry) => entry.action).sort(),
      ['created', 'deleted', 'recovery_started', 'secret_revealed', 'secret_rotated', 'tested', 'updated', 'updated', 'updated'].map(
        (action) => `webhook_endpoint.${action}`,
      ),
    );
    assert.ok(entries.every((entry) => entry.target.id === id && entry.actor.email === 'olivia@example.com' && entry.details.environmentId === envId));
    assert.ok(!JSON.stringify(entries).includes('whsec_'), 'no secret in the audit log');
  });
});
