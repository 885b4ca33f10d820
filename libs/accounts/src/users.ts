import { newId, type Pool, type PoolClient } from '@rtm/db';

/** Deliberately loose: one `@`, something on each side, no spaces or control characters (NUL included); at most 254 characters. */
export const EMAIL_PATTERN = /^[^\s@\u0000-\u001f\u007f]+@[^\s@\u0000-\u001f\u007f]+$/;
export const EMAIL_MAX_LENGTH = 254;

/** E-mail addresses are stored and compared trimmed and lowercase. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function isEmail(email: string): boolean {
  return email.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(email);
}

export interface UserRecord {
  id: string;
  email: string;
  passwordHash: string;
  createdAt: Date;
}

type Queryable = Pool | PoolClient;

export async function findUserByEmail(client: Queryable, email: string): Promise<UserRecord | null> {
  const { rows } = await client.query<{ id: string; email: string; password_hash: string; created_at: Date }>(
    'select id, email, password_hash, created_at from users where email = $1',
    [normaliseEmail(email)],
  );
  const row = rows[0];
  return row ? { id: row.id, email: row.email, passwordHash: row.password_hash, createdAt: row.created_at } : null;
}

export async function findUserById(client: Queryable, userId: string): Promise<UserRecord | null> {
  const { rows } = await client.query<{ id: string; email: string; password_hash: string; created_at: Date }>(
    'select id, email, password_hash, created_at from users where id = $1',
    [userId],
  );
  const row = rows[0];
  return row ? { id: row.id, email: row.email, passwordHash: row.password_hash, createdAt: row.created_at } : null;
}

/** A new user; an e-mail already taken fails with Postgres' unique violation (23505). */
export async function insertUser(client: Queryable, email: string, passwordHash: string): Promise<UserRecord> {
  const id = newId('usr');
  const { rows } = await client.query<{ email: string; created_at: Date }>(
    'insert into users (id, email, password_hash) values ($1, $2, $3) returning email, created_at',
    [id, normaliseEmail(email), passwordHash],
  );
  return { id, email: rows[0]!.email, passwordHash, createdAt: rows[0]!.created_at };
}

export async function setPasswordHash(client: Queryable, userId: string, passwordHash: string): Promise<void> {
  await client.query('update users set password_hash = $2, updated_at = now() where id = $1', [userId, passwordHash]);
}
