import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_LIMITS } from '@rtm/rules';

// every limit at its default, the monthly quotas unlimited
const ALL_LIMITS = { ...DEFAULT_LIMITS, monthlyMessages: null, monthlyConnectionMinutes: null };
import { startCluster } from './helpers/cluster.ts';
import { allPages, client, errorCode, request } from './helpers/http.ts';
import { closedPort, enqueue, eventually, publishedEvent } from './helpers/webhook-receiver.ts';

test('webhooks - config deploy, the signing secret, the ledger API, isolation between environments, retention', async (t) => {
  const cluster = await startCluster(t, { gateways: 1 });
  const controlUrl = cluster.gateways[0]!.controlUrl;
  const a = await cluster.createEnvironment('a');
  const b = await cluster.createEnvironment('b');
  const apiA = client(controlUrl, a.secretKey);
  const apiB = client(controlUrl, b.secretKey);

  await t.test('config: defaults, deploy, GET returns the active one; the secret appears with the first webhook and stays', async () => {
    const initial = await apiA.get('/v1/config');
    assert.equal(initial.status, 200);
    assert.deepEqual(initial.body, {
      deploymentId: null,
      activatedAt: null,
      config: { webhooks: null, channels: { access: 'open', presence: true, joinLeave: false }, limits: ALL_LIMITS, namespaces: [] },
    });
    assert.equal(errorCode(await apiA.get('/v1/webhooks/secret')), 'webhooks_not_configured');
    assert.equal((await apiA.get('/v1/webhooks/secret')).status, 404);
    assert.equal(errorCode(await apiA.post('/v1/webhooks/secret/rotate')), 'webhooks_not_configured');

    // bad bodies: the error envelope, nothing stored
    const empty = await request(controlUrl, 'PUT', '/v1/config', { token: a.secretKey, headers: { 'content-type': 'application/json' } });
    assert.equal(errorCode(empty), 'invalid_request');
    const text = await request(controlUrl, 'PUT', '/v1/config', { token: a.secretKey, raw: 'webhooks', headers: { 'content-type': 'text/plain' } });
    assert.equal(errorCode(text), 'unsupported_media_type');
    const malformed = await request(controlUrl, 'PUT', '/v1/config', {
      token: a.secretKey,
      raw: '{"webhooks":',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(errorCode(malformed), 'invalid_request');
    assert.equal(errorCode(await apiA.put('/v1/config', { channels: { access: 'private' } })), 'invalid_request');
    assert.equal(
      errorCode(await apiA.put('/v1/config', { webhooks: { url: 'https://example.com' } }, { origin: 'https://app.example.com' })),
      'origin_forbidden',
    );
    assert.equal(errorCode(await apiA.put('/v1/config', [])), 'invalid_request');
    assert.equal((await cluster.db.pool.query('select count(*)::int as n from config_deployments')).rows[0].n, 0);

    const membersOnly = await apiA.put('/v1/config', { channels: { access: 'members' } });
    assert.equal(membersOnly.status, 200);
    assert.deepEqual(membersOnly.body.config, {
      webhooks: null,
      channels: { access: 'members', presence: true, joinLeave: false },
      limits: ALL_LIMITS,
      namespaces: [],
    });
    assert.match(membersOnly.body.deploymentId, /^dep_/);
    assert.equal(errorCode(await apiA.get('/v1/webhooks/secret')), 'webhooks_not_configured', 'no webhook, no secret');
    const envRow = await cluster.db.pool.query('select default_access, webhook_url, active_deployment_id from environments where id = $1', [a.environmentId]);
    assert.deepEqual(envRow.rows[0], { default_access: 'members', webhook_url: null, active_deployment_id: membersOnly.body.deploymentId });

    const port = await closedPort();
    const withHook = await apiA.put('/v1/config', { webhooks: { url: `http://127.0.0.1:${port}/one` } });
    assert.equal(withHook.status, 200);
    assert.deepEqual(withHook.body.config, {
      webhooks: { url: `http://127.0.0.1:${port}/one` },
      channels: { access: 'open', presence: true, joinLeave: false },
      limits: ALL_LIMITS,
      namespaces: [],
    });
    assert.ok(Date.parse(withHook.body.activatedAt) > 0);
    const got = await apiA.get('/v1/config');
    assert.deepEqual(got.body, withHook.body);
    const secret = (await apiA.get('/v1/webhooks/secret')).body.secret;
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{44}$/);

    await apiA.put('/v1/config', { webhooks: { url: `http://127.0.0.1:${port}/two` } });
    assert.equal((await apiA.get('/v1/webhooks/secret')).body.secret, secret, 'stable across deploys');
    const rotated = await apiA.post('/v1/webhooks/secret/rotate');
    assert.equal(rotated.status, 200);
    assert.match(rotated.body.secret, /^whsec_/);
    assert.notEqual(rotated.body.secret, secret);
    assert.equal((await apiA.get('/v1/webhooks/secret')).body.secret, rotated.body.secret);

    // disabled: no deliveries are recorded, the secret stays for when it is enabled again
    await apiA.put('/v1/config', { webhooks: null });
    assert.equal(await enqueue(cluster.db.pool, [publishedEvent(a.environmentId)]), 0);
    assert.equal((await apiA.get('/v1/webhooks/secret')).body.secret, rotated.body.secret);
    await apiA.put('/v1/config', { webhooks: { url: `http://127.0.0.1:${port}/three` } });
  });

  await t.test('ledger: newest first, limit and opaque cursor, status filter, one delivery, bad parameters are 400', async () => {
    const events = Array.from({ length: 7 }, (_, i) => publishedEvent(a.environmentId, `room-${i}`));
    assert.equal(await enqueue(cluster.db.pool, events, 3), 7);
    const pages = await allPages(apiA, '/v1/webhooks/deliveries?limit=3');
    for (const page of pages) assert.ok(page.body.data.length <= 3);
    const seen: string[] = pages.flatMap((page) => page.body.data.map((row: any) => row.id));
    assert.equal(pages.length, 3);
    assert.equal(seen.length, 7);
    assert.deepEqual(seen, [...seen].sort().reverse(), 'newest first');
    const all = await apiA.get('/v1/webhooks/deliveries');
    assert.deepEqual(
      all.body.data.map((r: any) => r.eventId),
      events.map((e) => e.eventId).reverse(),
    );
    assert.equal(all.body.nextCursor, null);
    const row = all.body.data[0];
    assert.equal(row.status, 'pending');
    assert.equal(row.attempts, 0);
    assert.equal(row.eventType, 'message.published');
    assert.equal(row.channelId, 'room-6');
    assert.ok(row.nextAttemptAt && row.createdAt && row.updatedAt);
    assert.equal((await apiA.get('/v1/webhooks/deliveries?status=pending')).body.data.length, 7);
    assert.equal((await apiA.get('/v1/webhooks/deliveries?status=delivered')).body.data.length, 0);

    const one = await apiA.get(`/v1/webhooks/deliveries/${row.id}`);
    assert.equal(one.status, 200);
    assert.deepEqual(one.body, { ...row, attemptLog: [] });

    for (const query of ['status=bogus', 'limit=0', 'limit=501', 'limit=abc', 'cursor=not-a-cursor', 'cursor=', 'colour=blue']) {
      const res = await apiA.get(`/v1/webhooks/deliveries?${query}`);
      assert.equal(res.status, 400, query);
      assert.equal(errorCode(res), 'invalid_request', query);
    }
    assert.equal((await apiA.get('/v1/webhooks/deliveries?limit=500')).status, 200);
    assert.equal(errorCode(await apiA.get('/v1/webhooks/deliveries/nope')), 'invalid_request');
    assert.equal(errorCode(await apiA.get('/v1/webhooks/deliveries/dlv_00000000000000000000000000')), 'not_found');
    const pendingRetry = await apiA.post(`/v1/webhooks/deliveries/${row.id}/retry`);
    assert.equal(errorCode(pendingRetry), 'invalid_request');
    assert.match(pendingRetry.body.reason, /pending/);
    const anonymous = await request(controlUrl, 'GET', '/v1/webhooks/deliveries');
    assert.equal(errorCode(anonymous), 'unauthorized');
  });

  await t.test("isolation: another environment's key sees none of the secret, config or ledger", async () => {
    const config = await apiB.get('/v1/config');
    assert.equal(config.body.deploymentId, null);
    assert.equal(config.body.config.webhooks, null);
    assert.equal(errorCode(await apiB.get('/v1/webhooks/secret')), 'webhooks_not_configured');
    assert.equal(errorCode(await apiB.post('/v1/webhooks/secret/rotate')), 'webhooks_not_configured');
    assert.deepEqual((await apiB.get('/v1/webhooks/deliveries')).body, { data: [], nextCursor: null });
    const ofA = (await apiA.get('/v1/webhooks/deliveries?limit=1')).body;
    assert.equal(errorCode(await apiB.get(`/v1/webhooks/deliveries/${ofA.data[0].id}`)), 'not_found');
    assert.equal(errorCode(await apiB.post(`/v1/webhooks/deliveries/${ofA.data[0].id}/retry`)), 'not_found');
    // A's cursor does not reveal A's rows to B
    const page = await apiA.get('/v1/webhooks/deliveries?limit=1');
    assert.deepEqual((await apiB.get(`/v1/webhooks/deliveries?cursor=${page.body.nextCursor}`)).body.data, []);

    const port = await closedPort();
    await apiB.put('/v1/config', { webhooks: { url: `http://127.0.0.1:${port}/b` } });
    const secretA = (await apiA.get('/v1/webhooks/secret')).body.secret;
    const secretB = (await apiB.get('/v1/webhooks/secret')).body.secret;
    assert.notEqual(secretA, secretB);
    assert.notEqual((await apiA.get('/v1/config')).body.config.webhooks.url, (await apiB.get('/v1/config')).body.config.webhooks.url);
    await enqueue(cluster.db.pool, [publishedEvent(b.environmentId)]);
    assert.equal((await apiB.get('/v1/webhooks/deliveries')).body.data.length, 1);
    assert.equal((await apiA.get('/v1/webhooks/deliveries?limit=500')).body.data.length, 7);
  });

  await t.test('retention: a dispatcher deletes delivered and dropped rows older than WEBHOOK_RETENTION, never pending ones', async () => {
    const rows = (await apiA.get('/v1/webhooks/deliveries?limit=500')).body.data.map((r: any) => r.id);
    const [oldDelivered, oldDropped, freshDelivered] = rows;
    await cluster.db.pool.query(
      `update webhook_deliveries set status = 'delivered', delivered_at = now(), updated_at = now() - interval '2 hours' where id = $1`,
      [oldDelivered],
    );
    await cluster.db.pool.query(`update webhook_deliveries set status = 'dropped', updated_at = now() - interval '2 hours' where id = $1`, [oldDropped]);
    await cluster.db.pool.query(`update webhook_deliveries set status = 'delivered', delivered_at = now() where id = $1`, [freshDelivered]);
    await cluster.db.pool.query(`update webhook_deliveries set updated_at = now() - interval '3 hours' where status = 'pending'`);
    await cluster.start('dispatcher', { WEBHOOK_RETENTION: '1h', WEBHOOK_RETRY_SCHEDULE: '1h' });
    await eventually(async () => {
      const { rows: left } = await cluster.db.pool.query('select id from webhook_deliveries where id = any($1)', [[oldDelivered, oldDropped]]);
      return left.length === 0;
    });
    const remaining = await cluster.db.pool.query<{ id: string; status: string }>('select id, status from webhook_deliveries where environment_id = $1', [
      a.environmentId,
    ]);
    assert.equal(remaining.rows.length, 5);
    assert.ok(remaining.rows.some((r) => r.id === freshDelivered));
    assert.equal(remaining.rows.filter((r) => r.status === 'pending').length, 4);
  });
});
