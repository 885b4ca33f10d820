import type { Pool } from '@rtm/db';
import { environmentBansOf } from '@rtm/channels';
import { BatchedReads } from './batched-reads.ts';

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
      const bans = await environmentBansOf(pool, environmentId, userIds);
      return userIds.map((userId) => bans.get(userId) ?? null);
    },
    { maxBatch: MAX_USERS },
  );
}
