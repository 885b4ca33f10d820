import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createSecretKeyring, decryptSecret, encryptSecret, SecretKeyError, storedKeyId } from '@rtm/webhooks';

const key = () => randomBytes(32);

test('secret box - a secret round-trips and is not stored in plaintext', () => {
  const keyring = createSecretKeyring(key().toString('base64'));
  const stored = encryptSecret(keyring, 'whsec_abc', 'env_1');
  assert.doesNotMatch(stored, /whsec_abc/);
  assert.equal(storedKeyId(stored), keyring.currentId);
  assert.equal(decryptSecret(keyring, stored, 'env_1'), 'whsec_abc');
  assert.notEqual(encryptSecret(keyring, 'whsec_abc', 'env_1'), stored, 'a fresh IV every time');
});

test('secret box - keys in hex, base64 and base64url give the same key id', () => {
  const k = key();
  const ids = [k.toString('hex'), k.toString('base64'), k.toString('base64url')].map((text) => createSecretKeyring(text).currentId);
  assert.equal(new Set(ids).size, 1);
});

test('secret box - a bad key is refused naming the variable, never echoing the value', () => {
  for (const bad of ['short', randomBytes(16).toString('hex'), randomBytes(31).toString('base64'), 'z'.repeat(64)]) {
    assert.throws(
      () => createSecretKeyring(bad),
      (error: Error) => error instanceof SecretKeyError && /SECRET_ENCRYPTION_KEY/.test(error.message) && !error.message.includes(bad),
    );
  }
  assert.throws(() => createSecretKeyring(key().toString('hex'), 'nope'), /SECRET_ENCRYPTION_KEYS_OLD/);
});

test('secret box - rotation: values under an old key decrypt while it is listed, not after', () => {
  const oldKey = key().toString('base64');
  const before = createSecretKeyring(oldKey);
  const stored = encryptSecret(before, 'whsec_old', 'env_1');
  const rotated = createSecretKeyring(key().toString('base64'), `${oldKey}`);
  assert.equal(decryptSecret(rotated, stored, 'env_1'), 'whsec_old');
  assert.notEqual(rotated.currentId, before.currentId);
  assert.equal(storedKeyId(encryptSecret(rotated, 'x', 'env_1')), rotated.currentId);
  const forgotten = createSecretKeyring(key().toString('base64'));
  assert.throws(() => decryptSecret(forgotten, stored, 'env_1'), /SECRET_ENCRYPTION_KEYS_OLD/);
});

test('secret box - a ciphertext moved to another environment or altered does not decrypt', () => {
  const keyring = createSecretKeyring(key().toString('base64'));
  const stored = encryptSecret(keyring, 'whsec_abc', 'env_1');
  assert.throws(() => decryptSecret(keyring, stored, 'env_2'), SecretKeyError);
  const parts = stored.split(':');
  parts[4] = Buffer.from('whsec_abd').toString('base64url');
  assert.throws(() => decryptSecret(keyring, parts.join(':'), 'env_1'), SecretKeyError);
});

test('secret box - a plaintext value from before encryption is read as is', () => {
  const keyring = createSecretKeyring(key().toString('base64'));
  assert.equal(decryptSecret(keyring, 'whsec_legacy', 'env_1'), 'whsec_legacy');
  assert.equal(storedKeyId('whsec_legacy'), null);
});
