import type { Pool } from '@rtm/db';
import { liveBanSql } from '@rtm/auth';
import { BatchedReads } from './batched-reads.ts';

// the ban condition is written once, in @rtm/auth (channel-sql.ts), beside the rest of the channel rule in SQL
export { liveBanSql, bansBarringSql } from '@rtm/auth';

export interface BanRecord {
  reason: string | null;
  expiresAt: Date | null;
}

/**
 * The user's live environment-wide ban, if any (expired bans do not count). Read in batches
 * (batched-reads.ts): one query per environment for the look-ups of a turn, or asked while earlier
 * reads were running, up to 1,000 users each (a storm of sockets opening, each checked once,
 * otherwise costs a query each). Each is read after it was asked, which the connect socket's
 * ban-after-kicks ordering relies on.
 */
export function environmentBan(pool: Pool, environmentId: string, userId: string): Promise<BanRecord | null> {
  let reads = banReads.get(pool);
  if (!reads) banReads.set(pool, (reads = banReader(pool)));
  return reads.load(environmentId, userId);
}

const MAX_USERS = 1_000;
const banReads = new WeakMap<Pool, BatchedReads<string, BanRecord | null>>();

function banReader(pool: Pool): BatchedReads<string, BanRecord | null> {
  return new BatchedReads(
    async (environmentId, userIds) => {
      const { rows } = await pool.query<{ user_id: string; reason: string | null; expires_at: Date | null }>(
        `select user_id, reason, expires_at from bans
         where environment_id = $1 and channel_id = '' and user_id = any($2::text[]) and ${liveBanSql()}`,
        [environmentId, [...new Set(userIds)]],
      );
      const bans = new Map(rows.map((row) => [row.user_id, { reason: row.reason, expiresAt: row.expires_at }]));
      return userIds.map((userId) => bans.get(userId) ?? null);
    },
    { maxBatch: MAX_USERS },
  );
}
