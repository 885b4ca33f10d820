/**
 * The dispatcher's statements on the delivery ledger (webhook_deliveries, webhook_attempts and the
 * retry jobs), each fenced by the lease a claim set. deliverer.ts runs them.
 */
import { deliverOneJobSql } from '@rtm/webhooks';

/**
 * "Still pending", for statements that find their rows by id. Written as `coalesce(status, '')`
 * so that no plan can serve such a statement from the partial index of pending rows
 * (`webhook_deliveries_pending_idx`, for the scans by due time) instead of the primary key: a
 * plain `status = 'pending'` lets the planner, whose statistics still count few pending rows
 * after a burst (autovacuum has not analysed the table yet), walk every pending row for each
 * claim or record -- 2 to 25 ms a statement behind a backlog of 16,000, measured with
 * auto_explain, against 0.1 ms by the key. A backlog held back by one endpoint made every other
 * endpoint's claims that slow.
 */
export const stillPending = (alias?: string): string => `coalesce(${alias ? `${alias}.` : ''}status, '') = 'pending'`;

/** The claim: leases the due, unleased ones among $1 (ids) for $2 ms; returns what a send needs. */
export const CLAIM_SQL = `with due as (
         select id from webhook_deliveries
         where id = any($1::text[]) and ${stillPending()} and next_attempt_at <= now()
           and (locked_until is null or locked_until < now())
         for update skip locked
       )
       update webhook_deliveries d set locked_until = now() + $2 * interval '1 millisecond'
       from due where d.id = due.id
       returning d.id, d.environment_id, d.event_id, d.event_type, d.url, d.body, d.attempts,
         d.locked_until::text as lease,
         (select row_to_json(s) from (select secret, previous_secret, rotated_at from webhook_secrets
                                      where environment_id = d.environment_id) s) as secrets`;

/**
 * The record of attempts ($1..$9: id, n, at, status code, error, duration, new status, delay
 * before the next attempt, the lease it was claimed with), fenced by the lease.
 */
export const RECORD_SQL = `with r as (
         select * from unnest($1::text[], $2::int[], $3::timestamptz[], $4::int[], $5::text[], $6::int[], $7::text[], $8::float8[], $9::timestamptz[])
           as r(id, n, at, status_code, error, duration_ms, status, delay, lease)
       ),
       updated as (
         update webhook_deliveries d set
           status = r.status,
           attempts = greatest(d.attempts, r.n),
           last_status_code = r.status_code,
           last_error = coalesce(r.error, d.last_error),
           delivered_at = case when r.status = 'delivered' then now() end,
           next_attempt_at = case when r.status = 'pending' then now() + r.delay * interval '1 millisecond' end,
           locked_until = null,
           updated_at = now()
         from r
         where d.id = r.id and ${stillPending('d')} and d.locked_until = r.lease
         returning d.id, d.status, d.next_attempt_at
       ),
       attempt as (
         insert into webhook_attempts (delivery_id, n, at, status_code, error, duration_ms)
         select r.id, r.n, r.at, r.status_code, r.error, r.duration_ms from r join updated u on u.id = r.id
         on conflict do nothing
       )
       select ${deliverOneJobSql('id', 'next_attempt_at')}
       from updated where status = 'pending'`;

/**
 * Deferred deliveries ($1 ids, $2 until as epoch ms, $3 leases): lease released, next_attempt_at
 * and the keyed job at the deferral's time, attempts unchanged.
 */
export const DEFER_SQL = `with r as (
         select * from unnest($1::text[], $2::float8[], $3::timestamptz[]) as r(id, until_ms, lease)
       ),
       updated as (
         update webhook_deliveries d set
           locked_until = null,
           next_attempt_at = greatest(d.next_attempt_at, to_timestamp(r.until_ms / 1000.0)),
           updated_at = now()
         from r
         where d.id = r.id and ${stillPending('d')} and d.locked_until = r.lease
         returning d.id, d.next_attempt_at
       )
       select ${deliverOneJobSql('id', 'next_attempt_at')}
       from updated`;

/** Claims let go unused ($1 ids, $2 leases): the deliveries wait in the owner's memory again. */
export const RELEASE_SQL = `update webhook_deliveries d set locked_until = null
             from unnest($1::text[], $2::timestamptz[]) as r(id, lease)
             where d.id = r.id and ${stillPending('d')} and d.locked_until = r.lease`;

/**
 * Deliveries a caller could not claim ($1 ids): their job at the time the row says, at least a
 * second from now.
 */
export const RESCHEDULE_SQL = `select ${deliverOneJobSql('id', "greatest(next_attempt_at, locked_until, now() + interval '1 second')")}
       from webhook_deliveries
       where id = any($1::text[]) and ${stillPending()}`;
