import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair, type JWK } from 'jose';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode } from './helpers/http.ts';
import { openSocket } from './helpers/ws.ts';
import { eventually } from './helpers/eventually.ts';

type KeyLike = Parameters<SignJWT['sign']>[0];

async function tenantToken(privateKey: KeyLike, kid: string, claims: { iss: string; sub?: string; iat?: number; exp?: number; jti?: string }): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const iat = claims.iat ?? now;
  return new SignJWT({})
    .setProtectedHeader({ alg: 'ES256', kid })
    .setIssuer(claims.iss)
    .setAudience('realtime')
    .setSubject(claims.sub ?? 'alice')
    .setIssuedAt(iat)
    .setExpirationTime(claims.exp ?? iat + 600)
    .setJti(claims.jti ?? `t-${Math.random()}`)
    .sign(privateKey);
}

async function listen(t: { after(fn: () => unknown): void }, handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
}

test('token keys - a kid is per environment: another environment registering it affects no one else', { timeout: 180_000 }, async (t) => {
  // a long credential cache: a key change reaches the other gateway only through the invalidation
  const cluster = await startCluster(t, { gateways: 2, env: { CREDENTIAL_CACHE_MS: '60000' } });
  const [gw0, gw1] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const a = await cluster.createEnvironment('a');
  const b = await cluster.createEnvironment('b');
  const controlA = client(gw0.controlUrl, a.secretKey);
  const controlB = client(gw0.controlUrl, b.secretKey);
  const keyA = await generateKeyPair('ES256', { extractable: true });
  const keyB = await generateKeyPair('ES256', { extractable: true });
  const keyB2 = await generateKeyPair('ES256', { extractable: true });

  // B publishes kid "shared" in its JWKS only
  const served: JWK[] = [{ ...(await exportJWK(keyB.publicKey)), kid: 'shared', alg: 'ES256' }];
  const url = await listen(t, (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: served })));
  assert.equal((await controlB.put('/v1/token-jwks', { url })).status, 200);
  const tokenB = await tenantToken(keyB.privateKey, 'shared', { iss: b.environmentId, sub: 'bob' });
  const statusOf = async (gw: typeof gw0, token: string) => (await client(gw.realtimeUrl, token).get('/v1/me')).status;
  for (const gw of [gw0, gw1]) assert.equal(await statusOf(gw, tokenB), 200, `${gw.name}: B's token before`);
  const socketB = openSocket(gw1.realtimeUrl, `/v1/connect?token=${tokenB}`);
  await socketB.waitFor('connected', (f) => f.op === 'connected');

  // A registers the same kid: accepted, and B's tokens keep working on every gateway
  const putA = await controlA.put('/v1/token-keys/shared', { alg: 'ES256', jwk: await exportJWK(keyA.publicKey) });
  assert.equal(putA.status, 200, JSON.stringify(putA.body));
  const tokenA = await tenantToken(keyA.privateKey, 'shared', { iss: a.environmentId });
  for (const gw of [gw0, gw1]) {
    await eventually(`${gw.name} accepts A's new key`, async () => (await statusOf(gw, tokenA)) === 200);
    const me = await client(gw.realtimeUrl, tokenB).get('/v1/me');
    assert.equal(me.status, 200, `${gw.name}: B's token after A registered its kid: ${JSON.stringify(me.body)}`);
    assert.equal(me.body.userId, 'bob');
    assert.equal(me.body.environmentId, b.environmentId);
  }

  // the refusals of foreign keys stand: each environment's key signs for that environment only
  const foreign: [string, string][] = [
    ["A's key, iss B", await tenantToken(keyA.privateKey, 'shared', { iss: b.environmentId })],
    ["B's key, iss A", await tenantToken(keyB.privateKey, 'shared', { iss: a.environmentId })],
  ];
  for (const [what, token] of foreign) {
    for (const gw of [gw0, gw1]) {
      const res = await client(gw.realtimeUrl, token).get('/v1/me');
      assert.equal(res.status, 401, `${gw.name}: ${what}`);
      assert.equal(errorCode(res), 'unauthorized');
    }
  }

  // A registering the kid closed none of B's sockets
  assert.equal(socketB.ws.readyState, socketB.ws.OPEN);
  socketB.send({ op: 'ping', ref: 1 });
  await socketB.waitFor('pong', (f) => f.op === 'pong' && f.ref === 1);
  // (B changing its own keys of that kid below may close it: that is B's business)
  await socketB.close();

  // B can register the kid too (a registered key wins over its own JWKS key of that kid)
  const putB = await controlB.put('/v1/token-keys/shared', { alg: 'ES256', jwk: await exportJWK(keyB2.publicKey) });
  assert.equal(putB.status, 200, JSON.stringify(putB.body));
  const tokenB2 = await tenantToken(keyB2.privateKey, 'shared', { iss: b.environmentId, sub: 'bob' });
  for (const gw of [gw0, gw1]) {
    await eventually(`${gw.name} accepts B's registered key`, async () => (await statusOf(gw, tokenB2)) === 200);
    assert.equal(await statusOf(gw, tokenA), 200, `${gw.name}: A's token after B registered the kid`);
  }
  assert.deepEqual(
    (await controlA.get('/v1/token-keys')).body.keys.map((k: any) => k.kid),
    ['shared'],
  );
  assert.deepEqual(
    (await controlB.get('/v1/token-keys')).body.keys.map((k: any) => k.kid),
    ['shared'],
  );
  assert.deepEqual((await controlA.get('/v1/token-keys')).body.keys[0].jwk.x, (await exportJWK(keyA.publicKey)).x);

  // B removes its registered key: A's tokens are untouched, B's JWKS key of that kid verifies again
  assert.equal((await controlB.delete('/v1/token-keys/shared')).status, 204);
  for (const gw of [gw0, gw1]) {
    await eventually(`${gw.name} refuses B's removed key`, async () => (await statusOf(gw, tokenB2)) === 401);
    assert.equal(await statusOf(gw, tokenA), 200, `${gw.name}: A's token after B removed its key`);
    await eventually(`${gw.name} falls back to B's JWKS`, async () => (await statusOf(gw, tokenB)) === 200);
  }

  // A removes its key: only A's tokens are refused; B's sockets and tokens are untouched
  const socketB2 = openSocket(gw1.realtimeUrl, `/v1/connect?token=${tokenB}`);
  await socketB2.waitFor('connected', (f) => f.op === 'connected');
  assert.equal((await controlA.delete('/v1/token-keys/shared')).status, 204);
  for (const gw of [gw0, gw1]) {
    await eventually(`${gw.name} refuses A's removed key`, async () => (await statusOf(gw, tokenA)) === 401);
    assert.equal(await statusOf(gw, tokenB), 200, `${gw.name}: B's token after A removed its key`);
  }
  assert.equal(socketB2.ws.readyState, socketB2.ws.OPEN);
  socketB2.send({ op: 'ping', ref: 2 });
  await socketB2.waitFor('pong', (f) => f.op === 'pong' && f.ref === 2);
  await socketB2.close();
});

test('token revocation - a tenant-signed token dated ahead cannot outlive DELETE /v1/users/{id}/tokens', { timeout: 180_000 }, async (t) => {
  const cluster = await startCluster(t, { gateways: 2 });
  const env = await cluster.createEnvironment();
  const control = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  const key = await generateKeyPair('ES256', { extractable: true });
  assert.equal((await control.put('/v1/token-keys/k1', { alg: 'ES256', jwk: await exportJWK(key.publicKey) })).status, 200);
  const now = Math.floor(Date.now() / 1000);
  const ahead = await tenantToken(key.privateKey, 'k1', { iss: env.environmentId, iat: now + 50, exp: now + 600 });
  const current = await tenantToken(key.privateKey, 'k1', { iss: env.environmentId, iat: now - 1, exp: now + 600 });
  for (const gw of cluster.gateways) {
    await eventually(`${gw.name} knows the key`, async () => (await client(gw.realtimeUrl, current).get('/v1/me')).status === 200);
  }

  const revoked = await control.delete('/v1/users/alice/tokens');
  assert.equal(revoked.status, 200, JSON.stringify(revoked.body));
  for (const gw of cluster.gateways) {
    for (const [what, token] of [
      ['dated 50 s ahead', ahead],
      ['dated now', current],
    ] as const) {
      await eventually(`${gw.name} refuses the token ${what}`, async () => (await client(gw.realtimeUrl, token).get('/v1/me')).status === 401);
      const res = await client(gw.realtimeUrl, token).get('/v1/me');
      assert.equal(errorCode(res), 'unauthorized', `${gw.name}: ${what}`);
    }
    // sockets too
    const socket = openSocket(gw.realtimeUrl, `/v1/connect?token=${ahead}`);
    await assert.rejects(socket.waitFor('connected', (f) => f.op === 'connected'));
  }
});

test('token keys - a JWKS host that drip-feeds its answer is abandoned at the fetch deadline', { timeout: 180_000 }, async (t) => {
  const cluster = await startCluster(t, { gateways: 1, env: { TOKEN_JWKS_REFETCH_MS: '200' } });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  const key = await generateKeyPair('ES256', { extractable: true });
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(key.publicKey)), kid: 'k1', alg: 'ES256' }] });
  let drip = true;
  let abandoned = 0;
  const dripping = new Set<ServerResponse>();
  const url = await listen(t, (req, res) => {
    if (!drip) return void res.writeHead(200, { 'content-type': 'application/json' }).end(jwks);
    // headers at once, then one byte every 200 ms: every chunk comes well within any per-chunk timeout
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"keys":[');
    dripping.add(res);
    const timer = setInterval(() => res.write(' '), 200);
    req.socket.on('close', () => {
      clearInterval(timer);
      dripping.delete(res);
      abandoned++;
    });
  });
  assert.equal((await client(gw.controlUrl, env.secretKey).put('/v1/token-jwks', { url })).status, 200);
  const token = await tenantToken(key.privateKey, 'k1', { iss: env.environmentId });

  // the token is refused with the usual reason once the fetch is given up, rather than waiting on the host
  const res = await fetch(`${gw.realtimeUrl}/v1/me`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(30_000) });
  const body = (await res.json()) as { code: string; reason: string };
  assert.equal(res.status, 401);
  assert.equal(body.code, 'unauthorized');
  assert.match(body.reason, /unknown signing key/);
  // the gateway closed the connection it was being dripped on
  await eventually('the dripping fetch is abandoned', async () => abandoned >= 1 && dripping.size === 0);

  // once the host answers properly, the environment's tokens are accepted: nothing is stuck
  drip = false;
  await eventually('the key is fetched once the host answers', async () => (await client(gw.realtimeUrl, token).get('/v1/me')).status === 200);
});
