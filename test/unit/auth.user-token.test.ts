import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { newId } from '@rtm/db';
import { TokenError, signToken, verifyToken, type SigningKey } from '../../libs/auth/src/user-token.ts';

const options = { issuer: 'rtm', audience: 'realtime' };
const keyOf = (environmentId: string): SigningKey => ({ id: newId('sgk'), environmentId, secret: new Uint8Array(randomBytes(32)) });

test("user tokens: a key verifies its tokens again and again, and never another key's (its imported secret is reused, not shared)", async () => {
  const a = keyOf('env_a');
  const b = keyOf('env_b');
  const keys = new Map([a, b].map((key) => [key.id, key]));
  const find = async (kid: string) => keys.get(kid) ?? null;
  for (const subject of ['u1', 'u2', 'u3']) {
    const { token } = await signToken(a, { ...options, subject, ttlSeconds: 60 });
    const claims = await verifyToken(token, find, options);
    assert.deepEqual([claims.userId, claims.environmentId, claims.keyId], [subject, 'env_a', a.id]);
  }
  const { token: fromB } = await signToken(b, { ...options, subject: 'u9', ttlSeconds: 60 });
  assert.equal((await verifyToken(fromB, find, options)).environmentId, 'env_b');
  // B's token presented under A's key id: the signature is A's to check, and it fails
  const [header, payload, signature] = fromB.split('.');
  const headerA = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(header!, 'base64url').toString()), kid: a.id })).toString('base64url');
  await assert.rejects(verifyToken(`${headerA}.${payload}.${signature}`, find, options), TokenError);
  // one changed byte of the signature
  const { token } = await signToken(a, { ...options, subject: 'u1', ttlSeconds: 60 });
  const flipped = token.slice(0, -2) + (token.at(-2) === 'A' ? 'B' : 'A') + token.at(-1);
  await assert.rejects(verifyToken(flipped, find, options), TokenError);
});
