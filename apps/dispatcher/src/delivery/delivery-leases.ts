/**
 * The delivery ledger as the dispatcher works it (webhook_deliveries, webhook_attempts and the
 * retry jobs): the claim that leases deliveries for a send, and the record, deferral and release
 * that end a claim, each fenced by the lease the claim set; the reschedule of deliveries a caller
 * could not claim; and the hand-back of ids as a `deliver_webhooks` job. The dispatcher decides
 * when each runs (deliverer.ts, push-intake.ts); the SQL is here. The table's other statements
 * are libs/webhooks' (delivery-ledger.ts, enqueue.ts); the owner's reads of pending rows are
 * intake/pending-reads.ts; an endpoint's settings as a send reads them, endpoint-settings.ts.
 */
import { newId, type Pool } from '@rtm/db';
import { OPERATIONAL_EVENT_TYPES } from '@rtm/schemas';
import { deliverBatchJobSql, deliverOneJobSql, recordWebhookEvents, SETTINGS_COLUMNS, type LoggedPosition, type StoredSecrets } from '@rtm/webhooks';
import { TARGET_COLUMN } from './endpoint-settings.ts';

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

/**
 * The claim: leases the due, unleased ones among $1 (ids) for $2 ms; returns what a send needs,
 * with the endpoint's own rate limit, so the owner's guard holds the rate as it is now, a change
 * by PATCH included. $3 (per id, or null): the push lease the caller holds on it (its commit's,
 * push-notice.ts), which the claim renews as if it were unleased.
 */
export const CLAIM_SQL = `with due as (
         select d.id from webhook_deliveries d
         join unnest($1::text[], $3::timestamptz[]) as r(id, lease) on d.id = r.id
         where ${stillPending('d')} and d.next_attempt_at <= now()
           and (d.locked_until is null or d.locked_until < now() or d.locked_until = r.lease)
         for update of d skip locked
       )
       update webhook_deliveries d set locked_until = now() + $2 * interval '1 millisecond'
       from due where d.id = due.id
       returning d.id, d.environment_id, d.endpoint_id, d.event_id, d.event_type, d.url, d.body, d.attempts,
         d.locked_until::text as lease,
         ${SETTINGS_COLUMNS('d')},
         ${TARGET_COLUMN('d')}`;

/**
 * The record of attempts ($1..$9: id, n, at, status code, error, duration, new status, delay
 * before the next attempt, the lease it was claimed with), fenced by the lease.
 *
 * It also keeps each endpoint's failing streak (`webhook_endpoints.failing_since`: the first
 * failed attempt since its last success), in the same statement so the hot path stays one
 * statement: per endpoint among the recorded attempts, a success clears it (or sets it to a
 * failure that came after the success), a failure sets it when it is null. Only rows whose value
 * changes are written, locked in id order (two record statements running at once never wait on
 * each other in opposite orders); a healthy endpoint, or one already failing, costs no write.
 *
 * One row: `jobs` (the retry jobs added) and `dropped`, the deliveries this record dropped (JSON,
 * for their `delivery.dropped` events).
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
         returning d.id, d.status, d.next_attempt_at, d.environment_id, d.endpoint_id, d.event_id, d.event_type, d.attempts, d.last_error
       ),
       attempt as (
         insert into webhook_attempts (delivery_id, n, at, status_code, error, duration_ms)
         select r.id, r.n, r.at, r.status_code, r.error, r.duration_ms from r join updated u on u.id = r.id
         on conflict do nothing
       ),
       tried as (
         select u.endpoint_id as id, r.at, r.status = 'delivered' as ok
         from updated u join r on r.id = u.id where u.endpoint_id is not null
       ),
       streak as (
         select t.id, bool_or(t.ok) as cleared,
                min(t.at) filter (where not t.ok and t.at > coalesce(l.last_ok, '-infinity')) as first_failure
         from tried t join (select id, max(at) filter (where ok) as last_ok from tried group by id) l on l.id = t.id
         group by t.id
       ),
       changing as (
         select w.id from webhook_endpoints w join streak s on s.id = w.id
         where w.failing_since is distinct from (case when s.cleared then s.first_failure else coalesce(w.failing_since, s.first_failure) end)
         order by w.id
         for update of w
       ),
       streak_kept as (
         update webhook_endpoints w
         set failing_since = case when s.cleared then s.first_failure else coalesce(w.failing_since, s.first_failure) end
         from changing c join streak s on s.id = c.id
         where w.id = c.id
       ),
       jobs as (
         select ${deliverOneJobSql('id', 'next_attempt_at')} from updated where status = 'pending'
       )
       select (select count(*) from jobs)::int as jobs,
              coalesce((select json_agg(json_build_object('id', id, 'environmentId', environment_id, 'endpointId', endpoint_id,
                          'eventId', event_id, 'eventType', event_type, 'attempts', attempts, 'lastError', last_error))
                        from updated where status = 'dropped'), '[]') as dropped`;

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

/** A claimed delivery: what a send needs, and the lease that fences what is written after it. */
export interface ClaimedDelivery {
  id: string;
  environment_id: string;
  /** The endpoint it goes to; null: the default one (the configuration's URL). */
  endpoint_id: string | null;
  event_id: string;
  event_type: string;
  url: string;
  body: string;
  attempts: number;
  /** This claim's lease (locked_until, as Postgres prints it: exact to the microsecond). */
  lease: string;
  /** The endpoint's signing secrets as stored (encrypted), null when it has none. */
  secrets: StoredSecrets | null;
  /** The endpoint's own rate limit (sends per second); null: none, or the default endpoint. */
  rate_limit: number | null;
  /** Where it goes now (TARGET_COLUMN): the endpoint's current URL; null: disabled, send nothing. */
  target_url: string | null;
  /** A delivery of the log (intake/delivery-log.ts), held from its notice or the owner's read: no lease. */
  logged?: LoggedPosition;
}

/** One attempt that ended, to record (RECORD_SQL). */
export interface AttemptRecord {
  id: string;
  /** The attempt's number (1-based). */
  n: number;
  at: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  status: 'delivered' | 'dropped' | 'pending';
  /** Milliseconds until the next attempt, for a delivery that stays pending. */
  delay: number | null;
  lease: string;
  /** The delivery's event type: a drop of an operational event reports nothing further. */
  eventType: string;
}

/**
 * The due, unleased deliveries among `ids`, leased for `leaseMs`, by id (`url`: where each goes
 * now, its endpoint's current URL; `target_url` null: its endpoint is disabled). `leases` (per id, or
 * null): a push lease the caller holds on it, claimed as if unleased.
 */
export async function claimDeliveries(
  pool: Pool,
  ids: readonly string[],
  leaseMs: number,
  leases: readonly (string | null)[] = ids.map(() => null),
): Promise<Map<string, ClaimedDelivery>> {
  const { rows } = await pool.query<ClaimedDelivery>({ name: 'rtm_webhook_claim', text: CLAIM_SQL, values: [ids, leaseMs, leases] });
  return new Map(rows.map((row) => [row.id, { ...row, url: row.target_url ?? row.url }]));
}

/** Deliveries a caller could not claim: their job at the time the row says (RESCHEDULE_SQL). */
export async function rescheduleUnclaimed(pool: Pool, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await pool.query(RESCHEDULE_SQL, [ids]);
}

/** Claims let go unused, fenced by their leases: the deliveries wait in their owner's memory again. */
export async function releaseClaims(pool: Pool, claims: readonly { id: string; lease: string }[]): Promise<void> {
  await pool.query({
    name: 'rtm_webhook_release',
    text: RELEASE_SQL,
    values: [claims.map((c) => c.id), claims.map((c) => c.lease)],
  });
}

/** Deferred deliveries (`until`: epoch ms), fenced by their leases (DEFER_SQL). */
export async function deferDeliveries(pool: Pool, deferrals: readonly { id: string; until: number; lease: string }[]): Promise<void> {
  if (deferrals.length === 0) return;
  await pool.query({
    name: 'rtm_webhook_defer',
    text: DEFER_SQL,
    values: [deferrals.map((d) => d.id), deferrals.map((d) => d.until), deferrals.map((d) => d.lease)],
  });
}

/** A delivery a record dropped, as RECORD_SQL returns it. */
interface DroppedDelivery {
  id: string;
  environmentId: string;
  endpointId: string | null;
  eventId: string;
  eventType: string;
  attempts: number;
  lastError: string | null;
}

/**
 * Attempts that ended and the new states, in one statement, fenced by their leases (RECORD_SQL).
 * When one of them may drop a delivery that is not itself an operational event, the statement
 * runs in a transaction that also records a `delivery.dropped` event for each delivery it did
 * drop (for the environment's other endpoints that take it: never the dropped delivery's own),
 * so the event exists exactly when the drop does. A dropped `endpoint.disabled` or
 * `delivery.dropped` reports nothing (no chains). Drops are rare: the usual record stays one
 * statement outside any transaction.
 */
export async function recordAttempts(pool: Pool, attempts: readonly AttemptRecord[]): Promise<void> {
  const statement = {
    name: 'rtm_webhook_record',
    text: RECORD_SQL,
    values: [
      attempts.map((a) => a.id),
      attempts.map((a) => a.n),
      attempts.map((a) => a.at.toISOString()),
      attempts.map((a) => a.statusCode),
      attempts.map((a) => a.error),
      attempts.map((a) => a.durationMs),
      attempts.map((a) => a.status),
      attempts.map((a) => a.delay),
      attempts.map((a) => a.lease),
    ],
  };
  if (!attempts.some((a) => a.status === 'dropped' && !OPERATIONAL_EVENT_TYPES.includes(a.eventType as never))) {
    await pool.query(statement);
    return;
  }
  const client = await pool.connect();
  try {
    await client.query('begin');
    const { rows } = await client.query<{ dropped: DroppedDelivery[] }>(statement);
    const reported = rows[0]!.dropped.filter((d) => !OPERATIONAL_EVENT_TYPES.includes(d.eventType as never));
    await recordWebhookEvents(
      client,
      reported.map((d) => ({
        environmentId: d.environmentId,
        channelId: null,
        eventId: newId('evt'),
        type: 'delivery.dropped' as const,
        timestamp: Date.now(),
        data: JSON.stringify({
          deliveryId: d.id,
          endpointId: d.endpointId,
          eventId: d.eventId,
          eventType: d.eventType,
          attempts: d.attempts,
          lastError: d.lastError,
        }),
        ...(d.endpointId !== null && { except: d.endpointId }),
      })),
    );
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** Ids handed back as one `deliver_webhooks` job (for another dispatcher, or this one restarted), run `afterMs` from now. */
export async function handBackDeliveries(pool: Pool, ids: readonly string[], afterMs = 0): Promise<void> {
  await pool.query(
    `select ${deliverBatchJobSql('$1::text[]', afterMs > 0 ? "now() + $2::int * interval '1 millisecond'" : undefined)}`,
    afterMs > 0 ? [ids, afterMs] : [ids],
  );
}
