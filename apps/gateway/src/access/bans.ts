import type { Pool } from '@rtm/db';
import { liveBanSql } from '@rtm/auth';

// the ban condition is written once, in @rtm/auth (channel-sql.ts), beside the rest of the channel rule in SQL
export { liveBanSql, bansBarringSql } from '@rtm/auth';

export interface BanRecord {
  reason: string | null;
  expiresAt: Date | null;
}

/** The user's live environment-wide ban, if any (expired bans do not count). */
export async function environmentBan(pool: Pool, environmentId: string, userId: string): Promise<BanRecord | null> {
  const { rows } = await pool.query<{ reason: string | null; expires_at: Date | null }>(
    `select reason, expires_at from bans
     where environment_id = $1 and channel_id = '' and user_id = $2 and ${liveBanSql()}`,
    [environmentId, userId],
  );
  const row = rows[0];
  return row ? { reason: row.reason, expiresAt: row.expires_at } : null;
}
