import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT, generateKeyPair, type CryptoKey } from 'jose';
import { startCluster } from './helpers/cluster.ts';
import { errorCode, mintToken, request } from './helpers/http.ts';

type Claims = Record<string, unknown>;

/** A token built by hand: any header, any claims, any key. */
async function forge(key: Uint8Array | CryptoKey, header: { alg: string; kid?: string }, claims: Claims): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ typ: 'JWT', ...header }).sign(key);
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

test('user tokens - the realtime edge accepts only HS256 tokens of its own issuer, audience and environment', async (t) => {
  const cluster = await startCluster(t, { gateways: 1 });
  const gateway = cluster.gateways[0]!;
  const [a, b] = [await cluster.createEnvironment('a'), await cluster.createEnvironment('b')];
  const keyOf = async (environmentId: string) => {
    const { rows } = await cluster.db.pool.query<{ id: string; secret: Buffer }>('select id, secret from signing_keys where environment_id = $1', [
      environmentId,
    ]);
    return { kid: rows[0]!.id, secret: new Uint8Array(rows[0]!.secret) };
  };
  const keyA = await keyOf(a.environmentId);
  const keyB = await keyOf(b.environmentId);
  const now = Math.floor(Date.now() / 1000);
  const good: Claims = { iss: 'rtm', aud: 'realtime', sub: 'mallory', env: a.environmentId, anon: false, iat: now, exp: now + 600, jti: 'jti_1' };
  const me = (token: string) => request(gateway.realtimeUrl, 'GET', '/v1/me', { token });
  const refused = async (token: string, why: string) => {
    const res = await me(token);
    assert.equal(res.status, 401, `${why}: ${JSON.stringify(res.body)}`);
    assert.equal(errorCode(res), 'unauthorized', why);
  };

  await t.test('a minted token is accepted and says who it is', async () => {
    const token = await mintToken(gateway.controlUrl, a.secretKey, 'alice', { claims: { plan: 'pro' } });
    const res = await me(token);
    assert.equal(res.status, 200);
    assert.equal(res.body.userId, 'alice');
    assert.equal(res.body.environmentId, a.environmentId);
    assert.equal(res.body.anon, false);
    assert.deepEqual(res.body.ext, { plan: 'pro' });
    assert.ok(Date.parse(res.body.expiresAt) > Date.now());
    // sockets send the token as ?token=; the same rules apply
    const byQuery = await request(gateway.realtimeUrl, 'GET', `/v1/me?token=${token}`);
    assert.equal(byQuery.status, 200);
  });

  await t.test('a correctly forged token is accepted (so the refusals below are about one flaw each)', async () => {
    const res = await me(await forge(keyA.secret, { alg: 'HS256', kid: keyA.kid }, good));
    assert.equal(res.status, 200);
    assert.equal(res.body.userId, 'mallory');
  });

  await t.test('alg none is refused', async () => {
    await refused(`${b64({ alg: 'none', kid: keyA.kid, typ: 'JWT' })}.${b64(good)}.`, 'alg none');
    await refused(`${b64({ alg: 'none', kid: keyA.kid, typ: 'JWT' })}.${b64(good)}`, 'alg none without a signature part');
  });

  await t.test('other algorithms are refused, even with the right key', async () => {
    await refused(await forge(keyA.secret, { alg: 'HS512', kid: keyA.kid }, good), 'HS512');
    await refused(await forge(keyA.secret, { alg: 'HS384', kid: keyA.kid }, good), 'HS384');
    const { privateKey } = await generateKeyPair('RS256');
    await refused(await forge(privateKey, { alg: 'RS256', kid: keyA.kid }, good), 'RS256');
  });

  await t.test('wrong audience, wrong issuer, expired, or missing claims are refused', async () => {
    const sign = (claims: Claims) => forge(keyA.secret, { alg: 'HS256', kid: keyA.kid }, claims);
    await refused(await sign({ ...good, aud: 'logs' }), 'audience logs');
    await refused(await sign({ ...good, iss: 'someone-else' }), 'issuer');
    const expired = await me(await sign({ ...good, iat: now - 7200, exp: now - 3600 }));
    assert.equal(expired.status, 401);
    assert.equal(errorCode(expired), 'unauthorized');
    assert.match(expired.body.reason, /expired/);
    const { sub: _sub, ...noSubject } = good;
    await refused(await sign(noSubject), 'no sub');
    const { exp: _exp, ...noExpiry } = good;
    await refused(await sign(noExpiry), 'no exp');
  });

  await t.test("another environment's key never yields a token of this environment", async () => {
    // signed with B's secret but naming A's key: the signature does not verify
    await refused(await forge(keyB.secret, { alg: 'HS256', kid: keyA.kid }, good), "B's secret, A's kid");
    // B's own key claiming to be of environment A: the env claim must match the key's environment
    await refused(await forge(keyB.secret, { alg: 'HS256', kid: keyB.kid }, good), "B's key, env A");
    await refused(await forge(keyA.secret, { alg: 'HS256', kid: 'kid_unknown' }, good), 'unknown kid');
    await refused(await forge(keyA.secret, { alg: 'HS256' }, good), 'no kid');
    // and a genuine token of B is B's, whatever it asks for
    const tokenB = await mintToken(gateway.controlUrl, b.secretKey, 'alice');
    const res = await me(tokenB);
    assert.equal(res.status, 200);
    assert.equal(res.body.environmentId, b.environmentId);
  });

  await t.test('garbage and malformed headers are refused', async () => {
    await refused('garbage', 'garbage');
    await refused('a.b.c', 'three garbage parts');
    const token = await mintToken(gateway.controlUrl, a.secretKey, 'alice');
    const [h, p] = token.split('.');
    await refused(`${h}.${p}.${'A'.repeat(43)}`, 'wrong signature');
    await refused(`${h}.${b64({ ...JSON.parse(Buffer.from(p!, 'base64url').toString()), sub: 'root' })}.${token.split('.')[2]}`, 'edited payload');
    const basic = await request(gateway.realtimeUrl, 'GET', '/v1/me', { headers: { authorization: `Basic ${token}` } });
    assert.equal(basic.status, 401);
    assert.equal(errorCode(basic), 'unauthorized');
    const none = await request(gateway.realtimeUrl, 'GET', '/v1/me');
    assert.equal(none.status, 401);
    assert.equal(errorCode(none), 'unauthorized');
  });

  await t.test('API keys are not user tokens: 403 forbidden on the realtime edge', async () => {
    for (const key of [a.secretKey, a.publishableKey]) {
      const res = await me(key);
      assert.equal(res.status, 403);
      assert.equal(errorCode(res), 'forbidden');
    }
  });
});
