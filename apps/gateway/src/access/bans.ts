import type { Pool } from '@rtm/db';

/**
 * The ban condition, written once. A ban is live until its `expires_at` (none: for ever); it
 * keeps a user out of a channel when it names that channel or is environment-wide (`channel_id`
 * '', ENVIRONMENT_WIDE in moderation.ts).
 */
export function liveBanSql(alias = ''): string {
  const column = alias ? `${alias}.expires_at` : 'expires_at';
  return `(${column} is null or ${column} > now())`;
}

/** `bans b where …`: the live bans (aliased `b`) that keep the SQL expression `user` out of `channel`. */
export function bansBarringSql(environment: string, user: string, channel: string): string {
  return `bans b where b.environment_id = ${environment} and b.user_id = ${user} and b.channel_id in ('', ${channel}) and ${liveBanSql('b')}`;
}

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
