/**
 * The webhook delivery ledger of one environment as its readers see it: pages with a status
 * filter, one delivery with its attempt log, and the retry of a dropped delivery. Shared by the
 * gateway's API-key routes and the dashboard's; every query is scoped by the environment, so
 * another environment's delivery is `not_found`.
 *
 * A delivery lives in one of two places (docs/webhooks.md, "Where a delivery's fields come from"): a
 * `webhook_deliveries` row when it has one with its id (that row is the truth: a first attempt
 * that failed, or one that had to wait), otherwise its `webhook_log` row, `delivered` when a
 * `webhook_outcomes` row records its successful first attempt and `pending` (not yet attempted)
 * when none does. The reads answer over both; only full rows wait, retry, drop or cancel.
 */
import { withTransaction, type Pool, type PoolClient, type Queryable } from '@rtm/db';
import { ServiceError } from '@rtm/errors';
import type { DeliveryDetail, DeliveryRow, WebhookEventType } from '@rtm/schemas';
import type { z } from 'zod';
import { deliverOneJobSql } from './jobs.ts';

export type DeliveryStatus = 'pending' | 'delivered' | 'dropped' | 'cancelled';

interface DeliveryRecord {
  id: string;
  endpoint_id: string | null;
  event_id: string;
  event_type: WebhookEventType;
  channel_id: string | null;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  last_error: string | null;
  last_status_code: number | null;
  next_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
  delivered_at: Date | null;
}

const COLUMNS = `id, endpoint_id, event_id, event_type, channel_id, url, status, attempts, last_error, last_status_code,
  next_attempt_at, created_at, updated_at, delivered_at`;

/**
 * A `webhook_log` row (alias `l`) with its outcome (alias `o`, left joined) as a DeliveryRecord:
 * `delivered` after one attempt when it has an outcome, else `pending`, never attempted and due
 * since it was made.
 */
const LOG_COLUMNS = `l.id, l.endpoint_id, l.event_id, l.event_type, l.channel_id, l.url,
  case when o.delivery_id is null then 'pending' else 'delivered' end as status,
  case when o.delivery_id is null then 0 else 1 end as attempts,
  null::text as last_error, o.status_code as last_status_code,
  case when o.delivery_id is null then l.created_at end as next_attempt_at,
  l.created_at, coalesce(o.at, l.created_at) as updated_at, o.at as delivered_at`;

/** A log row's outcome, by the delivery's id and the log row's `created_at` (its partition). */
const LOG_OUTCOME = `left join lateral (
    select delivery_id, at, status_code, duration_ms from webhook_outcomes
    where delivery_id = l.id and created_at = l.created_at limit 1) o on true`;

/** The log row (alias `l`) is the delivery: no full row has its id. */
const LOG_ONLY = '(select true from webhook_deliveries d where d.id = l.id) is null';

function toRow(record: DeliveryRecord): z.infer<typeof DeliveryRow> {
  return {
    id: record.id,
    eventId: record.event_id,
    eventType: record.event_type,
    endpointId: record.endpoint_id,
    ...(record.channel_id !== null && { channelId: record.channel_id }),
    url: record.url,
    status: record.status,
    attempts: record.attempts,
    ...(record.last_error !== null && { lastError: record.last_error }),
    ...(record.last_status_code !== null && { lastStatusCode: record.last_status_code }),
    ...(record.status === 'pending' && record.next_attempt_at && { nextAttemptAt: record.next_attempt_at.toISOString() }),
    createdAt: record.created_at.toISOString(),
    updatedAt: record.updated_at.toISOString(),
    ...(record.delivered_at && { deliveredAt: record.delivered_at.toISOString() }),
  };
}

/**
 * The statement of a ledger page and its values. Each source is read newest first on its index
 * for at most `limit + 1` rows (the log's only where no full row has the id), and the two are
 * merged by id in the same statement, so the page is one snapshot. A log row is never dropped or
 * cancelled: those filters read the full rows alone. Every condition present is written out (no
 * `$n is null or …`), so any plan of the statement, custom or generic, walks the indexes; a log
 * row's outcome and full row are looked up by key per row (a lateral subquery with a limit and a
 * scalar subquery stay per-row lookups), never joined as a whole.
 */
export function deliveriesPageQuery(
  environmentId: string,
  page: { status?: DeliveryStatus | undefined; endpointId?: string | undefined; before: string | null; limit: number },
): { text: string; values: unknown[] } {
  const values: unknown[] = [environmentId, page.limit + 1];
  const param = (value: unknown) => `$${values.push(value)}`;
  const { status, before } = page;
  const after = before === null ? '' : `and %.id < ${param(before)}`;
  // `default`: the configuration's URL (no endpoint id); an endpoint id: that endpoint's
  const endpoint =
    page.endpointId === undefined ? '' : page.endpointId === 'default' ? 'and %.endpoint_id is null' : `and %.endpoint_id = ${param(page.endpointId)}`;
  const where = (alias: string) => `${after} ${endpoint}`.replaceAll('%', alias);
  const full = `(select ${COLUMNS} from webhook_deliveries d
      where d.environment_id = $1 ${status === undefined ? '' : `and d.status = ${param(status)}`} ${where('d')}
      order by d.id desc limit $2)`;
  if (status === 'dropped' || status === 'cancelled') return { text: full, values };
  const outcome = status === 'pending' ? 'and o.delivery_id is null' : status === 'delivered' ? 'and o.delivery_id is not null' : '';
  const log = `(select ${LOG_COLUMNS} from webhook_log l ${LOG_OUTCOME}
      where l.environment_id = $1 ${where('l')} ${outcome} and ${LOG_ONLY}
      order by l.id desc limit $2)`;
  return { text: `select * from (${full} union all ${log}) deliveries order by id desc limit $2`, values };
}

/** Newest first: the deliveries before `before` (a delivery id; null from the newest), and whether more follow. */
export async function listDeliveries(
  pool: Queryable,
  environmentId: string,
  page: { status?: DeliveryStatus | undefined; endpointId?: string | undefined; before: string | null; limit: number },
): Promise<{ data: z.infer<typeof DeliveryRow>[]; more: boolean }> {
  const { rows } = await pool.query<DeliveryRecord>(deliveriesPageQuery(environmentId, page));
  return { data: rows.slice(0, page.limit).map(toRow), more: rows.length > page.limit };
}

/**
 * One delivery with every attempt made, or 404: its full row with the attempts recorded, else its
 * log row, whose one attempt (if any) is its outcome.
 */
export async function getDelivery(pool: Queryable, environmentId: string, deliveryId: string): Promise<z.infer<typeof DeliveryDetail>> {
  const { rows } = await pool.query<DeliveryRecord & { logged: boolean; duration_ms: number | null }>(
    `select * from (
       select ${COLUMNS}, false as logged, null::integer as duration_ms from webhook_deliveries d where d.id = $1 and d.environment_id = $2
       union all
       (select ${LOG_COLUMNS}, true, o.duration_ms from webhook_log l ${LOG_OUTCOME}
        where l.environment_id = $2 and l.id = $1 and ${LOG_ONLY} limit 1)) delivery
     order by logged limit 1`,
    [deliveryId, environmentId],
  );
  const record = rows[0];
  if (!record) throw new ServiceError('not_found', 'no such delivery');
  if (record.logged) {
    return {
      ...toRow(record),
      attemptLog:
        record.delivered_at && record.last_status_code !== null && record.duration_ms !== null
          ? [{ at: record.delivered_at.toISOString(), statusCode: record.last_status_code, durationMs: record.duration_ms }]
          : [],
    };
  }
  const attempts = await pool.query<{ at: Date; status_code: number | null; error: string | null; duration_ms: number }>(
    'select at, status_code, error, duration_ms from webhook_attempts where delivery_id = $1 order by n',
    [deliveryId],
  );
  return {
    ...toRow(record),
    attemptLog: attempts.rows.map((a) => ({
      at: a.at.toISOString(),
      ...(a.status_code !== null && { statusCode: a.status_code }),
      ...(a.error !== null && { error: a.error }),
      durationMs: a.duration_ms,
    })),
  };
}

/**
 * The pending deliveries of an endpoint (`endpointId`; null: the environment's default one) that
 * can be sent again: enabled again, or (the default one) a webhook URL deployed after none (only
 * full rows wait: a log row that waits becomes one, docs/webhooks.md). No
 * send was made while it could not be (each was deferred when it came due, docs/webhooks.md), so
 * each unleased one is due now, with its retry job moved to now. On the caller's transaction.
 */
export async function requeueWaitingDeliveries(client: PoolClient, environmentId: string, endpointId: string | null): Promise<void> {
  await client.query(
    `with due as (
       update webhook_deliveries set next_attempt_at = now(), updated_at = now()
       where environment_id = $1 and endpoint_id is not distinct from $2 and status = 'pending'
         and (locked_until is null or locked_until < now())
       returning id)
     select ${deliverOneJobSql('id')} from due`,
    [environmentId, endpointId],
  );
}

/**
 * Re-queues a dropped delivery for one immediate attempt; 404 for an unknown one, 400 for one
 * that is not dropped (a `cancelled` one, whose message was retracted or deleted, says so: its
 * body is redacted and it is never sent, redaction.ts). `audit` runs inside the transaction.
 */
export async function retryDelivery(
  pool: Pool,
  environmentId: string,
  id: string,
  audit: (client: PoolClient, delivery: z.infer<typeof DeliveryRow>) => Promise<void> = async () => {},
): Promise<z.infer<typeof DeliveryRow>> {
  const record = await withTransaction(pool, async (client) => {
    const current = await client.query<{ status: string }>('select status from webhook_deliveries where id = $1 and environment_id = $2 for update', [
      id,
      environmentId,
    ]);
    if (!current.rows[0]) {
      // only a log row: pending (not yet attempted) or delivered, never dropped or cancelled
      const logged = await client.query<{ status: DeliveryStatus }>(
        `select case when o.delivery_id is null then 'pending' else 'delivered' end as status
         from webhook_log l ${LOG_OUTCOME} where l.environment_id = $2 and l.id = $1 limit 1`,
        [id, environmentId],
      );
      if (!logged.rows[0]) throw new ServiceError('not_found', 'no such delivery');
      throw new ServiceError('invalid_request', `only a dropped delivery can be retried; this one is ${logged.rows[0].status}`);
    }
    if (current.rows[0].status === 'cancelled') {
      throw new ServiceError('invalid_request', 'this delivery is cancelled: its message was retracted or deleted, so its content is never sent again');
    }
    if (current.rows[0].status !== 'dropped') {
      throw new ServiceError('invalid_request', `only a dropped delivery can be retried; this one is ${current.rows[0].status}`);
    }
    const { rows } = await client.query<DeliveryRecord>(
      `update webhook_deliveries set status = 'pending', next_attempt_at = now(), locked_until = null, updated_at = now()
       where id = $1 returning ${COLUMNS}`,
      [id],
    );
    await client.query(`select ${deliverOneJobSql('$1::text')}`, [id]);
    await audit(client, toRow(rows[0]!));
    return rows[0]!;
  });
  return toRow(record);
}
