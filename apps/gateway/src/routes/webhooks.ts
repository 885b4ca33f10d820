import { withTransaction } from '@rtm/db';
import { publishLog } from '@rtm/bus';
import { ServiceError } from '@rtm/errors';
import { readWebhookSecret, rotateWebhookSecret, DELIVER_ONE_TASK, deliveryJobKey } from '@rtm/webhooks';
import {
  ErrorBody,
  WebhookSecretResponse,
  DeliveriesQuery,
  DeliveryList,
  DeliveryDetail,
  DeliveryParams,
  DeliveryRow,
  DELIVERY_ID_PATTERN,
} from '@rtm/schemas';
import type { z } from 'zod';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey } from '../auth/authenticate.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 503: ErrorBody };

const FAILURE_VOCABULARY =
  '`lastError` and each `attemptLog[].error` are one word from a fixed list, never a library message and never ' +
  'any part of the response body: `timeout` (no answer within the attempt time), `refused` (connection refused), ' +
  '`reset` (connection closed or reset before an answer), `unreachable` (no route), `dns` (the host name did not ' +
  'resolve), `blocked_address` (the URL or an address its host resolves to is not allowed, e.g. loopback or ' +
  'private), `tls` (handshake or certificate failed), `protocol` (the answer was not HTTP/1.1), `status N` (the ' +
  'receiver answered HTTP N; 3xx included, redirects are not followed), `no_signing_secret`, `network` (any other ' +
  'connection failure). `lastStatusCode` carries the status of an answered attempt.';


interface DeliveryRecord {
  id: string;
  event_id: string;
  event_type: 'message.published' | 'message.retracted';
  channel_id: string;
  url: string;
  status: 'pending' | 'delivered' | 'dropped';
  attempts: number;
  last_error: string | null;
  last_status_code: number | null;
  next_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
  delivered_at: Date | null;
}

const COLUMNS = `id, event_id, event_type, channel_id, url, status, attempts, last_error, last_status_code,
  next_attempt_at, created_at, updated_at, delivered_at`;

function toRow(record: DeliveryRecord): z.infer<typeof DeliveryRow> {
  return {
    id: record.id,
    eventId: record.event_id,
    eventType: record.event_type,
    channelId: record.channel_id,
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

// the cursor is the last row's id, wrapped so callers treat it as opaque
const encodeCursor = (id: string) => Buffer.from(id, 'utf8').toString('base64url');
function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!DELIVERY_ID_PATTERN.test(id)) throw new ServiceError('invalid_request', 'querystring.cursor: not a cursor of this list');
  return id;
}

/**
 * Control plane: the signing secret (read, rotate) and the delivery ledger (list, one, retry).
 * Every query is scoped by the environment of the secret key: another environment's rows are
 * `not_found`, never visible.
 */
export async function webhookRoutes(app: ZodApp, deps: GatewayDeps) {
  const secured = { onRequest: requireSecretKey(deps) };

  app.get(
    '/v1/webhooks/secret',
    {
      ...secured,
      schema: {
        operationId: 'getWebhookSecret',
        summary: 'The webhook signing secret',
        description: '404 `webhooks_not_configured` until a configuration with a webhook has been activated.',
        tags: ['webhooks'],
        security: [{ secretKey: [] }],
        response: { 200: WebhookSecretResponse, 404: ErrorBody, ...errors },
      },
    },
    async (request) => {
      const { environmentId } = keyAuth(request);
      const secret = await readWebhookSecret(deps.pool, deps.secretKeyring, environmentId);
      if (secret === null) throw new ServiceError('webhooks_not_configured');
      return { secret };
    },
  );

  app.post(
    '/v1/webhooks/secret/rotate',
    {
      ...secured,
      schema: {
        operationId: 'rotateWebhookSecret',
        summary: 'Rotate the webhook signing secret',
        description:
          'Returns the new secret. For 24 h after a rotation every delivery carries both signatures, new first: ' +
          '`t=…,v1=<new>,v1=<old>`. Rotating again within those 24 h drops the oldest secret. 404 ' +
          '`webhooks_not_configured` when no secret exists yet. Takes no body.',
        tags: ['webhooks'],
        security: [{ secretKey: [] }],
        response: { 200: WebhookSecretResponse, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody, ...errors },
      },
    },
    async (request) => {
      const { environmentId } = keyAuth(request);
      const secret = await rotateWebhookSecret(deps.pool, deps.secretKeyring, environmentId);
      if (secret === null) throw new ServiceError('webhooks_not_configured');
      publishLog(deps.nc, deps.subjects, environmentId, 'info', 'webhook.secret_rotated', {});
      return { secret };
    },
  );

  app.get(
    '/v1/webhooks/deliveries',
    {
      ...secured,
      schema: {
        operationId: 'listDeliveries',
        summary: 'The webhook delivery ledger',
        description:
          'Newest first. `status` filters; `limit` default 50, maximum 500; `cursor` is the `nextCursor` of the ' +
          'previous page (null on the last page). An unknown status, a limit out of range or a bad cursor: 400. ' +
          FAILURE_VOCABULARY,
        tags: ['webhooks'],
        security: [{ secretKey: [] }],
        querystring: DeliveriesQuery,
        response: { 200: DeliveryList, ...errors },
      },
    },
    async (request) => {
      const { environmentId } = keyAuth(request);
      const { status, cursor } = request.query;
      const limit = request.query.limit ?? 50;
      const before = cursor === undefined ? null : decodeCursor(cursor);
      const { rows } = await deps.pool.query<DeliveryRecord>(
        `select ${COLUMNS} from webhook_deliveries
         where environment_id = $1 and ($2::text is null or status = $2) and ($3::text is null or id < $3)
         order by id desc limit $4`,
        [environmentId, status ?? null, before, limit + 1],
      );
      const page = rows.slice(0, limit);
      const nextCursor = rows.length > limit ? encodeCursor(page[page.length - 1]!.id) : null;
      return { data: page.map(toRow), nextCursor };
    },
  );

  app.get(
    '/v1/webhooks/deliveries/:deliveryId',
    {
      ...secured,
      schema: {
        operationId: 'getDelivery',
        summary: 'One webhook delivery with its attempt log',
        description:
          '`attemptLog` lists every attempt made (a delivery held back by a concurrency limit or an open circuit ' +
          'is not an attempt: its `nextAttemptAt` moves, `attempts` does not). ' +
          FAILURE_VOCABULARY,
        tags: ['webhooks'],
        security: [{ secretKey: [] }],
        params: DeliveryParams,
        response: { 200: DeliveryDetail, 404: ErrorBody, ...errors },
      },
    },
    async (request) => {
      const { environmentId } = keyAuth(request);
      const { rows } = await deps.pool.query<DeliveryRecord>(
        `select ${COLUMNS} from webhook_deliveries where id = $1 and environment_id = $2`,
        [request.params.deliveryId, environmentId],
      );
      if (!rows[0]) throw new ServiceError('not_found', 'no such delivery');
      const attempts = await deps.pool.query<{ at: Date; status_code: number | null; error: string | null; duration_ms: number }>(
        'select at, status_code, error, duration_ms from webhook_attempts where delivery_id = $1 order by n',
        [request.params.deliveryId],
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
    },
  );

  app.post(
    '/v1/webhooks/deliveries/:deliveryId/retry',
    {
      ...secured,
      schema: {
        operationId: 'retryDelivery',
        summary: 'Retry a dropped delivery now',
        description:
          'Re-queues a `dropped` delivery for one immediate attempt (status back to `pending`); if that attempt ' +
          'fails too, the delivery is `dropped` again. A delivery that is not `dropped`: 400 `invalid_request`. ' +
          'Takes no body.',
        tags: ['webhooks'],
        security: [{ secretKey: [] }],
        params: DeliveryParams,
        response: { 200: DeliveryRow, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody, ...errors },
      },
    },
    async (request) => {
      const { environmentId } = keyAuth(request);
      const id = request.params.deliveryId;
      const record = await withTransaction(deps.pool, async (client) => {
        const current = await client.query<{ status: string }>(
          'select status from webhook_deliveries where id = $1 and environment_id = $2 for update',
          [id, environmentId],
        );
        if (!current.rows[0]) throw new ServiceError('not_found', 'no such delivery');
        if (current.rows[0].status !== 'dropped') {
          throw new ServiceError('invalid_request', `only a dropped delivery can be retried; this one is ${current.rows[0].status}`);
        }
        const { rows } = await client.query<DeliveryRecord>(
          `update webhook_deliveries set status = 'pending', next_attempt_at = now(), locked_until = null, updated_at = now()
           where id = $1 returning ${COLUMNS}`,
          [id],
        );
        await client.query('select graphile_worker.add_job($1, json_build_object($2::text, $3::text), job_key := $4)', [
          DELIVER_ONE_TASK,
          'id',
          id,
          deliveryJobKey(id),
        ]);
        return rows[0]!;
      });
      publishLog(deps.nc, deps.subjects, environmentId, 'info', 'webhook.retry_requested', { deliveryId: id });
      return toRow(record);
    },
  );
}
