/**
 * The `webhook_secrets` table, through the secret box: every read decrypts, every write
 * encrypts under the current key in the current form, bound to its row and column, and records
 * the key's id in `key_id` (null: a plaintext row from before encryption). Nothing here logs or
 * returns a secret except to its caller.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { withTransaction, type Pool, type PoolClient } from '@rtm/db';
import { generateWebhookSecret } from './signature.ts';
import { createSecretKeyring, decryptSecret, encryptSecret, isCurrentForm, SecretKeyError, type SecretColumn, type SecretKeyring } from './secret-box.ts';

/** Where a development process keeps its key when none is configured (git-ignored). */
export const DEV_KEY_FILE = '.data/secret-encryption-key';

export interface SecretKeySettings {
  NODE_ENV: string;
  SECRET_ENCRYPTION_KEY?: string | undefined;
  SECRET_ENCRYPTION_KEYS_OLD?: string | undefined;
}

/**
 * The keyring of a process. `SECRET_ENCRYPTION_KEY` when set; otherwise, in production, a
 * `SecretKeyError` naming the variable (the process exits 78); otherwise (development) the key
 * in `devKeyFile`, made on first use, which `npm start` shares with its children. Plaintext
 * values from before encryption are readable (to be encrypted) outside production only.
 */
export async function loadSecretKeyring(settings: SecretKeySettings, devKeyFile = DEV_KEY_FILE): Promise<SecretKeyring> {
  const options = { allowPlaintext: settings.NODE_ENV !== 'production' };
  if (settings.SECRET_ENCRYPTION_KEY !== undefined) {
    return createSecretKeyring(settings.SECRET_ENCRYPTION_KEY, settings.SECRET_ENCRYPTION_KEYS_OLD, options);
  }
  if (settings.NODE_ENV === 'production') {
    throw new SecretKeyError('SECRET_ENCRYPTION_KEY: required when NODE_ENV=production (32 bytes, base64 or hex; e.g. openssl rand -base64 32)');
  }
  return createSecretKeyring(await ensureDevEncryptionKey(devKeyFile), settings.SECRET_ENCRYPTION_KEYS_OLD, options);
}

/** The development key in `file`, created (mode 0600) if missing; two processes racing agree on one. */
export async function ensureDevEncryptionKey(file: string): Promise<string> {
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(dirname(file), { recursive: true });
  try {
    await writeFile(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return (await readFile(file, 'utf8')).trim();
}

/** Creates the environment's signing secret unless it has one (the first deploy with a webhook). */
export async function createWebhookSecret(client: PoolClient | Pool, keyring: SecretKeyring, environmentId: string): Promise<void> {
  await client.query(`insert into webhook_secrets (environment_id, secret, key_id) values ($1, $2, $3) on conflict (environment_id) do nothing`, [
    environmentId,
    encryptSecret(keyring, generateWebhookSecret(), { environmentId, column: 'secret' }),
    keyring.currentId,
  ]);
}

/** Whether the environment has a signing secret (without decrypting it). */
export async function hasWebhookSecret(pool: Pool, environmentId: string): Promise<boolean> {
  const { rows } = await pool.query('select 1 from webhook_secrets where environment_id = $1', [environmentId]);
  return rows.length > 0;
}

/** The current signing secret, or null when the environment has none. */
export async function readWebhookSecret(pool: Pool, keyring: SecretKeyring, environmentId: string): Promise<string | null> {
  const { rows } = await pool.query<{ secret: string }>('select secret from webhook_secrets where environment_id = $1', [environmentId]);
  return rows[0] ? decryptSecret(keyring, rows[0].secret, { environmentId, column: 'secret' }) : null;
}

/** Replaces the secret, keeping the old one as `previous_secret`; null when there is none. */
export async function rotateWebhookSecret(pool: Pool, keyring: SecretKeyring, environmentId: string): Promise<string | null> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<{ secret: string }>('select secret from webhook_secrets where environment_id = $1 for update', [environmentId]);
    if (!rows[0]) return null;
    const previous = decryptSecret(keyring, rows[0].secret, { environmentId, column: 'secret' });
    const secret = generateWebhookSecret();
    await client.query(`update webhook_secrets set secret = $2, previous_secret = $3, rotated_at = now(), key_id = $4 where environment_id = $1`, [
      environmentId,
      encryptSecret(keyring, secret, { environmentId, column: 'secret' }),
      // the old secret moves column: encrypted again for `previous_secret`
      encryptSecret(keyring, previous, { environmentId, column: 'previous_secret' }),
      keyring.currentId,
    ]);
    return secret;
  });
}

/**
 * Re-encrypts every row not in the current form under the current key (plaintext rows from
 * before encryption, `enc:v1` rows bound to their environment only, rows under an old key), at
 * start. Each row is rewritten only if it is still what was read, so processes starting
 * together, or a rotation meanwhile, lose nothing. Returns how many changed. A row whose key is
 * unknown here makes this throw: the operator must add that key to `SECRET_ENCRYPTION_KEYS_OLD`;
 * so does a plaintext row in production (the keyring refuses plaintext there).
 */
export async function reencryptWebhookSecrets(pool: Pool, keyring: SecretKeyring): Promise<number> {
  // the environments' secrets, then the endpoints', by the same rules
  return (await reencryptTable(pool, keyring, 'webhook_secrets')) + (await reencryptTable(pool, keyring, 'webhook_endpoints'));
}

/** The rows of one secret table not in the current form, re-encrypted (reencryptWebhookSecrets). */
async function reencryptTable(pool: Pool, keyring: SecretKeyring, table: 'webhook_secrets' | 'webhook_endpoints'): Promise<number> {
  // each table's primary key is the row a secret is bound to (secret-box.ts)
  const key = table === 'webhook_secrets' ? 'environment_id' : 'id';
  const { rows } = await pool.query<{ row: string; secret: string; previous_secret: string | null }>(
    `select ${key} as row, secret, previous_secret from ${table}
     where key_id is distinct from $1 or secret not like 'enc:v2:%' or previous_secret not like 'enc:v2:%'`,
    [keyring.currentId],
  );
  let changed = 0;
  for (const row of rows) {
    if (isCurrentForm(keyring, row.secret) && (row.previous_secret === null || isCurrentForm(keyring, row.previous_secret))) continue;
    const again = (column: SecretColumn, stored: string) => {
      const slot = { table, environmentId: row.row, column };
      return encryptSecret(keyring, decryptSecret(keyring, stored, slot), slot);
    };
    const result = await pool.query(
      `update ${table} set secret = $2, previous_secret = $3, key_id = $4
       where ${key} = $1 and secret = $5 and previous_secret is not distinct from $6`,
      [
        row.row,
        again('secret', row.secret),
        row.previous_secret === null ? null : again('previous_secret', row.previous_secret),
        keyring.currentId,
        row.secret,
        row.previous_secret,
      ],
    );
    changed += result.rowCount ?? 0;
  }
  return changed;
}
