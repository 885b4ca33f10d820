/**
 * The notifications table: storing a notification for each of a list of users under their
 * per-minute cap, and reading a user's inbox a page at a time.
 */
import type { Pool } from 'pg';
import { admitNotificationsSql, notificationCapSql, WINDOW_SECONDS_LEFT_SQL } from './notification-windows.ts';

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

/**
 * Stores one notification per user id, each counted against the user's cap
 * (notificationsPerUserPerMinute, read from the active deployment in the same statement, as the
 * channel-node's mentions): the users whose window is full get nothing. Answers who got one, and
 * the seconds until the current window ends.
 */
const STORE_SQL = `with wanted as (select $1::text as environment_id, u as user_id, 1 as n from unnest($2::text[]) as u),
     caps as (
       select ${notificationCapSql('d.config', '$7::int')} as cap
       from environments e left join config_deployments d on d.id = e.active_deployment_id where e.id = $1),
     counted as (${admitNotificationsSql('wanted', () => 'coalesce((select cap from caps), $7::int)')}),
     stored as (
       insert into notifications (id, environment_id, user_id, type, payload, ts)
       select v.id, $1, v.user_id, $3, $4::json, $5
       from unnest($2::text[], $6::text[]) as v(user_id, id)
       join counted k on k.user_id = v.user_id
       where k.admitted > 0
       returning user_id)
     select array(select user_id from stored) as stored, ${WINDOW_SECONDS_LEFT_SQL} as retry_after`;

/** `ids[i]` is the id of `userIds[i]`'s notification; `defaultCap` applies where the deployment sets none. */
export async function storeNotifications(
  pool: Pool,
  notification: { environmentId: string; userIds: string[]; ids: string[]; type: string; payloadText: string; timestamp: number; defaultCap: number },
): Promise<{ stored: Set<string>; retryAfter: number }> {
  const { environmentId, userIds, ids, type, payloadText, timestamp, defaultCap } = notification;
  const { rows } = await pool.query<{ stored: string[]; retry_after: number }>(STORE_SQL, [
    environmentId,
    userIds,
    type,
    payloadText,
    timestamp,
    ids,
    defaultCap,
  ]);
  return { stored: new Set(rows[0]!.stored), retryAfter: rows[0]!.retry_after };
}
