/**
 * The delivery log as the dispatcher works it (docs/webhooks.md, "The delivery log"; tables in
 * migration 000019): the outcome of a first attempt that succeeded, appended; a delivery that
 * must wait in the ledger (its first attempt failed, or it cannot be sent now) made a
 * `webhook_deliveries` row with its exact body, from then on handled like any other; the owner's
 * read of the log above its position, and the position it advances.
 */
import type { Pool } from '@rtm/db';
import { SETTINGS_COLUMNS, type StoredSecrets } from '@rtm/webhooks';

/** A first attempt that succeeded, to append to `webhook_outcomes`. */
export interface LoggedSuccess {
  id: string;
  /** The log row's `created_at` (the outcome's partition key). */
  createdAt: string;
  environmentId: string;
  /** The endpoint it went to (null: the default one): its failing streak ends. */
  endpointId: string | null;
  at: Date;
  statusCode: number;
  durationMs: number;
}

/**
 * Appends the outcomes (one statement, any number), unless the delivery has a ledger row (it was
 * made one meanwhile: cancelled by a retraction, or failed on another dispatcher around a
 * handover; that row stays the truth) or an outcome already. An endpoint that succeeds ends its
 * failing streak (`failing_since`, as RECORD_SQL does), written only when it was set.
 */
export const RECORD_LOGGED_SQL = `with r as (
         select * from unnest($1::text[], $2::timestamptz[], $3::text[], $4::timestamptz[], $5::int[], $6::int[], $7::text[])
           as r(id, created_at, environment_id, at, status_code, duration_ms, endpoint_id)
       ),
       appended as (
         insert into webhook_outcomes (delivery_id, created_at, environment_id, at, status_code, duration_ms)
         select r.id, r.created_at, r.environment_id, r.at, r.status_code, r.duration_ms from r
         where not exists (select 1 from webhook_deliveries d where d.id = r.id)
         on conflict do nothing
         returning 1
       ),
       cleared as (
         update webhook_endpoints w set failing_since = null
         from (select distinct endpoint_id from r where endpoint_id is not null order by endpoint_id) e
         where w.id = e.endpoint_id and w.failing_since is not null
       )
       select (select count(*) from appended)::int as appended`;

export async function recordLoggedSuccesses(pool: Pool, successes: readonly LoggedSuccess[]): Promise<number> {
  if (successes.length === 0) return 0;
  const { rows } = await pool.query<{ appended: number }>({
    name: 'rtm_webhook_record_logged',
    text: RECORD_LOGGED_SQL,
    values: [
      successes.map((s) => s.id),
      successes.map((s) => s.createdAt),
      successes.map((s) => s.environmentId),
      successes.map((s) => s.at.toISOString()),
      successes.map((s) => s.statusCode),
      successes.map((s) => s.durationMs),
      successes.map((s) => s.endpointId),
    ],
  });
  return rows[0]!.appended;
}

/**
 * Log deliveries made ledger rows ($1 ids, $2 environments, $3 created_at): each a pending
 * `webhook_deliveries` row with the log row's id, body, url and `created_at`, leased for $4 ms to
 * the caller, who then records its attempt or deferral fenced by that lease (RECORD_SQL,
 * DEFER_SQL). One that has a ledger row already (cancelled by a retraction, made one elsewhere) or
 * an outcome is left alone. Returns the rows made, with their leases.
 */
export const MATERIALIZE_SQL = `insert into webhook_deliveries (id, environment_id, endpoint_id, event_id, event_type, channel_id, url, body,
                                  next_attempt_at, locked_until, created_at, updated_at)
       select l.id, l.environment_id, l.endpoint_id, l.event_id, l.event_type, l.channel_id, l.url, l.body,
              now(), now() + $4 * interval '1 millisecond', l.created_at, now()
       from unnest($1::text[], $2::text[], $3::timestamptz[]) as r(id, environment_id, created_at)
       cross join lateral (select * from webhook_log l
                           where l.environment_id = r.environment_id and l.id = r.id and l.created_at = r.created_at offset 0) l
       where not exists (select 1 from webhook_outcomes o where o.delivery_id = l.id and o.created_at = l.created_at)
       on conflict do nothing
       returning id, locked_until::text as lease`;

export async function materializeLogged(
  pool: Pool,
  rows: readonly { id: string; environmentId: string; createdAt: string }[],
  leaseMs: number,
): Promise<Map<string, string>> {
  if (rows.length === 0) return new Map();
  const result = await pool.query<{ id: string; lease: string }>({
    name: 'rtm_webhook_materialize',
    text: MATERIALIZE_SQL,
    values: [rows.map((r) => r.id), rows.map((r) => r.environmentId), rows.map((r) => r.createdAt), leaseMs],
  });
  return new Map(result.rows.map((row) => [row.id, row.lease]));
}

/** A row of the log read by its owner: what a send needs, as a notice carries it. */
export interface LogRow {
  id: string;
  environment_id: string;
  endpoint_id: string | null;
  url: string;
  event_id: string;
  event_type: string;
  body: string;
  partition: number;
  tx: string;
  created_at: string;
  secrets: StoredSecrets | null;
  rate_limit: number | null;
}

/**
 * The log rows of partitions $1 at or above positions $2 (xid8) and below $3 (the snapshot's
 * xmin: every transaction below it has ended, so nothing below it can still appear) that have no
 * outcome and no ledger row and whose endpoint still exists, in position order, at most $4: only
 * where they stand. The owner holds almost all of them already (sent from their notices, their
 * outcomes not written yet), so their bodies and settings are read only for the others
 * (LOG_ROWS_SQL).
 */
export const LOG_ABOVE_SQL = `select l.id, l.environment_id, l.partition::int as partition, l.tx::text as tx, l.created_at::text as created_at
       from unnest($1::int[], $2::xid8[]) as p(partition, position)
       cross join lateral (select * from webhook_log l
                           where l.partition = p.partition and l.tx >= p.position and l.tx < $3::xid8) l
       where not exists (select 1 from webhook_outcomes o where o.delivery_id = l.id and o.created_at = l.created_at)
         and not exists (select 1 from webhook_deliveries d where d.id = l.id)
         -- a delivery whose endpoint (for the default one: its environment) is gone went with it
         and case when l.endpoint_id is null then exists (select 1 from environments e where e.id = l.environment_id)
                  else exists (select 1 from webhook_endpoints ep where ep.id = l.endpoint_id) end
       order by l.tx limit $4`;

/** Where a row of the log stands (LOG_ABOVE_SQL). */
export interface LogPlace {
  id: string;
  environment_id: string;
  partition: number;
  tx: string;
  created_at: string;
}

/** Rows of the log ($1 environments, $2 ids, $3 created_at) with what a send needs: body, settings. */
export const LOG_ROWS_SQL = `select l.id, l.environment_id, l.endpoint_id, l.url, l.event_id, l.event_type, l.body, l.partition::int as partition,
         l.tx::text as tx, l.created_at::text as created_at, ${SETTINGS_COLUMNS('l')}
       from unnest($1::text[], $2::text[], $3::timestamptz[]) as r(environment_id, id, created_at)
       cross join lateral (select * from webhook_log l
                           where l.environment_id = r.environment_id and l.id = r.id and l.created_at = r.created_at offset 0) l`;

/**
 * What the owner of `partitions` must still send from the log: where the rows above `from` (per
 * partition, xid8 as text) without a durable outcome stand, and `below`, the xmin they were read
 * under (every row below it that is not among them has its outcome, or is beyond `limit` rows).
 */
export async function logAbove(
  pool: Pool,
  partitions: readonly number[],
  from: readonly string[],
  limit: number,
): Promise<{ rows: LogPlace[]; below: string }> {
  const snapshot = await pool.query<{ xmin: string }>('select pg_snapshot_xmin(pg_current_snapshot())::text as xmin');
  const below = snapshot.rows[0]!.xmin;
  const { rows } = await pool.query<LogPlace>({ name: 'rtm_webhook_log_above', text: LOG_ABOVE_SQL, values: [partitions, from, below, limit] });
  return { rows, below };
}

/** The rows of the log at `places`, with their bodies and their endpoints' settings now. */
export async function logRows(pool: Pool, places: readonly LogPlace[]): Promise<LogRow[]> {
  if (places.length === 0) return [];
  const { rows } = await pool.query<LogRow>({
    name: 'rtm_webhook_log_rows',
    text: LOG_ROWS_SQL,
    values: [places.map((p) => p.environment_id), places.map((p) => p.id), places.map((p) => p.created_at)],
  });
  return rows;
}

/** The positions of `partitions` as stored ('0' for one that has none yet), by partition. */
export async function logPositions(pool: Pool, partitions: readonly number[]): Promise<Map<number, string>> {
  const { rows } = await pool.query<{ partition: number; tx: string }>(
    'select partition::int as partition, tx::text as tx from webhook_positions where partition = any($1::smallint[])',
    [partitions],
  );
  const found = new Map(rows.map((row) => [row.partition, row.tx]));
  return new Map(partitions.map((partition) => [partition, found.get(partition) ?? '0']));
}

/** Moves positions forward (never back): one statement for every partition given. */
export async function advanceLogPositions(pool: Pool, positions: ReadonlyMap<number, string>): Promise<void> {
  if (positions.size === 0) return;
  await pool.query({
    name: 'rtm_webhook_positions',
    text: `insert into webhook_positions (partition, tx) select * from unnest($1::smallint[], $2::xid8[])
           on conflict (partition) do update set tx = excluded.tx where webhook_positions.tx < excluded.tx`,
    values: [[...positions.keys()], [...positions.values()]],
  });
}
