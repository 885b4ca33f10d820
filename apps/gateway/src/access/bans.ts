import type { Pool } from '@rtm/db';

export interface BanRecord {
  reason: string | null;
  expiresAt: Date | null;
}

/** The user's live environment-wide ban, if any (expired bans do not count). */
export async function environmentBan(pool: Pool, environmentId: string, userId: string): Promise<BanRecord | null> {
  const { rows } = await pool.query<{ reason: string | null; expires_at: Date | null }>(
    `select reason, expires_at from bans
     where environment_id = $1 and channel_id = '' and user_id = $2 and (expires_at is null or expires_at > now())`,
    [environmentId, userId],
  );
  const row = rows[0];
  return row ? { reason: row.reason, expiresAt: row.expires_at } : null;
}
