import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PASSWORD_PARAMS, generatePassword, hashPassword, needsRehash, parsePasswordHash, passwordProblem, verifyPassword } from '@rtm/accounts';

// most cases use cheap parameters: the format and comparison do not depend on the cost
const CHEAP = { log2N: 10, r: 8, p: 1 };

test('password - the default parameters are strong: scrypt N=2^17, r=8, p=1, stored in the hash', async () => {
  assert.deepEqual({ ...PASSWORD_PARAMS }, { log2N: 17, r: 8, p: 1 });
  const stored = await hashPassword('correct horse battery staple');
  assert.match(stored, /^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/]+={0,2}\$[A-Za-z0-9+/]+={0,2}$/);
  const parsed = parsePasswordHash(stored)!;
  assert.equal(parsed.salt.length, 16);
  assert.equal(parsed.hash.length, 32);
  assert.equal(await verifyPassword('correct horse battery staple', stored), true);
  assert.equal(needsRehash(stored), false);
});

test('password - verify accepts only the same password; salts differ per hash', async () => {
  const a = await hashPassword('s3cret-password', CHEAP);
  const b = await hashPassword('s3cret-password', CHEAP);
  assert.notEqual(a, b, 'a random salt per hash');
  assert.equal(await verifyPassword('s3cret-password', a), true);
  assert.equal(await verifyPassword('s3cret-password', b), true);
  assert.equal(await verifyPassword('s3cret-passworD', a), false);
  assert.equal(await verifyPassword('', a), false);
  assert.equal(await verifyPassword('s3cret-password ', a), false);
});

test('password - the stored parameters are the ones used to verify, and weaker ones ask for a rehash', async () => {
  const weak = await hashPassword('another password', CHEAP);
  assert.match(weak, /^\$scrypt\$ln=10,r=8,p=1\$/);
  assert.equal(await verifyPassword('another password', weak), true);
  assert.equal(needsRehash(weak), true);
  assert.equal(needsRehash(weak, CHEAP), false);
  // changing the stored cost makes the same salt and hash wrong
  assert.equal(await verifyPassword('another password', weak.replace('ln=10', 'ln=11')), false);
});

test('password - anything that is not a hash of this module verifies as false, never throws', async () => {
  const good = await hashPassword('password-123', CHEAP);
  const [, , params, salt, hash] = good.split('$');
  for (const stored of [
    '',
    'password-123',
    `$argon2id$${params}$${salt}$${hash}`,
    `$scrypt$ln=40,r=8,p=1$${salt}$${hash}`, // out of bounds: would take terabytes
    `$scrypt$ln=10,r=0,p=1$${salt}$${hash}`,
    `$scrypt$${params}$${salt}$`,
    `$scrypt$${params}$${salt}$${hash!.slice(0, 8)}`, // a truncated hash
  ]) {
    assert.equal(parsePasswordHash(stored), null, stored);
    assert.equal(await verifyPassword('password-123', stored), false, stored);
  }
});

test('password - rules for a new password; generated ones pass them', () => {
  assert.match(passwordProblem('short') ?? '', /at least 10/);
  assert.match(passwordProblem(' '.repeat(12)) ?? '', /only spaces/);
  assert.match(passwordProblem('x'.repeat(1025)) ?? '', /at most 1024/);
  assert.equal(passwordProblem('long enough password'), null);
  const generated = generatePassword();
  assert.equal(passwordProblem(generated), null);
  assert.match(generated, /^[A-Za-z0-9_-]{24}$/);
  assert.notEqual(generatePassword(), generated);
});
