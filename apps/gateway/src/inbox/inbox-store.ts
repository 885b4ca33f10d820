import type { Pool } from '@rtm/db';

export interface NotificationFrame {
  op: 'notification';
  id: string;
  type: string;
  payload: unknown;
  timestamp: number;
}

interface Row {
  id: string;
  type: string;
  payload: unknown;
  ts: number;
}

const frameOf = (row: Row): NotificationFrame => ({
  op: 'notification',
  id: row.id,
  type: row.type,
  payload: row.payload,
  timestamp: row.ts,
});

/**
 * One page of a user's retained notifications, ascending by id (ids are time-ordered).
 * `after`/`before` are exclusive id bounds; with only `after` the page starts right after it
 * (replay, forward paging), otherwise it is the newest page below `before`. Notifications older
 * than `retentionMs` are never returned, swept or not.
 */
export async function readInbox(
  pool: Pool,
  query: { environmentId: string; userId: string; retentionMs: number; limit: number; after?: string; before?: string },
): Promise<{ notifications: NotificationFrame[]; hasMore: boolean }> {
  const forward = query.after !== undefined && query.before === undefined;
  const { rows } = await pool.query<Row>(
    `select id, type, payload, ts from notifications
     where environment_id = $1 and user_id = $2
       and created_at > now() - $3::bigint * interval '1 millisecond'
       and ($4::text is null or id > $4) and ($5::text is null or id < $5)
     order by id ${forward ? 'asc' : 'desc'}
     limit $6`,
    [query.environmentId, query.userId, query.retentionMs, query.after ?? null, query.before ?? null, query.limit + 1],
  );
  const hasMore = rows.length > query.limit;
  const page = rows.slice(0, query.limit);
  if (!forward) page.reverse();
  return { notifications: page.map(frameOf), hasMore };
}
