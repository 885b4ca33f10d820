import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_LIMITS } from '@rtm/rules';

// every limit at its default, the monthly quotas unlimited
const ALL_LIMITS = { ...DEFAULT_LIMITS, monthlyMessages: null, monthlyConnectionMinutes: null };
import { createServerClient } from '@rtm/server';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode } from './helpers/http.ts';

test('config - PATCH /v1/config merges into the active configuration, validates as PUT, and loses no concurrent change', async (t) => {
  const cluster = await startCluster(t, { gateways: 1 });
  const controlUrl = cluster.gateways[0]!.controlUrl;
  const env = await cluster.createEnvironment('patch');
  const api = client(controlUrl, env.secretKey);
  const deployments = async () => (await cluster.db.pool.query('select count(*)::int as n from config_deployments')).rows[0].n as number;

  await t.test('a patch changes the fields it gives and keeps the others, as a new deployment', async () => {
    const put = await api.put('/v1/config', {
      channels: { access: 'members', joinLeave: true },
      limits: { socketsPerUser: 7 },
      namespaces: [{ prefix: 'public.', access: 'open' }],
    });
    assert.equal(put.status, 200);
    // the README's snippet: only the webhook URL, through the server SDK
    const rtm = createServerClient({ url: controlUrl, secretKey: env.secretKey });
    const patched = await rtm.patchConfig({ webhooks: { url: 'http://127.0.0.1:9/hooks' } });
    assert.notEqual(patched.deploymentId, put.body.deploymentId);
    assert.deepEqual(patched.config, {
      webhooks: { url: 'http://127.0.0.1:9/hooks' },
      channels: { access: 'members', presence: true, joinLeave: true },
      limits: { ...ALL_LIMITS, socketsPerUser: 7 },
      namespaces: [{ prefix: 'public.', access: 'open' }],
    });
    assert.deepEqual((await api.get('/v1/config')).body, patched, 'GET shows the patched deployment as active');
    assert.equal(await deployments(), 2);
  });

  await t.test('null takes a setting back to its default; an array is replaced whole', async () => {
    const res = await api.patch('/v1/config', {
      webhooks: null,
      channels: { joinLeave: null },
      limits: { socketsPerUser: null, userPublishesPerSecond: 9 },
      namespaces: [{ prefix: 'x.' }],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.config, {
      webhooks: null,
      channels: { access: 'members', presence: true, joinLeave: false },
      limits: { ...ALL_LIMITS, userPublishesPerSecond: 9 },
      namespaces: [{ prefix: 'x.' }],
    });
  });

  await t.test('an invalid patch gets the error envelope and stores nothing', async () => {
    const before = await deployments();
    const active = (await api.get('/v1/config')).body;
    const refusals: [unknown, number, string][] = [
      [{ webhooks: { url: 'http://10.0.0.1/hooks' } }, 422, 'invalid_webhook_url'],
      [{ channels: { access: 'private' } }, 400, 'invalid_request'],
      [{ channels: { access: null } }, 400, 'invalid_request'],
      [{ limits: { socketsPerUser: 0 } }, 400, 'invalid_request'],
      [{ limits: { noSuchLimit: 1 } }, 400, 'invalid_request'],
      [{ namespaces: [{ prefix: 'a.' }, { prefix: 'a.' }] }, 400, 'invalid_request'],
      [{ colour: 'blue' }, 400, 'invalid_request'],
      [[], 400, 'invalid_request'],
    ];
    for (const [body, status, code] of refusals) {
      const res = await api.patch('/v1/config', body);
      assert.equal(res.status, status, JSON.stringify(body));
      assert.equal(errorCode(res), code, JSON.stringify(body));
    }
    assert.equal(errorCode(await api.patch('/v1/config', {}, { origin: 'https://app.example.com' })), 'origin_forbidden');
    assert.equal(await deployments(), before);
    assert.deepEqual((await api.get('/v1/config')).body, active);
  });

  await t.test('concurrent patches of different fields all apply', async () => {
    // raised, never lowered: a limit lowered mid-window may refuse this test's own requests
    const names = Object.keys(DEFAULT_LIMITS).slice(0, 8) as (keyof typeof DEFAULT_LIMITS)[];
    const wanted = (name: keyof typeof DEFAULT_LIMITS, i: number) => DEFAULT_LIMITS[name] + 1 + i;
    const answers = await Promise.all(names.map((name, i) => api.patch('/v1/config', { limits: { [name]: wanted(name, i) } })));
    for (const answer of answers) assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const active = await api.get('/v1/config');
    assert.equal(active.status, 200, JSON.stringify(active.body));
    const limits = active.body.config.limits;
    names.forEach((name, i) => assert.equal(limits[name], wanted(name, i), `${name}: a concurrent patch lost it`));
  });

  await t.test('PUTs among concurrent patches take turns with them: every deploy answers 200, none deadlocks', async () => {
    const active = (await api.get('/v1/config')).body.config;
    const whole = { channels: { access: active.channels.access }, limits: active.limits, namespaces: active.namespaces };
    for (let round = 0; round < 5; round++) {
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? api.put('/v1/config', whole) : api.patch('/v1/config', { channels: { joinLeave: i % 4 === 1 } }))),
      );
      answers.forEach((answer, i) => assert.equal(answer.status, 200, `round ${round}, ${i % 2 === 0 ? 'PUT' : 'PATCH'}: ${JSON.stringify(answer.body)}`));
    }
  });
});
