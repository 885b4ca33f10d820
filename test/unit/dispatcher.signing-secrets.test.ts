import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createSecretKeyring, encryptSecret } from '@rtm/webhooks';
import { PREVIOUS_SECRET_GRACE_MS } from '../../apps/dispatcher/src/delivery/secrets-in-grace.ts';
import { SigningSecrets } from '../../apps/dispatcher/src/signing-secrets.ts';

const keyring = createSecretKeyring(randomBytes(32).toString('base64'));
const stored = (plain: string, environmentId = 'env_1', column: 'secret' | 'previous_secret' = 'secret') =>
  encryptSecret(keyring, plain, { environmentId, column });

test('no stored secret: nothing to sign with', () => {
  assert.equal(new SigningSecrets(keyring).of({ environment_id: 'env_1', secrets: null }), null);
});

test('the current secret, and the previous one only within its grace after the rotation', () => {
  const secrets = new SigningSecrets(keyring);
  const now = Date.parse('2026-01-02T00:00:00Z');
  const row = (rotatedAgo: number) => ({
    environment_id: 'env_1',
    secrets: {
      secret: stored('whsec_new'),
      previous_secret: stored('whsec_old', 'env_1', 'previous_secret'),
      rotated_at: new Date(now - rotatedAgo).toISOString(),
    },
  });
  assert.deepEqual(secrets.of(row(60_000), now), ['whsec_new', 'whsec_old']);
  assert.deepEqual(secrets.of(row(PREVIOUS_SECRET_GRACE_MS + 1), now), ['whsec_new']);
  assert.deepEqual(secrets.of({ environment_id: 'env_1', secrets: { secret: stored('whsec_x'), previous_secret: null, rotated_at: null } }, now), ['whsec_x']);
});

test("a secret is bound to its environment: another environment's ciphertext does not decrypt, and that is not kept", () => {
  const secrets = new SigningSecrets(keyring);
  const row = { environment_id: 'env_2', secrets: { secret: stored('whsec_a', 'env_1'), previous_secret: null, rotated_at: null } };
  assert.throws(() => secrets.of(row));
  assert.throws(() => secrets.of(row), 'the failure is thrown again, not cached');
  assert.deepEqual(secrets.of({ ...row, environment_id: 'env_1' }), ['whsec_a']);
});

test('a key this process lacks throws, for the caller to defer; the same text decrypts once it is readable', () => {
  const other = createSecretKeyring(randomBytes(32).toString('base64'));
  const foreign = encryptSecret(other, 'whsec_b', { environmentId: 'env_1', column: 'secret' });
  assert.throws(() => new SigningSecrets(keyring).of({ environment_id: 'env_1', secrets: { secret: foreign, previous_secret: null, rotated_at: null } }));
  assert.deepEqual(new SigningSecrets(other).of({ environment_id: 'env_1', secrets: { secret: foreign, previous_secret: null, rotated_at: null } }), [
    'whsec_b',
  ]);
});
