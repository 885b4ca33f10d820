/**
 * The per-recipient cap on stored notifications (notificationsPerUserPerMinute), counted in
 * `notification_windows` (migration 000008) by every writer of notifications in the statement
 * that stores them: one fixed window per minute of the database's clock, so every process counts
 * the same windows.
 */

/** The name of the limit in an environment's deployed `limits` (@rtm/limits' limit table). */
export const NOTIFICATION_CAP_LIMIT = 'notificationsPerUserPerMinute';

/**
 * The cap in force for an environment whose active deployment's configuration (jsonb) is
 * `config`: its `limits.notificationsPerUserPerMinute`, else `fallback` (the default, passed by
 * the caller from the limit table).
 */
export function notificationCapSql(config: string, fallback: string): string {
  const value = `${config} -> 'limits' -> '${NOTIFICATION_CAP_LIMIT}'`;
  return `coalesce(case when jsonb_typeof(${value}) = 'number' then (${value})::text::numeric::int end, ${fallback})`;
}

/** The current window: the minute of the database's clock. */
export const CURRENT_MINUTE_SQL = `floor(extract(epoch from now()) / 60)::bigint`;

/** Seconds until the current window ends (1-60): a refusal's `retryAfter`. */
export const WINDOW_SECONDS_LEFT_SQL = `(60 - floor(extract(epoch from now()))::bigint % 60)::int`;

/**
 * An `insert … on conflict do update` (for a data-modifying CTE) that counts `wanted` against the
 * cap and answers, per (environment_id, user_id), how many of them may be stored now: `admitted`.
 * `wanted` is a relation with columns environment_id, user_id, n (how many this statement would
 * store for the user, at least 1); `cap(environmentColumn)` is an SQL expression of the cap for
 * that environment. Rows are taken in key order, so two writers lock shared rows in the same order;
 * a writer waits for another's row and then counts on top of what that one stored, so the cap is
 * never overshot. A cap lowered within a window admits nothing more until the window ends.
 */
export function admitNotificationsSql(wanted: string, cap: (environmentColumn: string) => string): string {
  const share = `greatest(0, least(excluded.stored, ${cap('w.environment_id')} - w.stored))`;
  return `insert into notification_windows as w (environment_id, user_id, minute, stored, admitted)
       select q.environment_id, q.user_id, ${CURRENT_MINUTE_SQL}, least(q.n, ${cap('q.environment_id')}), least(q.n, ${cap('q.environment_id')})
       from ${wanted} q
       order by q.environment_id, q.user_id
       on conflict (environment_id, user_id) do update
         set admitted = case when w.minute >= excluded.minute then ${share} else excluded.stored end,
             stored = case when w.minute >= excluded.minute then w.stored + ${share} else excluded.stored end,
             minute = greatest(w.minute, excluded.minute)
       returning w.environment_id, w.user_id, w.admitted`;
}

/** Deletes the windows that ended before the current one (the gateways' notification sweep). */
export const SWEEP_NOTIFICATION_WINDOWS_SQL = `delete from notification_windows where minute < ${CURRENT_MINUTE_SQL}`;
