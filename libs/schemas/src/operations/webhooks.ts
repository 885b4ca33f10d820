import { ErrorBody } from '../common.ts';
import { DeliveriesQuery, DeliveryDetail, DeliveryList, DeliveryParams, DeliveryRow, WebhookSecretResponse } from '../webhooks.ts';
import { CURRENT_READ, type Operations } from './operation.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 503: ErrorBody };

/** A secret-key route that reveals or rotates a signing secret. */
export const KEY_AUDITED = ' Recorded in the organization\'s audit log with the key as the actor (`{kind: "key", id: "key_…"}`), never the secret.';

export const FAILURE_VOCABULARY =
  '`lastError` and each `attemptLog[].error` are one word from a fixed list, never a library message and never ' +
  'any part of the response body: `timeout` (no answer within the attempt time), `refused` (connection refused), ' +
  '`reset` (connection closed or reset before an answer), `unreachable` (no route), `dns` (the host name did not ' +
  'resolve), `blocked_address` (the URL or an address its host resolves to is not allowed, e.g. loopback or ' +
  'private), `tls` (handshake or certificate failed), `protocol` (the answer was not HTTP/1.1), `status N` (the ' +
  'receiver answered HTTP N; 3xx included, redirects are not followed), `no_signing_secret`, `network` (any other ' +
  'connection failure). `lastStatusCode` carries the status of an answered attempt.';

/**
 * Control plane: the signing secret (read, rotate) and the delivery ledger (list, one, retry).
 * Every query is scoped by the environment of the secret key: another environment's rows are
 * `not_found`, never visible.
 */
export const webhookOperations = {
  getWebhookSecret: {
    method: 'GET',
    url: '/v1/webhooks/secret',
    schema: {
      operationId: 'getWebhookSecret',
      summary: 'The webhook signing secret',
      description: '404 `webhooks_not_configured` until a configuration with a webhook has been activated.' + KEY_AUDITED,
      tags: ['webhooks'],
      security: [{ secretKey: [] }],
      response: { 200: WebhookSecretResponse, 404: ErrorBody, ...errors },
    },
  },
  rotateWebhookSecret: {
    method: 'POST',
    url: '/v1/webhooks/secret/rotate',
    schema: {
      operationId: 'rotateWebhookSecret',
      summary: 'Rotate the webhook signing secret',
      description:
        'Returns the new secret. For 24 h after a rotation every delivery carries both signatures, new first: ' +
        '`t=…,v1=<new>,v1=<old>`. Rotating again within those 24 h drops the oldest secret. 404 ' +
        '`webhooks_not_configured` when no secret exists yet. Takes no body.' +
        KEY_AUDITED,
      tags: ['webhooks'],
      security: [{ secretKey: [] }],
      response: { 200: WebhookSecretResponse, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody, ...errors },
    },
  },
  listDeliveries: {
    method: 'GET',
    url: '/v1/webhooks/deliveries',
    schema: {
      operationId: 'listDeliveries',
      summary: 'The webhook delivery ledger',
      description:
        "Newest first. `status` and `endpointId` (an endpoint's id, or `default` for the configuration's URL) filter; " +
        '`limit` default 50, maximum 500; `cursor` is the `nextCursor` of the ' +
        'previous page (null on the last page). An unknown status, a limit out of range or a bad cursor: 400. ' +
        "A `message.published` delivery whose message was retracted (by its sender, a moderator or a user's erasure) or " +
        'deleted with its channel before it was delivered is `cancelled` (`lastError` `message_retracted`): its stored ' +
        'body was redacted in the transaction that retracted or deleted the message, whatever its status, and it is never ' +
        "sent again. `url` is where the delivery was first addressed; each attempt goes to its endpoint's URL as it is " +
        'then, and a disabled endpoint gets none until it is enabled. ' +
        FAILURE_VOCABULARY +
        CURRENT_READ,
      tags: ['webhooks'],
      security: [{ secretKey: [] }],
      querystring: DeliveriesQuery,
      response: { 200: DeliveryList, ...errors },
    },
  },
  getDelivery: {
    method: 'GET',
    url: '/v1/webhooks/deliveries/:deliveryId',
    schema: {
      operationId: 'getDelivery',
      summary: 'One webhook delivery with its attempt log',
      description:
        '`attemptLog` lists every attempt made (a delivery held back by a concurrency limit or an open circuit ' +
        'is not an attempt: its `nextAttemptAt` moves, `attempts` does not). ' +
        FAILURE_VOCABULARY +
        CURRENT_READ,
      tags: ['webhooks'],
      security: [{ secretKey: [] }],
      params: DeliveryParams,
      response: { 200: DeliveryDetail, 404: ErrorBody, ...errors },
    },
  },
  retryDelivery: {
    method: 'POST',
    url: '/v1/webhooks/deliveries/:deliveryId/retry',
    schema: {
      operationId: 'retryDelivery',
      summary: 'Retry a dropped delivery now',
      description:
        'Re-queues a `dropped` delivery for one immediate attempt (status back to `pending`); if that attempt ' +
        'fails too, the delivery is `dropped` again. A delivery that is not `dropped`: 400 `invalid_request`; a ' +
        '`cancelled` one (its message was retracted or deleted: its content is never sent again) says so. The attempt ' +
        "goes to the endpoint's current URL; while the endpoint is disabled the delivery waits, `pending`, until it is " +
        'enabled. Takes no body.',
      tags: ['webhooks'],
      security: [{ secretKey: [] }],
      params: DeliveryParams,
      response: { 200: DeliveryRow, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody, ...errors },
    },
  },
} as const satisfies Operations;
