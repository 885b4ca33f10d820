import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { errorCode, mintToken, request, type HttpResult } from './helpers/http.ts';

test('auth - a credential of the wrong kind gets the same status and words on both hosts', async (t) => {
  const cluster = await startCluster(t, { gateways: 1 });
  const { controlUrl, realtimeUrl } = cluster.gateways[0]!;
  const env = await cluster.createEnvironment('wrong-kind');
  const userToken = await mintToken(controlUrl, env.secretKey, 'alice');
  const onControl = (token: string) => request(controlUrl, 'GET', '/v1/config', { token });
  const onEdge = (token: string) => request(realtimeUrl, 'GET', '/v1/me', { token });
  const refusal = (res: HttpResult) => ({ status: res.status, code: errorCode(res), reason: res.body.reason as string });

  await t.test('a valid credential of the wrong kind: 403 forbidden on either host, naming what the route takes', async () => {
    const userOnControl = refusal(await onControl(userToken));
    const secretOnEdge = refusal(await onEdge(env.secretKey));
    const publishableOnEdge = refusal(await onEdge(env.publishableKey));
    const publishableOnControl = refusal(await onControl(env.publishableKey));
    for (const answer of [userOnControl, secretOnEdge, publishableOnEdge, publishableOnControl]) {
      assert.deepEqual([answer.status, answer.code], [403, 'forbidden'], JSON.stringify(answer));
    }
    assert.equal(userOnControl.reason, 'a user token is not accepted here: this route takes a secret key (Authorization: Bearer sk_…)');
    assert.equal(secretOnEdge.reason, 'a secret key is not accepted here: this route takes a user token (Authorization: Bearer <JWT>, or ?token= on sockets)');
    assert.match(
      publishableOnEdge.reason,
      /^a publishable key is not accepted here \(publishable keys are for POST \/v1\/tokens\/anonymous only\): this route takes a user token/,
    );
    assert.match(
      publishableOnControl.reason,
      /^a publishable key is not accepted here \(publishable keys are for POST \/v1\/tokens\/anonymous only\): this route takes a secret key/,
    );
    assert.notEqual(userOnControl.reason, secretOnEdge.reason, 'each case has its own words');
    // a valid key in x-service-key, which only the anonymous mint reads: 403 on both hosts
    const inHeader = (url: string, path: string) => request(url, 'GET', path, { headers: { 'x-service-key': env.publishableKey } });
    const control = refusal(await inHeader(controlUrl, '/v1/config'));
    const edge = refusal(await inHeader(realtimeUrl, '/v1/me'));
    assert.deepEqual([control.status, control.code, edge.status, edge.code], [403, 'forbidden', 403, 'forbidden']);
    assert.match(edge.reason, /^x-service-key is read only by POST \/v1\/tokens\/anonymous: this route takes a user token/);
  });

  await t.test('an invalid credential of either kind: 401 unauthorized on either host, with the same words', async () => {
    const unknownKey = 'sk_thisKeyWasNeverIssuedToAnyone';
    const [h, p] = userToken.split('.');
    const forged = `${h}.${p}.${'A'.repeat(43)}`;
    for (const credential of [unknownKey, 'pk_thisKeyWasNeverIssuedToAnyone', forged]) {
      const control = refusal(await onControl(credential));
      const edge = refusal(await onEdge(credential));
      assert.deepEqual([control.status, control.code], [401, 'unauthorized'], credential);
      assert.deepEqual(edge, control, `${credential}: the same answer on both hosts`);
    }
  });
});
