import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { errorCode, request } from './helpers/http.ts';
import { admin } from './helpers/admin.ts';
import { eventually } from './helpers/eventually.ts';

test('auth - the realtime edge mints anonymous tokens with a publishable key, as the control plane does', async (t) => {
  const cluster = await startCluster(t, { gateways: 1 });
  const { realtimeUrl } = cluster.gateways[0]!;
  const env = await cluster.createEnvironment('anon-edge');
  const mint = (headers: Record<string, string>, body?: unknown) => request(realtimeUrl, 'POST', '/v1/tokens/anonymous', { headers, body });

  await t.test('a browser on the edge: preflight, then a token from the publishable key that the edge takes', async () => {
    const preflight = await request(realtimeUrl, 'OPTIONS', '/v1/tokens/anonymous', {
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' },
    });
    assert.equal(preflight.status, 204);
    const ways: Record<string, string>[] = [{ authorization: `Bearer ${env.publishableKey}` }, { 'x-service-key': env.publishableKey }];
    for (const headers of ways) {
      const res = await mint({ ...headers, origin: 'https://app.example.com' }, { ttlSeconds: 120 });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.headers.get('access-control-allow-origin'), '*');
      assert.match(res.body.userId, /^anon_/);
      const me = await request(realtimeUrl, 'GET', '/v1/me', { token: res.body.token });
      assert.deepEqual([me.status, me.body.userId, me.body.anon, me.body.environmentId], [200, res.body.userId, true, env.environmentId]);
    }
    assert.equal((await mint({ 'x-service-key': env.publishableKey })).status, 201, 'the body may be empty');
  });

  await t.test('the same refusals as on the control plane: bad body, unknown key, user token, secret key from a browser', async () => {
    const badBody = await mint({ 'x-service-key': env.publishableKey }, { ttlSeconds: 5 });
    assert.deepEqual([badBody.status, errorCode(badBody)], [400, 'invalid_request']);
    const unknown = await mint({ 'x-service-key': 'pk_thisKeyWasNeverIssuedToAnyone' });
    assert.deepEqual([unknown.status, errorCode(unknown)], [401, 'unauthorized']);
    const token = (await mint({ 'x-service-key': env.publishableKey })).body.token as string;
    const user = await mint({ authorization: `Bearer ${token}` });
    assert.deepEqual([user.status, errorCode(user)], [403, 'forbidden']);
    const secretFromBrowser = await mint({ authorization: `Bearer ${env.secretKey}`, origin: 'https://app.example.com' });
    assert.deepEqual([secretFromBrowser.status, errorCode(secretFromBrowser)], [403, 'origin_forbidden']);
  });

  await t.test("the environment's allowed origins hold on the edge too", async () => {
    await admin(cluster.env, ['add-origin', '--env', env.environmentId, '--origin', 'https://app.example.com']);
    const from = (origin: string) => mint({ authorization: `Bearer ${env.publishableKey}`, origin });
    await eventually('a foreign origin is refused on the edge', async () => (await from('https://evil.example')).status === 403);
    const foreign = await from('https://evil.example');
    assert.equal(errorCode(foreign), 'origin_not_allowed');
    assert.equal(foreign.headers.get('access-control-allow-origin'), '*', 'the browser may read the refusal');
    assert.equal((await from('https://app.example.com')).status, 201);
  });
});
