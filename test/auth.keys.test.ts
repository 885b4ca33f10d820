import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { errorCode, request } from './helpers/http.ts';
import { admin } from './helpers/admin.ts';
import { eventually } from './helpers/eventually.ts';

test('keys - secret keys stay server-side; publishable keys mint anonymous tokens only, from allowed origins', async (t) => {
  const cluster = await startCluster(t, { gateways: 1 });
  const { controlUrl, realtimeUrl } = cluster.gateways[0]!;
  const env = await cluster.createEnvironment('keys');
  const post = (path: string, headers: Record<string, string>, body: unknown = {}) => request(controlUrl, 'POST', path, { headers, body });
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
  const expectError = (res: Awaited<ReturnType<typeof request>>, status: number, code: string) => {
    assert.equal(res.status, status, JSON.stringify(res.body));
    assert.equal(errorCode(res), code);
  };

  await t.test('a secret key with an Origin header is refused (403 origin_forbidden) on every control route', async () => {
    const origin = { origin: 'https://app.example.com' };
    expectError(await post('/v1/tokens', { ...bearer(env.secretKey), ...origin }, { userId: 'a' }), 403, 'origin_forbidden');
    expectError(await post('/v1/tokens/anonymous', { ...bearer(env.secretKey), ...origin }), 403, 'origin_forbidden');
    const config = await request(controlUrl, 'GET', '/v1/config', { token: env.secretKey, headers: origin });
    expectError(config, 403, 'origin_forbidden');
    // without Origin the same key works
    assert.equal((await post('/v1/tokens', bearer(env.secretKey), { userId: 'a' })).status, 201);
    assert.equal((await post('/v1/tokens/anonymous', bearer(env.secretKey))).status, 201);
  });

  await t.test('missing, malformed, unknown keys: 401 unauthorized', async () => {
    expectError(await post('/v1/tokens', {}, { userId: 'a' }), 401, 'unauthorized');
    expectError(await post('/v1/tokens', { authorization: env.secretKey }, { userId: 'a' }), 401, 'unauthorized');
    expectError(await post('/v1/tokens', { authorization: `Basic ${env.secretKey}` }, { userId: 'a' }), 401, 'unauthorized');
    expectError(await post('/v1/tokens', bearer('sk_thisKeyWasNeverIssuedToAnyone'), { userId: 'a' }), 401, 'unauthorized');
    expectError(await post('/v1/tokens', bearer('not-a-key'), { userId: 'a' }), 401, 'unauthorized');
    expectError(await post('/v1/tokens/anonymous', {}), 401, 'unauthorized');
    expectError(await post('/v1/tokens/anonymous', { 'x-service-key': 'pk_thisKeyWasNeverIssuedToAnyone' }), 401, 'unauthorized');
  });

  await t.test('a publishable key mints anonymous tokens, as Bearer or x-service-key', async () => {
    for (const headers of [bearer(env.publishableKey), { 'x-service-key': env.publishableKey }]) {
      const res = await post('/v1/tokens/anonymous', headers, { ttlSeconds: 120 });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.match(res.body.userId, /^anon_/);
      const me = await request(realtimeUrl, 'GET', '/v1/me', { token: res.body.token });
      assert.equal(me.status, 200);
      assert.equal(me.body.anon, true);
      assert.equal(me.body.userId, res.body.userId);
      assert.equal(me.body.environmentId, env.environmentId);
    }
    // an empty body is allowed; a bad one is not
    const empty = await request(controlUrl, 'POST', '/v1/tokens/anonymous', { headers: { 'x-service-key': env.publishableKey } });
    assert.equal(empty.status, 201);
    expectError(await post('/v1/tokens/anonymous', bearer(env.publishableKey), { ttlSeconds: 5 }), 400, 'invalid_request');
    expectError(await post('/v1/tokens/anonymous', bearer(env.publishableKey), { userId: 'alice' }), 400, 'invalid_request');
  });

  await t.test('a publishable key anywhere else: 403 forbidden', async () => {
    expectError(await post('/v1/tokens', bearer(env.publishableKey), { userId: 'a' }), 403, 'forbidden');
    expectError(await post('/v1/tokens', { 'x-service-key': env.publishableKey }, { userId: 'a' }), 403, 'forbidden');
    expectError(await request(controlUrl, 'GET', '/v1/config', { token: env.publishableKey }), 403, 'forbidden');
    expectError(await request(controlUrl, 'GET', '/v1/webhooks/deliveries', { token: env.publishableKey }), 403, 'forbidden');
  });

  await t.test('allowed origins, managed with the admin CLI, gate publishable keys', async () => {
    const anonymous = (origin?: string) => post('/v1/tokens/anonymous', { ...bearer(env.publishableKey), ...(origin ? { origin } : {}) });
    // no origins set: any origin may use the key
    assert.equal((await anonymous('https://anywhere.example')).status, 201);

    const added = await admin(cluster.env, ['add-origin', '--env', env.environmentId, '--origin', 'HTTPS://App.Example.com/']);
    assert.equal(added.origin, 'https://app.example.com');
    await admin(cluster.env, ['add-origin', '--env', env.environmentId, '--origin', 'http://localhost:3000']);
    // the gateway may hold the empty list for its cache time: wait for the change, bounded
    await eventually('a foreign origin is refused', async () => (await anonymous('https://evil.example')).status === 403);
    const foreign = await anonymous('https://evil.example');
    expectError(foreign, 403, 'origin_not_allowed');
    expectError(await anonymous('https://app.example.com:8443'), 403, 'origin_not_allowed');
    expectError(await anonymous('null'), 403, 'origin_not_allowed');
    assert.equal((await anonymous('https://app.example.com')).status, 201);
    assert.equal((await anonymous('https://APP.example.com')).status, 201);
    assert.equal((await anonymous('http://localhost:3000')).status, 201);
    // a server-side caller (no Origin) may still use it
    assert.equal((await anonymous()).status, 201);
    // x-service-key is judged the same way
    expectError(await post('/v1/tokens/anonymous', { 'x-service-key': env.publishableKey, origin: 'https://evil.example' }), 403, 'origin_not_allowed');

    const removed = await admin(cluster.env, ['remove-origin', '--env', env.environmentId, '--origin', 'https://app.example.com']);
    assert.equal(removed.removed, true);
    await eventually('a removed origin is refused', async () => (await anonymous('https://app.example.com')).status === 403);
    expectError(await anonymous('https://app.example.com'), 403, 'origin_not_allowed');
    assert.equal((await anonymous('http://localhost:3000')).status, 201);
  });

  await t.test('browsers may call /v1/tokens/anonymous and the realtime edge (CORS), not the rest of the control plane', async () => {
    const origin = 'http://localhost:3000'; // still in the allowed origins (the test above)
    const preflight = (base: string, path: string) =>
      fetch(base + path, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-service-key, content-type' },
      });
    const anon = await preflight(controlUrl, '/v1/tokens/anonymous');
    assert.equal(anon.status, 204);
    assert.match(anon.headers.get('access-control-allow-headers') ?? '', /x-service-key/);
    assert.match(anon.headers.get('access-control-allow-methods') ?? '', /POST/);
    assert.equal(anon.headers.get('access-control-allow-origin'), '*');
    const edge = await preflight(realtimeUrl, '/v1/me');
    assert.equal(edge.status, 204);
    assert.match(edge.headers.get('access-control-allow-headers') ?? '', /authorization/);
    // the secret-key routes cannot be preflighted
    const secretRoute = await preflight(controlUrl, '/v1/tokens');
    assert.equal(secretRoute.status, 404);
    assert.equal(secretRoute.headers.get('access-control-allow-origin'), null);

    // actual responses carry the headers a browser needs to read them, errors included
    const minted = await post('/v1/tokens/anonymous', { 'x-service-key': env.publishableKey, origin });
    assert.equal(minted.status, 201);
    assert.equal(minted.headers.get('access-control-allow-origin'), '*');
    const refused = await request(realtimeUrl, 'GET', '/v1/me', { headers: { origin } });
    assert.equal(refused.status, 401);
    assert.equal(refused.headers.get('access-control-allow-origin'), '*');
    assert.match(refused.headers.get('access-control-expose-headers') ?? '', /x-service-error/);
    const secret = await post('/v1/tokens', { ...bearer(env.secretKey), origin }, { userId: 'a' });
    assert.equal(secret.status, 403);
    assert.equal(secret.headers.get('access-control-allow-origin'), null);
  });

  await t.test('a key is bound to its environment: tokens it mints belong there only', async () => {
    const other = await cluster.createEnvironment('other');
    for (const [key, environmentId] of [
      [env.secretKey, env.environmentId],
      [other.secretKey, other.environmentId],
    ] as const) {
      const minted = await post('/v1/tokens', bearer(key), { userId: 'same-user' });
      assert.equal(minted.status, 201);
      const me = await request(realtimeUrl, 'GET', '/v1/me', { token: minted.body.token });
      assert.equal(me.body.environmentId, environmentId);
    }
    // and an admin CLI change to one environment does not touch the other
    const otherAnon = await post('/v1/tokens/anonymous', { ...bearer(other.publishableKey), origin: 'https://evil.example' });
    assert.equal(otherAnon.status, 201);
  });
});
