/**
 * The webhook delivery ledger of one environment as its readers see it: pages with a status
 * filter, one delivery with its attempt log, and the retry of a dropped delivery. Shared by the
 * gateway's API-key routes and the dashboard's; every query is scoped by the environment, so
 * another environment's delivery is `not_found`.
 */
import { withTransaction, type Pool, type PoolClient } from '@rtm/db';
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

/** Newest first: the deliveries before `before` (a delivery id; null from the newest), and whether more follow. */
export async function listDeliveries(
  pool: Pool,
  environmentId: string,
  page: { status?: DeliveryStatus | undefined; endpointId?: string | undefined; before: string | null; limit: number },
): Promise<{ data: z.infer<typeof DeliveryRow>[]; more: boolean }> {
  const { status, before, limit } = page;
  // `default`: the configuration's URL (no endpoint id); an endpoint id: that endpoint's
  const endpoint = page.endpointId === undefined ? '' : page.endpointId === 'default' ? 'and endpoint_id is null' : 'and endpoint_id = $5';
  const { rows } = await pool.query<DeliveryRecord>(
    `select ${COLUMNS} from webhook_deliveries
     where environment_id = $1 and ($2::text is null or status = $2) and ($3::text is null or id < $3) ${endpoint}
     order by id desc limit $4`,
    [environmentId, status ?? null, before, limit + 1, ...(endpoint.includes('$5') ? [page.endpointId] : [])],
  );
  return { data: rows.slice(0, limit).map(toRow), more: rows.length > limit };
}

/** One delivery with every attempt made, or 404. */
export async function getDelivery(pool: Pool, environmentId: string, deliveryId: string): Promise<z.infer<typeof DeliveryDetail>> {
  const { rows } = await pool.query<DeliveryRecord>(
    `select ${COLUMNS} from webhook_deliveries where id = $1 and environment_id = $2`,
    [deliveryId, environmentId],
  );
  if (!rows[0]) throw new ServiceError('not_found', 'no such delivery');
  const attempts = await pool.query<{ at: Date; status_code: number | null; error: string | null; duration_ms: number }>(
    'select at, status_code, error, duration_ms from webhook_attempts where delivery_id = $1 order by n',
    [deliveryId],
  );
  return {
    ...toRow(rows[0]),
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
 * can be sent again: enabled again, or (the default one) a webhook URL deployed after none. No
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
    const current = await client.query<{ status: string }>(
      'select status from webhook_deliveries where id = $1 and environment_id = $2 for update',
      [id, environmentId],
    );
    if (!current.rows[0]) throw new ServiceError('not_found', 'no such delivery');
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
