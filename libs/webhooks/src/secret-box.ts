/**
 * Webhook signing secrets at rest: AES-256-GCM, bound to their environment.
 *
 * Stored form (text): `enc:v1:<key id>:<iv>:<ciphertext>:<tag>` (base64url parts, 12-byte IV,
 * 16-byte tag), with the environment id as additional authenticated data, so a ciphertext copied
 * to another environment's row does not decrypt. The key id is the first 8 bytes (hex) of the
 * SHA-256 of the key: derived, so an operator names nothing and two processes with the same key
 * agree. Rotation: the new key goes into `SECRET_ENCRYPTION_KEY` and the old one into
 * `SECRET_ENCRYPTION_KEYS_OLD` (comma-separated); values under an old key stay readable, and each
 * process re-encrypts them under the current key when it starts (`reencryptWebhookSecrets`).
 * A value without the `enc:` prefix is a plaintext secret from before encryption: read as is,
 * re-encrypted at start.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const PREFIX = 'enc:v1:';

export interface SecretKeyring {
  /** Id of the key new values are encrypted with. */
  readonly currentId: string;
  readonly keys: ReadonlyMap<string, Buffer>;
}

/** A key that cannot be used; the message names the variable, never the value. */
export class SecretKeyError extends Error {
  override name = 'SecretKeyError';
}

/** 32 bytes written as 64 hex digits or as base64/base64url (43–44 characters). */
export function parseEncryptionKey(text: string, variable: string): Buffer {
  const value = text.trim();
  let key: Buffer | null = null;
  if (/^[0-9a-fA-F]{64}$/.test(value)) key = Buffer.from(value, 'hex');
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value)) key = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (key === null || key.length !== 32) {
    throw new SecretKeyError(`${variable}: must be 32 bytes written as 64 hex digits or base64 (e.g. openssl rand -base64 32)`);
  }
  return key;
}

export const encryptionKeyId = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 16);

/** The keyring from the current key and the earlier ones (comma-separated, may be empty). */
export function createSecretKeyring(current: string, old?: string): SecretKeyring {
  const key = parseEncryptionKey(current, 'SECRET_ENCRYPTION_KEY');
  const keys = new Map<string, Buffer>([[encryptionKeyId(key), key]]);
  for (const item of (old ?? '').split(',').filter((part) => part.trim() !== '')) {
    const oldKey = parseEncryptionKey(item, 'SECRET_ENCRYPTION_KEYS_OLD');
    keys.set(encryptionKeyId(oldKey), oldKey);
  }
  return { currentId: encryptionKeyId(key), keys };
}

export function encryptSecret(keyring: SecretKeyring, plaintext: string, environmentId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyring.keys.get(keyring.currentId)!, iv);
  cipher.setAAD(Buffer.from(environmentId, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const parts = [iv, ciphertext, cipher.getAuthTag()].map((part) => part.toString('base64url'));
  return `${PREFIX}${keyring.currentId}:${parts.join(':')}`;
}

/** The key id a stored value is encrypted with, or null for a plaintext value. */
export function storedKeyId(stored: string): string | null {
  if (!stored.startsWith(PREFIX)) return null;
  return stored.slice(PREFIX.length).split(':')[0] ?? '';
}

/** Decrypts a stored value (a plaintext one from before encryption is returned as it is). */
export function decryptSecret(keyring: SecretKeyring, stored: string, environmentId: string): string {
  if (!stored.startsWith(PREFIX)) return stored;
  const [keyId, iv, ciphertext, tag] = stored.slice(PREFIX.length).split(':');
  const key = keyring.keys.get(keyId ?? '');
  if (!key) {
    throw new SecretKeyError(`a webhook secret is encrypted with key ${keyId}, which is neither SECRET_ENCRYPTION_KEY nor in SECRET_ENCRYPTION_KEYS_OLD`);
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv ?? '', 'base64url'));
    decipher.setAAD(Buffer.from(environmentId, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag ?? '', 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext ?? '', 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretKeyError(`a webhook secret of environment ${environmentId} does not decrypt (altered, or moved from another row)`);
  }
}
