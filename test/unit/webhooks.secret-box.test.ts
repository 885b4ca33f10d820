import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCipheriv, randomBytes } from 'node:crypto';
import { createSecretKeyring, decryptSecret, encryptSecret, isCurrentForm, SecretKeyError, storedFormat, storedKeyId, type SecretSlot } from '@rtm/webhooks';

const key = () => randomBytes(32);
const slot = (environmentId: string, column: SecretSlot['column'] = 'secret'): SecretSlot => ({ environmentId, column });

/** The earlier stored form, `enc:v1`, as processes before the current one wrote it (AAD: the environment id). */
function encryptV1(keyText: string, keyId: string, plaintext: string, environmentId: string, tagLength = 16): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(keyText, 'base64'), iv, { authTagLength: tagLength });
  cipher.setAAD(Buffer.from(environmentId, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return `enc:v1:${keyId}:${[iv, ciphertext, cipher.getAuthTag()].map((part) => part.toString('base64url')).join(':')}`;
}

test('secret box - a secret round-trips and is not stored in plaintext', () => {
  const keyring = createSecretKeyring(key().toString('base64'));
  const stored = encryptSecret(keyring, 'whsec_abc', slot('env_1'));
  assert.doesNotMatch(stored, /whsec_abc/);
  assert.match(stored, /^enc:v2:/);
  assert.equal(storedKeyId(stored), keyring.currentId);
  assert.ok(isCurrentForm(keyring, stored));
  assert.equal(decryptSecret(keyring, stored, slot('env_1')), 'whsec_abc');
  assert.notEqual(encryptSecret(keyring, 'whsec_abc', slot('env_1')), stored, 'a fresh IV every time');
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
  const stored = encryptSecret(before, 'whsec_old', slot('env_1'));
  const rotated = createSecretKeyring(key().toString('base64'), `${oldKey}`);
  assert.equal(decryptSecret(rotated, stored, slot('env_1')), 'whsec_old');
  assert.ok(!isCurrentForm(rotated, stored), 'under an old key: to be rewritten');
  assert.notEqual(rotated.currentId, before.currentId);
  assert.equal(storedKeyId(encryptSecret(rotated, 'x', slot('env_1'))), rotated.currentId);
  const forgotten = createSecretKeyring(key().toString('base64'));
  assert.throws(() => decryptSecret(forgotten, stored, slot('env_1')), /SECRET_ENCRYPTION_KEYS_OLD/);
});

test('secret box - a ciphertext moved to another environment or altered does not decrypt', () => {
  const keyring = createSecretKeyring(key().toString('base64'));
  const stored = encryptSecret(keyring, 'whsec_abc', slot('env_1'));
  assert.throws(() => decryptSecret(keyring, stored, slot('env_2')), SecretKeyError);
  const parts = stored.split(':');
  parts[4] = Buffer.from('whsec_abd').toString('base64url');
  assert.throws(() => decryptSecret(keyring, parts.join(':'), slot('env_1')), SecretKeyError);
});

test('secret box - the secret and previous_secret columns cannot be swapped', () => {
  const keyring = createSecretKeyring(key().toString('base64'));
  const current = encryptSecret(keyring, 'whsec_new', slot('env_1', 'secret'));
  const previous = encryptSecret(keyring, 'whsec_old', slot('env_1', 'previous_secret'));
  assert.equal(decryptSecret(keyring, current, slot('env_1', 'secret')), 'whsec_new');
  assert.equal(decryptSecret(keyring, previous, slot('env_1', 'previous_secret')), 'whsec_old');
  assert.throws(() => decryptSecret(keyring, previous, slot('env_1', 'secret')), /moved from another row or column/);
  assert.throws(() => decryptSecret(keyring, current, slot('env_1', 'previous_secret')), SecretKeyError);
});

test('secret box - a tag that is not exactly 16 bytes is refused, even when its prefix is right', () => {
  const keyring = createSecretKeyring(key().toString('base64'));
  const stored = encryptSecret(keyring, 'whsec_abc', slot('env_1'));
  const parts = stored.split(':');
  const tag = Buffer.from(parts[5]!, 'base64url');
  assert.equal(tag.length, 16);
  for (const length of [4, 8, 12, 15]) {
    const cut = [...parts.slice(0, 5), tag.subarray(0, length).toString('base64url')].join(':');
    assert.throws(() => decryptSecret(keyring, cut, slot('env_1')), SecretKeyError, `a ${length}-byte tag`);
  }
  const longer = [...parts.slice(0, 5), Buffer.concat([tag, Buffer.from([0])]).toString('base64url')].join(':');
  assert.throws(() => decryptSecret(keyring, longer, slot('env_1')), SecretKeyError);
  // a v1 value written with a short tag (which the old reader accepted) is refused too
  const text = key().toString('base64');
  const v1 = createSecretKeyring(text);
  assert.throws(() => decryptSecret(v1, encryptV1(text, v1.currentId, 'whsec_short', 'env_1', 4), slot('env_1')), SecretKeyError);
});

test('secret box - a plaintext value is read only when the keyring allows it (never in production)', () => {
  const strict = createSecretKeyring(key().toString('base64'));
  assert.equal(strict.allowPlaintext, false);
  assert.throws(() => decryptSecret(strict, 'whsec_legacy', slot('env_1')), /plaintext, which NODE_ENV=production refuses/);
  const development = createSecretKeyring(key().toString('base64'), undefined, { allowPlaintext: true });
  assert.equal(decryptSecret(development, 'whsec_legacy', slot('env_1')), 'whsec_legacy');
  assert.equal(storedKeyId('whsec_legacy'), null);
  assert.equal(storedFormat('whsec_legacy'), 'plaintext');
  assert.ok(!isCurrentForm(development, 'whsec_legacy'));
  assert.throws(() => decryptSecret(development, 'enc:v9:abc', slot('env_1')), /unknown stored form/);
});

test('secret box - the earlier enc:v1 form is still readable (with its environment-only binding) and is not current', () => {
  const text = key().toString('base64');
  const keyring = createSecretKeyring(text);
  const v1 = encryptV1(text, keyring.currentId, 'whsec_before', 'env_1');
  assert.equal(storedFormat(v1), 'v1');
  assert.equal(storedKeyId(v1), keyring.currentId);
  assert.ok(!isCurrentForm(keyring, v1), 'to be rewritten as v2');
  assert.equal(decryptSecret(keyring, v1, slot('env_1', 'secret')), 'whsec_before');
  assert.throws(() => decryptSecret(keyring, v1, slot('env_2', 'secret')), SecretKeyError);
  // rewritten: bound to its column from then on
  const upgraded = encryptSecret(keyring, decryptSecret(keyring, v1, slot('env_1', 'secret')), slot('env_1', 'secret'));
  assert.ok(isCurrentForm(keyring, upgraded));
  assert.throws(() => decryptSecret(keyring, upgraded, slot('env_1', 'previous_secret')), SecretKeyError);
});
