import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import { jwkRefusal } from '@rtm/auth';
import dns from 'node:dns';
import { BLOCKED_ADDRESS_CODE, HostResolver, capabilityAllows } from '@rtm/rules';
import { JwksCache } from '../../libs/auth/src/jwks.ts';
import { startDnsServer } from '../helpers/dns-server.ts';

test('jwkRefusal: public keys of the named algorithm only', async () => {
  const es = await generateKeyPair('ES256', { extractable: true });
  const ed = await generateKeyPair('EdDSA', { extractable: true });
  const esPublic = (await exportJWK(es.publicKey)) as Record<string, unknown>;
  assert.equal(await jwkRefusal(esPublic, 'ES256'), null);
  assert.equal(await jwkRefusal((await exportJWK(ed.publicKey)) as Record<string, unknown>, 'EdDSA'), null);
  assert.match((await jwkRefusal((await exportJWK(es.privateKey)) as Record<string, unknown>, 'ES256'))!, /private/);
  assert.match((await jwkRefusal(esPublic, 'EdDSA'))!, /kty OKP/);
  assert.match((await jwkRefusal(esPublic, 'HS256'))!, /alg must be/);
  assert.match((await jwkRefusal({ ...esPublic, alg: 'ES384' }, 'ES256'))!, /alg/);
  assert.match((await jwkRefusal({ ...esPublic, use: 'enc' }, 'ES256'))!, /sig/);
  assert.match((await jwkRefusal({ ...esPublic, x: 'AAAA' }, 'ES256'))!, /not a valid/);
  assert.match((await jwkRefusal({ kty: 'oct', k: 'c2VjcmV0' }, 'ES256'))!, /private/);
});

test('JwksCache: unknown kids refetch at most once per interval; a failed fetch keeps the keys it had', async (t) => {
  const ed = await generateKeyPair('EdDSA', { extractable: true });
  let fetches = 0;
  let failing = false;
  const server = createServer((_req, res) => {
    fetches++;
    if (failing) return void res.writeHead(500).end();
    res.writeHead(200).end(JSON.stringify({ keys: [{ ...jwk, kid: 'a', alg: 'EdDSA' }] }));
  });
  const jwk = await exportJWK(ed.publicKey);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const cache = new JwksCache({ allowLoopback: true, minRefetchMs: 60_000, ttlMs: 60_000 });
  assert.equal((await cache.key('env_1', url, 'a'))?.alg, 'EdDSA');
  assert.equal(fetches, 1);
  for (let i = 0; i < 20; i++) assert.equal(await cache.key('env_1', url, `made-up-${i}`), null);
  // the first unknown kid came within the interval of the first fetch: no refetch at all
  assert.equal(fetches, 1);
  const eager = new JwksCache({ allowLoopback: true, minRefetchMs: 0, ttlMs: 0 });
  assert.ok(await eager.key('env_1', url, 'a'));
  failing = true;
  // the set could not be fetched again: the key it had still verifies
  assert.ok(await eager.key('env_1', url, 'a'));
  // loopback not allowed: nothing is fetched
  const strict = new JwksCache({ allowLoopback: false, minRefetchMs: 0 });
  const before = fetches;
  assert.equal(await strict.key('env_1', url, 'a'), null);
  assert.equal(fetches, before);
});

test('JwksCache: JWKS hosts are resolved through c-ares on the configured name servers, never dns.lookup (the thread pool)', async (t) => {
  const names = await startDnsServer(t, { 'jwks.tenant.test': ['10.0.0.1'] });
  const threadPoolLookups = t.mock.method(dns, 'lookup');
  const resolver = new HostResolver({ servers: [names.address], timeoutMs: 500, tries: 1, allowLoopback: false });
  const cache = new JwksCache({ allowLoopback: false, minRefetchMs: 0, resolver });
  assert.equal(await cache.key('env_1', 'https://jwks.tenant.test/keys.json', 'a'), null);
  assert.ok((names.queries.get('jwks.tenant.test') ?? 0) > 0, 'the configured name server was not asked');
  // the look-up a connection makes: the name server's answer, refused by the address policy (private)
  const refusal = await new Promise<NodeJS.ErrnoException | null>((resolve) => cache.lookup('jwks.tenant.test', { all: true }, (error) => resolve(error)));
  assert.equal(refusal?.code, BLOCKED_ADDRESS_CODE);
  assert.equal(threadPoolLookups.mock.callCount(), 0, 'dns.lookup was called');
});

test('a tenant-signed token carries capabilities in the same `cap` claim as a minted one', async () => {
  const { generateKeyPair, exportJWK, SignJWT } = await import('jose');
  const { verifyTenantToken } = await import('@rtm/auth');
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(publicKey);
  const environmentId = 'env_01h2x3y4z5abcdefghjkmnpqrs';
  const find = async (env: string, kid: string) => (env === environmentId && kid === 'k1' ? { kid, environmentId, alg: 'ES256' as const, jwk } : null);
  const sign = (extra: Record<string, unknown>) =>
    new SignJWT({ ...extra })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(environmentId)
      .setAudience('realtime')
      .setSubject('alice')
      .setIssuedAt()
      .setExpirationTime('10m')
      .setJti('t1')
      .sign(privateKey);
  const limited = await verifyTenantToken(await sign({ cap: { 'room:*': 1 } }), find, { audience: 'realtime' });
  assert.equal(capabilityAllows(limited.capabilities, 'room:1', 'subscribe'), true);
  assert.equal(capabilityAllows(limited.capabilities, 'room:1', 'publish'), false);
  assert.equal(capabilityAllows(limited.capabilities, 'other', 'subscribe'), false);
  const full = await verifyTenantToken(await sign({}), find, { audience: 'realtime' });
  assert.equal(full.capabilities, undefined);
  assert.equal(capabilityAllows(full.capabilities, 'other', 'publish'), true);
});

test('a tenant-signed token may be dated at most MAX_IAT_AHEAD_SECONDS ahead of the clock', async () => {
  const { SignJWT } = await import('jose');
  const { verifyTenantToken } = await import('@rtm/auth');
  const { MAX_IAT_AHEAD_SECONDS } = await import('../../libs/auth/src/tenant-token.ts');
  assert.equal(MAX_IAT_AHEAD_SECONDS, 5);
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(publicKey);
  const environmentId = 'env_01h2x3y4z5abcdefghjkmnpqrs';
  const find = async (env: string, kid: string) => (env === environmentId && kid === 'k1' ? { kid, environmentId, alg: 'ES256' as const, jwk } : null);
  const signedAhead = (seconds: number) => {
    const iat = Math.floor(Date.now() / 1000) + seconds;
    return new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(environmentId)
      .setAudience('realtime')
      .setSubject('alice')
      .setIssuedAt(iat)
      .setExpirationTime(iat + 600)
      .setJti('t1')
      .sign(privateKey);
  };
  // within the skew: accepted, and judged by its own iat
  const near = await verifyTenantToken(await signedAhead(2), find, { audience: 'realtime' });
  assert.ok(near.issuedAtMs > Date.now());
  for (const seconds of [7, 50, 59, 3600]) {
    await assert.rejects(verifyTenantToken(await signedAhead(seconds), find, { audience: 'realtime' }), /issued in the future/, `${seconds} s ahead`);
  }
});

test("TenantKeys: a kid is looked up among its environment's keys only; invalidating one environment keeps the others", async () => {
  const { TenantKeys } = await import('@rtm/auth');
  const a = 'env_01h2x3y4z5abcdefghjkmnpqra';
  const b = 'env_01h2x3y4z5abcdefghjkmnpqrb';
  const es = await generateKeyPair('ES256', { extractable: true });
  const ed = await generateKeyPair('EdDSA', { extractable: true });
  // token_keys as rows (environment, kid) → key; two environments hold kid "shared"
  const rows = new Map<string, { alg: string; jwk: unknown }>([
    [`${a}/shared`, { alg: 'ES256', jwk: await exportJWK(es.publicKey) }],
    [`${b}/shared`, { alg: 'EdDSA', jwk: await exportJWK(ed.publicKey) }],
  ]);
  const queries: string[] = [];
  const pool = {
    async query(sql: string, params: string[]) {
      queries.push(sql);
      if (/from token_jwks/.test(sql)) return { rows: [] };
      // the lookup must name both the environment and the kid
      assert.match(sql, /where environment_id = \$1 and kid = \$2/);
      const row = rows.get(`${params[0]}/${params[1]}`);
      return { rows: row ? [row] : [] };
    },
  };
  const keys = new TenantKeys(pool as never, 60_000, { allowLoopback: false });
  assert.equal((await keys.find(a, 'shared'))?.alg, 'ES256');
  assert.equal((await keys.find(a, 'shared'))?.environmentId, a);
  assert.equal((await keys.find(b, 'shared'))?.alg, 'EdDSA');
  assert.equal((await keys.find(b, 'shared'))?.environmentId, b);
  // a kid only another environment holds is unknown here
  rows.set(`${b}/only-b`, { alg: 'EdDSA', jwk: await exportJWK(ed.publicKey) });
  assert.equal(await keys.find(a, 'only-b'), null);
  const cached = queries.length;
  // A's change: A's entries (its cached unknown kid included) are loaded again, B's are not
  rows.set(`${a}/only-b`, { alg: 'ES256', jwk: await exportJWK(es.publicKey) });
  keys.invalidate(a);
  assert.equal((await keys.find(b, 'shared'))?.alg, 'EdDSA');
  assert.equal(queries.length, cached);
  assert.equal((await keys.find(a, 'only-b'))?.environmentId, a);
  assert.ok(queries.length > cached);
});

test('JwksCache: a host that drip-feeds its answer is abandoned at the total deadline', { timeout: 30_000 }, async (t) => {
  let closed = 0;
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    // headers at once, then a byte every 50 ms: no single chunk is ever late
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"keys":[');
    const timer = setInterval(() => res.write(' '), 50);
    req.socket.on('close', () => {
      clearInterval(timer);
      closed++;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const cache = new JwksCache({ allowLoopback: true, timeoutMs: 500, minRefetchMs: 0 });
  // the fetch fails (no keys) instead of waiting for the host, and its connection is closed
  assert.equal(await cache.key('env_1', url, 'a'), null);
  assert.equal(requests, 1);
  for (let i = 0; i < 50 && closed === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(closed, 1);
});
