import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeRevocation, encodeRevocation, issuedAtMsOf, refuses, type Revocation } from '@rtm/auth';

const token = { environmentId: 'env_a', userId: 'alice', tokenId: 'jti_1', issuedAtMs: 1_700_000_000_500 };

test('a jti revocation refuses that token of its environment only', () => {
  const revocation: Revocation = { environmentId: 'env_a', jti: 'jti_1', expiresAtMs: 0 };
  assert.equal(refuses(revocation, token), true);
  assert.equal(refuses(revocation, { ...token, tokenId: 'jti_2' }), false);
  assert.equal(refuses({ ...revocation, environmentId: 'env_b' }, token), false);
});

test("a user cutoff refuses the user's tokens issued strictly before it, to the millisecond", () => {
  const at = (validAfterMs: number): Revocation => ({ environmentId: 'env_a', userId: 'alice', validAfterMs, expiresAtMs: 0 });
  assert.equal(refuses(at(token.issuedAtMs + 1), token), true);
  assert.equal(refuses(at(token.issuedAtMs), token), false);
  assert.equal(refuses(at(token.issuedAtMs - 1), token), false);
  assert.equal(refuses(at(token.issuedAtMs + 1), { ...token, userId: 'bob' }), false);
});

test('retired keys refuse the tokens verified with them', () => {
  const retired: Revocation = { environmentId: 'env_a', keyIds: ['kid_1'], expiresAtMs: 0 };
  assert.equal(refuses(retired, { ...token, keyId: 'kid_1' }), true);
  assert.equal(refuses(retired, { ...token, keyId: 'kid_2' }), false);
  assert.equal(refuses(retired, token), false);
  assert.deepEqual(decodeRevocation(encodeRevocation(retired)), retired);
});

test('issue time: iat_ms when it agrees with iat, else the start of the iat second', () => {
  assert.equal(issuedAtMsOf({ iat: 1_700_000_000, iat_ms: 1_700_000_000_750 }), 1_700_000_000_750);
  assert.equal(issuedAtMsOf({ iat: 1_700_000_000 }), 1_700_000_000_000);
  // a claim that disagrees with iat (forged to dodge a cutoff) is ignored
  assert.equal(issuedAtMsOf({ iat: 1_700_000_000, iat_ms: 1_800_000_000_000 }), 1_700_000_000_000);
  assert.equal(issuedAtMsOf({ iat: 1_700_000_000, iat_ms: 'x' }), 1_700_000_000_000);
});

test('revocations round-trip over the bus; anything malformed decodes to null', () => {
  const one: Revocation = { environmentId: 'env_a', jti: 'j', expiresAtMs: 5 };
  const all: Revocation = { environmentId: 'env_a', userId: 'u', validAfterMs: 3, expiresAtMs: 5 };
  assert.deepEqual(decodeRevocation(encodeRevocation(one)), one);
  assert.deepEqual(decodeRevocation(encodeRevocation(all)), all);
  assert.equal(decodeRevocation(new TextEncoder().encode('nope')), null);
  assert.equal(decodeRevocation(new TextEncoder().encode('{"environmentId":"e","expiresAtMs":1}')), null);
});
