import { randomBytes } from 'node:crypto';
import { newId, type Pool } from '@rtm/db';

/** How long a rotated-out signing key still verifies when the rotation names no grace period. */
export const DEFAULT_SIGNING_KEY_GRACE_SECONDS = 86_400;
/** The longest grace period: a week. */
export const MAX_SIGNING_KEY_GRACE_SECONDS = 7 * 86_400;

export interface SigningKeyInfo {
  id: string;
  createdAt: Date;
  /** null: the key signs new tokens (the newest such key) or could; a time: it stops verifying then. */
  retiresAt: Date | null;
  state: 'active' | 'grace' | 'retired';
}

/**
 * Rotation: a new signing key signs every token from now on; the keys that were active keep
 * verifying the tokens they signed for `graceSeconds` (0: refused at once), then those tokens
 * are refused. A key already in its grace period keeps its own end. One transaction, serialised
 * per environment, so two concurrent rotations leave one active key.
 */
export async function rotateSigningKey(pool: Pool, environmentId: string, graceSeconds: number): Promise<{ id: string; retired: string[] }> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const locked = await client.query('select 1 from environments where id = $1 for update', [environmentId]);
    if (locked.rowCount === 0) throw new Error(`environment ${environmentId} does not exist`);
    const retired = await client.query<{ id: string }>(
      `update signing_keys set retired_at = now() + make_interval(secs => $2)
       where environment_id = $1 and retired_at is null returning id`,
      [environmentId, graceSeconds],
    );
    const id = newId('kid');
    // created_at: after now() of this transaction's retirements, so it orders as the newest
    await client.query('insert into signing_keys (id, environment_id, secret, created_at) values ($1, $2, $3, clock_timestamp())', [
      id,
      environmentId,
      randomBytes(32),
    ]);
    await client.query('commit');
    return { id, retired: retired.rows.map((row) => row.id) };
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** An environment's signing keys, newest first, with retired ones of the last week. */
export async function listSigningKeys(pool: Pool, environmentId: string): Promise<SigningKeyInfo[]> {
  const { rows } = await pool.query<{ id: string; created_at: Date; retired_at: Date | null; retired: boolean }>(
    `select id, created_at, retired_at, retired_at is not null and retired_at <= now() as retired
     from signing_keys where environment_id = $1 and (retired_at is null or retired_at > now() - interval '7 days')
     order by created_at desc`,
    [environmentId],
  );
  return rows.map((row) => ({
    id: row.id,
    createdAt: row.created_at,
    retiresAt: row.retired_at,
    state: row.retired ? 'retired' : row.retired_at ? 'grace' : 'active',
  }));
}
