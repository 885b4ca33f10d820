import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { generateKeyPairSync } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SignJWT, UnsecuredJWT, exportJWK, generateKeyPair, type JWK } from 'jose';

type KeyLike = Parameters<SignJWT['sign']>[0];
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode } from './helpers/http.ts';
import { openSocket } from './helpers/ws.ts';
import { eventually } from './helpers/eventually.ts';
import { startDnsServer } from './helpers/dns-server.ts';

type Claims = { iss?: string; aud?: string; sub?: string; iat?: number; exp?: number; jti?: string; [k: string]: unknown };

async function tenantToken(privateKey: KeyLike, header: { alg: string; kid: string }, claims: Claims): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const { iss, aud, sub, iat, exp, jti, ...rest } = { aud: 'realtime', sub: 'alice', iat: now, exp: now + 600, jti: `t-${Math.random()}`, ...claims };
  let jwt = new SignJWT(rest).setProtectedHeader(header).setAudience(aud!).setSubject(sub!).setIssuedAt(iat!).setExpirationTime(exp!).setJti(jti!);
  if (iss !== undefined) jwt = jwt.setIssuer(iss);
  return jwt.sign(privateKey);
}

test('tenant-signed tokens - a registered public key signs user tokens; the same checks and revocations apply', { timeout: 180_000 }, async (t) => {
  // a long credential cache: only the invalidation over the bus can make a key change reach the other gateway
  const cluster = await startCluster(t, { gateways: 2, env: { CREDENTIAL_CACHE_MS: '60000' } });
  const env = await cluster.createEnvironment();
  const other = await cluster.createEnvironment('other');
  const control = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  const es = await generateKeyPair('ES256', { extractable: true });
  const publicJwk = await exportJWK(es.publicKey);

  // refused registrations: a private key, a key of another type, a weak RSA key, a bad kid
  assert.equal(errorCode(await control.put('/v1/token-keys/k1', { alg: 'ES256', jwk: await exportJWK(es.privateKey) })), 'invalid_request');
  assert.equal(errorCode(await control.put('/v1/token-keys/k1', { alg: 'EdDSA', jwk: publicJwk })), 'invalid_request');
  const weak = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' });
  assert.equal(errorCode(await control.put('/v1/token-keys/k1', { alg: 'RS256', jwk: weak })), 'invalid_request');
  assert.equal(errorCode(await control.put('/v1/token-keys/bad%20kid', { alg: 'ES256', jwk: publicJwk })), 'invalid_request');
  assert.equal(errorCode(await control.put('/v1/token-keys/k1', { alg: 'HS256', jwk: publicJwk })), 'invalid_request');

  const sign = (claims: Claims, header = { alg: 'ES256', kid: 'k1' }) => tenantToken(es.privateKey, header, { iss: env.environmentId, ...claims });
  const early = await sign({});
  for (const gw of cluster.gateways) assert.equal((await client(gw.realtimeUrl, early).get('/v1/me')).status, 401);

  const put = await control.put('/v1/token-keys/k1', { alg: 'ES256', jwk: publicJwk });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  assert.equal(put.body.kid, 'k1');
  assert.deepEqual(
    (await control.get('/v1/token-keys')).body.keys.map((k: any) => [k.kid, k.alg]),
    [['k1', 'ES256']],
  );

  // accepted on every gateway at once (a cached "unknown kid" was forgotten), for HTTP and sockets
  const token = await sign({ ext: { plan: 'pro' } });
  for (const gw of cluster.gateways) {
    await eventually(`${gw.name} accepts the new key`, async () => (await client(gw.realtimeUrl, token).get('/v1/me')).status === 200);
    const me = await client(gw.realtimeUrl, token).get('/v1/me');
    assert.equal(me.status, 200, JSON.stringify(me.body));
    assert.equal(me.body.userId, 'alice');
  }
  const socket = openSocket(cluster.gateways[1]!.realtimeUrl, `/v1/channels/general?token=${token}`);
  await socket.waitFor('ready', (f) => f.op === 'ready');

  // the refusals: each is a 401 with its reason
  const now = Math.floor(Date.now() / 1000);
  const refusals: [string, string, RegExp][] = [
    [
      'alg none',
      new UnsecuredJWT({ iss: env.environmentId, aud: 'realtime', sub: 'alice', jti: 'x' }).setIssuedAt().setExpirationTime('10m').encode(),
      /algorithm/,
    ],
    [
      'HS256 with the public key as the secret',
      await new SignJWT({ iss: env.environmentId, aud: 'realtime', sub: 'alice', jti: 'x' })
        .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(new TextEncoder().encode(JSON.stringify(publicJwk))),
      /key id/,
    ],
    ['another environment as issuer', await sign({ iss: other.environmentId }), /unknown signing key/],
    ['no issuer', await tenantToken(es.privateKey, { alg: 'ES256', kid: 'k1' }, {}), /iss/],
    ['expired', await sign({ iat: now - 700, exp: now - 100 }), /expired/],
    ['a lifetime over 24 h', await sign({ exp: now + 2 * 86_400 }), /lifetime/],
    ['issued in the future', await sign({ iat: now + 3600, exp: now + 4000 }), /future/],
    ['another audience', await sign({ aud: 'logs' }), /refused/],
    ['a mismatching env claim', await sign({ env: other.environmentId }), /environment/],
    ['an unknown kid', await sign({}, { alg: 'ES256', kid: 'k2' }), /unknown signing key/],
    ['a bad subject', await sign({ sub: 'has space' }), /sub/],
    ['oversize', await sign({ ext: { pad: 'x'.repeat(9000) } }), /over 8192/],
  ];
  for (const [what, bad, reason] of refusals) {
    const res = await client(cluster.gateways[0]!.realtimeUrl, bad).get('/v1/me');
    assert.equal(res.status, 401, what);
    assert.match(res.body.reason, reason, what);
  }
  // a forged signature (a token signed by another key claiming k1)
  const impostor = await generateKeyPair('ES256');
  const forged = await tenantToken(impostor.privateKey, { alg: 'ES256', kid: 'k1' }, { iss: env.environmentId });
  assert.equal((await client(cluster.gateways[0]!.realtimeUrl, forged).get('/v1/me')).status, 401);

  // key ids are per environment: another environment registers k1 with its own key; each key
  // still signs for its own environment only
  const otherKey = await generateKeyPair('ES256', { extractable: true });
  const otherControl = client(cluster.gateways[0]!.controlUrl, other.secretKey);
  assert.equal((await otherControl.put('/v1/token-keys/k1', { alg: 'ES256', jwk: await exportJWK(otherKey.publicKey) })).status, 200);
  const otherToken = await tenantToken(otherKey.privateKey, { alg: 'ES256', kid: 'k1' }, { iss: other.environmentId });
  await eventually(
    "the other environment's k1 is accepted",
    async () => (await client(cluster.gateways[0]!.realtimeUrl, otherToken).get('/v1/me')).status === 200,
  );
  assert.equal((await client(cluster.gateways[0]!.realtimeUrl, token).get('/v1/me')).status, 200);
  for (const crossed of [
    await sign({ iss: other.environmentId }),
    await tenantToken(otherKey.privateKey, { alg: 'ES256', kid: 'k1' }, { iss: env.environmentId }),
  ]) {
    assert.equal((await client(cluster.gateways[0]!.realtimeUrl, crossed).get('/v1/me')).status, 401);
  }

  // revocation by jti works for tenant tokens too, and closes the socket
  const jti = 'tenant-jti-1';
  const revocable = await sign({ jti });
  const revocableSocket = openSocket(cluster.gateways[0]!.realtimeUrl, `/v1/connect?token=${revocable}`);
  await revocableSocket.waitFor('connected', (f) => f.op === 'connected');
  assert.equal((await control.post('/v1/tokens/revoke', { jti })).status, 200);
  assert.equal((await revocableSocket.closed).code, 4401);
  await eventually(
    'the other gateway refuses the revoked token',
    async () => (await client(cluster.gateways[1]!.realtimeUrl, revocable).get('/v1/me')).status === 401,
  );

  // removing the key refuses its tokens on every gateway at once and closes their sockets
  assert.equal(socket.ws.readyState, socket.ws.OPEN);
  assert.equal((await control.delete('/v1/token-keys/k1')).status, 204);
  assert.equal((await socket.closed).code, 4401);
  assert.equal((await client(cluster.gateways[0]!.realtimeUrl, token).get('/v1/me')).status, 401);
  await eventually(
    'the other gateway refuses the removed key',
    async () => (await client(cluster.gateways[1]!.realtimeUrl, token).get('/v1/me')).status === 401,
  );
  assert.equal(errorCode(await control.delete('/v1/token-keys/k1')), 'not_found');
});

test('tenant-signed tokens - a JWKS URL, fetched under the webhook URL policy and refetched for a new kid', { timeout: 180_000 }, async (t) => {
  const cluster = await startCluster(t, { gateways: 1, env: { TOKEN_JWKS_REFETCH_MS: '200' } });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  const control = client(gw.controlUrl, env.secretKey);
  const first = await generateKeyPair('EdDSA', { extractable: true });
  const second = await generateKeyPair('RS256', { extractable: true });
  const served: JWK[] = [{ ...(await exportJWK(first.publicKey)), kid: 'ed-1', alg: 'EdDSA' }];
  let fetches = 0;
  const server = createServer((_req, res) => {
    fetches++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: served }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;

  // the URL policy: private addresses and plain http to public hosts are refused
  for (const refused of ['http://10.0.0.1/jwks', 'https://192.168.1.1/jwks', 'http://example.com/jwks', 'https://metadata.internal/jwks', 'not a url']) {
    assert.equal(errorCode(await control.put('/v1/token-jwks', { url: refused })), 'invalid_request', refused);
  }
  assert.equal((await control.put('/v1/token-jwks', { url })).status, 200);
  assert.equal((await control.get('/v1/token-keys')).body.jwksUrl, url);

  const sign = (key: KeyLike, alg: string, kid: string) => tenantToken(key, { alg, kid }, { iss: env.environmentId, sub: 'bob' });
  const tokenA = await sign(first.privateKey, 'EdDSA', 'ed-1');
  assert.equal((await client(gw.realtimeUrl, tokenA).get('/v1/me')).status, 200);
  // a key the set does not hold yet is refused; once served it is found (a refetch for the unknown kid)
  const tokenB = await sign(second.privateKey, 'RS256', 'rs-2');
  assert.equal((await client(gw.realtimeUrl, tokenB).get('/v1/me')).status, 401);
  served.push({ ...(await exportJWK(second.publicKey)), kid: 'rs-2', alg: 'RS256' });
  await eventually('the rotated-in key is fetched', async () => (await client(gw.realtimeUrl, tokenB).get('/v1/me')).status === 200);
  // the key's algorithm is pinned: the RSA key's kid with another alg is refused
  assert.equal((await client(gw.realtimeUrl, await sign(first.privateKey, 'EdDSA', 'rs-2')).get('/v1/me')).status, 401);
  assert.ok(fetches >= 2);

  // removing the URL refuses its tokens at once
  assert.equal((await control.delete('/v1/token-jwks')).status, 204);
  assert.equal((await client(gw.realtimeUrl, tokenA).get('/v1/me')).status, 401);
});

test('tenant-signed tokens - the gateway resolves a JWKS host through c-ares on DNS_SERVERS, and refuses a name that resolves to a private address', {
  timeout: 120_000,
}, async (t) => {
  const names = await startDnsServer(t, { 'jwks.tenant.test': ['10.0.0.1'] });
  const cluster = await startCluster(t, { gateways: 1, env: { DNS_SERVERS: names.address, DNS_TIMEOUT_MS: '500', DNS_TRIES: '1' } });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  assert.equal((await client(gw.controlUrl, env.secretKey).put('/v1/token-jwks', { url: 'https://jwks.tenant.test/jwks.json' })).status, 200);
  const key = await generateKeyPair('EdDSA', { extractable: true });
  const token = await tenantToken(key.privateKey, { alg: 'EdDSA', kid: 'ed-1' }, { iss: env.environmentId, sub: 'bob' });
  // the name server the gateway was given is asked (getaddrinfo would ask the system's), and its
  // private answer is refused: no key, the token is refused
  assert.equal((await client(gw.realtimeUrl, token).get('/v1/me')).status, 401);
  assert.ok((names.queries.get('jwks.tenant.test') ?? 0) > 0, 'DNS_SERVERS was not asked for the JWKS host');
});
