/**
 * The delivery ledger as the dispatcher works it (webhook_deliveries, webhook_attempts and the
 * retry jobs): the claim that leases deliveries for a send, and the record, deferral and release
 * that end a claim, each fenced by the lease the claim set; the reschedule of deliveries a caller
 * could not claim; the reads by which an owner routes a job's deliveries and finds those whose
 * notice was lost; and the hand-back of ids as a `deliver_webhooks` job. The dispatcher decides
 * when each runs (apps/dispatcher/src/deliverer.ts, push-intake.ts); the SQL is here, with the
 * table's other statements (delivery-ledger.ts, enqueue.ts).
 */
import { newId, type Pool } from '@rtm/db';
import { OPERATIONAL_EVENT_TYPES } from '@rtm/schemas';
import { deliverBatchJobSql, deliverOneJobSql } from './jobs.ts';
import { recordWebhookEvents } from './enqueue.ts';
import type { LoggedPosition } from './push-notice.ts';

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
const stillPending = (alias?: string): string => `coalesce(${alias ? `${alias}.` : ''}status, '') = 'pending'`;

/**
 * The endpoint's signing secrets (as stored) and own rate limit for a row of `webhook_deliveries`
 * (alias `d`): what a send needs besides the row. `secrets` is null when the endpoint has none;
 * `rate_limit` null for none and for the default endpoint.
 */
export const SETTINGS_COLUMNS = (d: string): string => `case when ${d}.endpoint_id is null
           then (select row_to_json(s) from (select secret, previous_secret, rotated_at from webhook_secrets
                                             where environment_id = ${d}.environment_id) s)
           else (select row_to_json(s) from (select secret, previous_secret, rotated_at from webhook_endpoints
                                             where id = ${d}.endpoint_id) s) end as secrets,
         case when ${d}.endpoint_id is not null
           then (select rate_limit_per_second from webhook_endpoints where id = ${d}.endpoint_id) end as rate_limit`;

/**
 * Where a row of `webhook_deliveries` (alias `d`) is sent now, as `target_url`: its endpoint's
 * URL as it is now (for the default endpoint, the configuration's), so a retry follows a changed
 * URL; null while the endpoint is disabled (the default one: while the configuration has no
 * webhook URL) or gone: then nothing is sent (the deliverer defers it, deliverer.ts). The row's
 * own `url` stays the one it was created with.
 */
export const TARGET_COLUMN = (d: string): string => `case when ${d}.endpoint_id is null
           then (select webhook_url from environments where id = ${d}.environment_id)
           else (select url from webhook_endpoints where id = ${d}.endpoint_id and not disabled) end as target_url`;

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
 * What a send needs besides the row, for rows a notice carried ($1 environments, $2 endpoints,
 * '' for the default one): the settings as a claim reads them, and whether the endpoint (or, for
 * the default one, the environment) still exists: its deliveries went with it.
 */
export const SETTINGS_SQL = `select d.environment_id, coalesce(d.endpoint_id, '') as endpoint_key,
         case when d.endpoint_id is null then exists (select 1 from environments where id = d.environment_id)
              else exists (select 1 from webhook_endpoints where id = d.endpoint_id) end as present,
         ${SETTINGS_COLUMNS('d')},
         ${TARGET_COLUMN('d')}
       from (select k.environment_id, nullif(k.endpoint_id, '') as endpoint_id
             from unnest($1::text[], $2::text[]) as k(environment_id, endpoint_id)) d`;

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
  secrets: { secret: string; previous_secret: string | null; rotated_at: string | null } | null;
  /** The endpoint's own rate limit (sends per second); null: none, or the default endpoint. */
  rate_limit: number | null;
  /** Where it goes now (TARGET_COLUMN): the endpoint's current URL; null: disabled, send nothing. */
  target_url: string | null;
  /** A delivery of the log (delivery-log.ts), held from its notice or the owner's read: no lease. */
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

/** A send's settings for an endpoint (SETTINGS_SQL), and whether it still exists. */
export interface EndpointSettings {
  present: boolean;
  secrets: ClaimedDelivery['secrets'];
  rate_limit: number | null;
  target_url: string | null;
}

/** The key of an endpoint in `endpointSettings`' answer: environment, NUL, endpoint id ('' for the default one). */
export const endpointSettingsKey = (environmentId: string, endpointId: string | null): string => `${environmentId}\u0000${endpointId ?? ''}`;

/** The settings of the endpoints given as `endpointSettingsKey`s (SETTINGS_SQL), by key. */
export async function endpointSettings(pool: Pool, keys: readonly string[]): Promise<Map<string, EndpointSettings>> {
  const unique = [...new Set(keys)].map((key) => key.split('\u0000') as [string, string]);
  const { rows } = await pool.query<EndpointSettings & { environment_id: string; endpoint_key: string }>({
    name: 'rtm_webhook_settings',
    text: SETTINGS_SQL,
    values: [unique.map(([environment]) => environment), unique.map(([, endpoint]) => endpoint)],
  });
  return new Map(rows.map((row) => [`${row.environment_id}\u0000${row.endpoint_key}`, row]));
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
        data: JSON.stringify({ deliveryId: d.id, endpointId: d.endpointId, eventId: d.eventId, eventType: d.eventType, attempts: d.attempts, lastError: d.lastError }),
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
  await pool.query(`select ${deliverBatchJobSql('$1::text[]', afterMs > 0 ? "now() + $2::int * interval '1 millisecond'" : undefined)}`, afterMs > 0 ? [ids, afterMs] : [ids]);
}

/** Which of `ids` are still pending, with their environments (a job's deliveries, to route). */
export async function pendingDeliveries(pool: Pool, ids: readonly string[]): Promise<{ id: string; environment_id: string }[]> {
  const { rows } = await pool.query<{ id: string; environment_id: string }>(
    `select id, environment_id from webhook_deliveries where id = any($1::text[]) and ${stillPending()}`,
    [ids],
  );
  return rows;
}

/**
 * Pending deliveries due for more than `graceMs` outside the environments `skip`, unleased or
 * with a lease that lapsed (a push lease whose notice was lost, a claim whose sender died),
 * oldest due first, at most `limit`. By `status = 'pending'` on purpose: this one scans by due
 * time, which is what the partial index of pending rows serves.
 */
export async function overdueUnleased(
  pool: Pool,
  query: { graceMs: number; skip: readonly string[]; limit: number },
): Promise<{ id: string; environment_id: string }[]> {
  const { rows } = await pool.query<{ id: string; environment_id: string }>(
    `select id, environment_id from webhook_deliveries
         where status = 'pending' and (locked_until is null or locked_until < now())
           and next_attempt_at < now() - $1 * interval '1 millisecond'
           and environment_id <> all($2::text[])
         order by next_attempt_at limit $3`,
    [query.graceMs, query.skip, query.limit],
  );
  return rows;
}

/**
 * Pending, due deliveries, leased or not, with their leases (null: unleased), oldest due first, at
 * most `limit`: what the new owner of a partition whose dispatcher died takes over at once
 * (the caller keeps those of its partitions). Every lease on such a row is its dead owner's: only
 * an owner sends.
 */
export async function dueDeliveries(pool: Pool, limit: number): Promise<{ id: string; environment_id: string; lease: string | null }[]> {
  const { rows } = await pool.query<{ id: string; environment_id: string; lease: string | null }>(
    `select id, environment_id, locked_until::text as lease from webhook_deliveries
         where status = 'pending' and next_attempt_at <= now()
         order by next_attempt_at limit $1`,
    [limit],
  );
  return rows;
}
