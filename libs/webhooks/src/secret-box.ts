/**
 * Webhook signing secrets at rest: AES-256-GCM, bound to the exact place they are stored.
 *
 * Stored form (text): `enc:v2:<key id>:<iv>:<ciphertext>:<tag>` (base64url parts, 12-byte IV,
 * 16-byte tag). The additional authenticated data names the slot: the table, the row (the
 * environment id, `webhook_secrets`' primary key) and the column (`secret` or
 * `previous_secret`), so a ciphertext copied to another environment's row, or moved between the
 * two columns of one row, does not decrypt. The tag must be exactly 16 bytes (a shorter tag is
 * refused, never checked on its prefix). The key id is the first 8 bytes (hex) of the SHA-256 of
 * the key: derived, so an operator names nothing and two processes with the same key agree.
 * Rotation: the new key goes into `SECRET_ENCRYPTION_KEY` and the old one into
 * `SECRET_ENCRYPTION_KEYS_OLD` (comma-separated); values under an old key stay readable, and each
 * process re-encrypts them under the current key when it starts (`reencryptWebhookSecrets`).
 *
 * Earlier forms, read only to be rewritten (each process upgrades them when it starts):
 * - `enc:v1:…`: the same cipher with the environment id alone as AAD (it did not name the
 *   column). Still read with that AAD, with the same 16-byte tag rule;
 * - a value without the `enc:` prefix: a plaintext secret from before encryption. Read only when
 *   the keyring allows it (development); with `NODE_ENV=production` it is refused.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const PREFIX = 'enc:v2:';
const V1_PREFIX = 'enc:v1:';
const TAG_BYTES = 16;
const IV_BYTES = 12;

/** The two columns of `webhook_secrets` that hold a secret. */
export type SecretColumn = 'secret' | 'previous_secret';

/**
 * Where a value is stored: its table (`webhook_secrets` unless named), its row (the environment
 * id there; the endpoint id in `webhook_endpoints`) and its column.
 */
export interface SecretSlot {
  table?: 'webhook_secrets' | 'webhook_endpoints';
  environmentId: string;
  column: SecretColumn;
}

/** The AAD of the current form: table, row and column, NUL-separated (none of them holds a NUL). */
export const secretAad = (slot: SecretSlot): Buffer => Buffer.from(`${slot.table ?? 'webhook_secrets'}\u0000${slot.environmentId}\u0000${slot.column}`, 'utf8');

export interface SecretKeyring {
  /** Id of the key new values are encrypted with. */
  readonly currentId: string;
  readonly keys: ReadonlyMap<string, Buffer>;
  /** Whether a plaintext value (no `enc:` prefix) may be read; false in production. */
  readonly allowPlaintext: boolean;
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
export function createSecretKeyring(current: string, old?: string, options: { allowPlaintext?: boolean } = {}): SecretKeyring {
  const key = parseEncryptionKey(current, 'SECRET_ENCRYPTION_KEY');
  const keys = new Map<string, Buffer>([[encryptionKeyId(key), key]]);
  for (const item of (old ?? '').split(',').filter((part) => part.trim() !== '')) {
    const oldKey = parseEncryptionKey(item, 'SECRET_ENCRYPTION_KEYS_OLD');
    keys.set(encryptionKeyId(oldKey), oldKey);
  }
  return { currentId: encryptionKeyId(key), keys, allowPlaintext: options.allowPlaintext ?? false };
}

export function encryptSecret(keyring: SecretKeyring, plaintext: string, slot: SecretSlot): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyring.keys.get(keyring.currentId)!, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(secretAad(slot));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const parts = [iv, ciphertext, cipher.getAuthTag()].map((part) => part.toString('base64url'));
  return `${PREFIX}${keyring.currentId}:${parts.join(':')}`;
}

/** The form a stored value is in: `v2` (current), `v1` (environment-only AAD) or `plaintext`. */
export function storedFormat(stored: string): 'v2' | 'v1' | 'plaintext' | 'unknown' {
  if (stored.startsWith(PREFIX)) return 'v2';
  if (stored.startsWith(V1_PREFIX)) return 'v1';
  if (stored.startsWith('enc:')) return 'unknown';
  return 'plaintext';
}

/** Whether a stored value is in the current form under the current key (nothing to rewrite). */
export const isCurrentForm = (keyring: SecretKeyring, stored: string): boolean => storedFormat(stored) === 'v2' && storedKeyId(stored) === keyring.currentId;

/** The key id a stored value is encrypted with, or null for a plaintext value. */
export function storedKeyId(stored: string): string | null {
  const format = storedFormat(stored);
  if (format === 'plaintext') return null;
  const prefix = format === 'v1' ? V1_PREFIX : PREFIX;
  return stored.slice(prefix.length).split(':')[0] ?? '';
}

/**
 * Decrypts a stored value. A value that does not decrypt for exactly this slot (another row,
 * the other column, altered, a tag that is not 16 bytes) throws a SecretKeyError, as does a
 * plaintext value when the keyring does not allow plaintext (production).
 */
export function decryptSecret(keyring: SecretKeyring, stored: string, slot: SecretSlot): string {
  const format = storedFormat(stored);
  if (format === 'plaintext') {
    if (keyring.allowPlaintext) return stored;
    throw new SecretKeyError(
      `the webhook ${slot.column} of environment ${slot.environmentId} is stored in plaintext, which NODE_ENV=production refuses ` +
        '(start once in development to encrypt it, or rotate it there)',
    );
  }
  if (format === 'unknown') throw new SecretKeyError(`the webhook ${slot.column} of environment ${slot.environmentId} is in an unknown stored form`);
  const prefix = format === 'v1' ? V1_PREFIX : PREFIX;
  const parts = stored.slice(prefix.length).split(':');
  const [keyId, iv, ciphertext, tag] = parts;
  const key = keyring.keys.get(keyId ?? '');
  if (!key) {
    throw new SecretKeyError(`a webhook secret is encrypted with key ${keyId}, which is neither SECRET_ENCRYPTION_KEY nor in SECRET_ENCRYPTION_KEYS_OLD`);
  }
  const unreadable = () =>
    new SecretKeyError(`the webhook ${slot.column} of environment ${slot.environmentId} does not decrypt (altered, or moved from another row or column)`);
  const ivBytes = Buffer.from(iv ?? '', 'base64url');
  const tagBytes = Buffer.from(tag ?? '', 'base64url');
  // a shorter tag would be checked on its prefix only: refuse anything but the full 16 bytes
  if (parts.length !== 4 || ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) throw unreadable();
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, ivBytes, { authTagLength: TAG_BYTES });
    // v1 bound the environment only; it is read so that it can be rewritten as v2
    decipher.setAAD(format === 'v1' ? Buffer.from(slot.environmentId, 'utf8') : secretAad(slot));
    decipher.setAuthTag(tagBytes);
    return Buffer.concat([decipher.update(Buffer.from(ciphertext ?? '', 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw unreadable();
  }
}
