import { z } from 'zod';
import { ErrorBody } from '../common.ts';
import { WebhookSecretResponse } from '../webhooks.ts';
import {
  CreatedWebhookEndpoint,
  CreateWebhookEndpointBody,
  RecoverBody,
  TestEventBody,
  TestEventResponse,
  UpdateWebhookEndpointBody,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointParams,
  WebhookEndpointsQuery,
  WebhookEventTypeList,
  WebhookTask,
  WebhookTaskAccepted,
  WebhookTaskParams,
} from '../webhook-endpoints.ts';
import type { Operations } from './operation.ts';
import { KEY_AUDITED } from './webhooks.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 503: ErrorBody };
const bodyErrors = { 413: ErrorBody, 415: ErrorBody };
const secured = { tags: ['webhook endpoints'], security: [{ secretKey: [] }] };

/**
 * Control plane: an environment's webhook endpoints beside its default one (the configuration's
 * `webhooks.url`), the event-type catalogue, and the endpoint's tasks. Every query is scoped by
 * the environment of the secret key: another environment's endpoint is 404 `not_found`.
 */
export const webhookEndpointOperations = {
  listWebhookEventTypes: {
    method: 'GET',
    url: '/v1/webhook-event-types',
    schema: {
      operationId: 'listWebhookEventTypes',
      summary: 'The webhook event types',
      description: "Each type's name, what it reports, the JSON Schema of its `data` and an example.",
      ...secured,
      response: { 200: WebhookEventTypeList, ...errors },
    },
  },
  createWebhookEndpoint: {
    method: 'POST',
    url: '/v1/webhook-endpoints',
    schema: {
      operationId: 'createWebhookEndpoint',
      summary: 'Create a webhook endpoint',
      description:
        'Answers 201 with the endpoint and its signing secret. Every event its filters take (`eventTypes`, `channels`) ' +
        'gets a delivery of its own, signed with its secret, with its own attempts and ledger rows. The URL is checked as ' +
        "the configuration's webhook URL is (422 `invalid_webhook_url`). At most 50 per environment (400 past it).",
      ...secured,
      body: CreateWebhookEndpointBody,
      response: { 201: CreatedWebhookEndpoint, 422: ErrorBody, ...bodyErrors, ...errors },
    },
  },
  listWebhookEndpoints: {
    method: 'GET',
    url: '/v1/webhook-endpoints',
    schema: {
      operationId: 'listWebhookEndpoints',
      summary: 'The webhook endpoints',
      description: 'Oldest first; `cursor` is the `nextCursor` of the previous page. The default endpoint is not listed.',
      ...secured,
      querystring: WebhookEndpointsQuery,
      response: { 200: WebhookEndpointList, ...errors },
    },
  },
  getWebhookEndpoint: {
    method: 'GET',
    url: '/v1/webhook-endpoints/:endpointId',
    schema: {
      operationId: 'getWebhookEndpoint',
      summary: 'One webhook endpoint',
      description: '`failingSince` shows a streak of failed attempts; `disabledReason` why it is disabled. The secret key reads the URL whole.',
      ...secured,
      params: WebhookEndpointParams,
      response: { 200: WebhookEndpoint, 404: ErrorBody, ...errors },
    },
  },
  updateWebhookEndpoint: {
    method: 'PATCH',
    url: '/v1/webhook-endpoints/:endpointId',
    schema: {
      operationId: 'updateWebhookEndpoint',
      summary: 'Change a webhook endpoint',
      description:
        'Changes the fields given; `null` clears a filter or the rate limit. A new `url` takes effect for every later ' +
        'attempt, retries of earlier deliveries included. `disabled: true` stops new deliveries and every send to it ' +
        '(`disabledReason: "manual"`): its pending deliveries wait without attempts; `disabled: false` enables it again, ' +
        'also after it was disabled for failing, and its waiting deliveries are due at once.',
      ...secured,
      params: WebhookEndpointParams,
      body: UpdateWebhookEndpointBody,
      response: { 200: WebhookEndpoint, 404: ErrorBody, 422: ErrorBody, ...bodyErrors, ...errors },
    },
  },
  deleteWebhookEndpoint: {
    method: 'DELETE',
    url: '/v1/webhook-endpoints/:endpointId',
    schema: {
      operationId: 'deleteWebhookEndpoint',
      summary: 'Delete a webhook endpoint',
      description: 'With its ledger: its deliveries and their attempts go too. Answers 204.',
      ...secured,
      params: WebhookEndpointParams,
      response: { 204: z.null().describe('Deleted'), 404: ErrorBody, ...errors },
    },
  },
  getWebhookEndpointSecret: {
    method: 'GET',
    url: '/v1/webhook-endpoints/:endpointId/secret',
    schema: {
      operationId: 'getWebhookEndpointSecret',
      summary: "The endpoint's signing secret",
      description: 'Verify deliveries with `service-signature` or with the Standard Webhooks headers (docs/webhooks.md).' + KEY_AUDITED,
      ...secured,
      params: WebhookEndpointParams,
      response: { 200: WebhookSecretResponse, 404: ErrorBody, ...errors },
    },
  },
  rotateWebhookEndpointSecret: {
    method: 'POST',
    url: '/v1/webhook-endpoints/:endpointId/secret/rotate',
    schema: {
      operationId: 'rotateWebhookEndpointSecret',
      summary: "Rotate the endpoint's signing secret",
      description: 'Returns the new secret. For 24 h every delivery to the endpoint carries both signatures, new first, in both schemes.' + KEY_AUDITED,
      ...secured,
      params: WebhookEndpointParams,
      response: { 200: WebhookSecretResponse, 404: ErrorBody, ...bodyErrors, ...errors },
    },
  },
  testWebhookEndpoint: {
    method: 'POST',
    url: '/v1/webhook-endpoints/:endpointId/test',
    schema: {
      operationId: 'testWebhookEndpoint',
      summary: 'Send the endpoint a test event',
      description:
        "Answers 202: a `webhook.test` event (or the catalogue's example of `eventType`) is sent to this endpoint only, " +
        'through the normal path: a delivery in its ledger, signed, retried. A disabled endpoint: 400.',
      ...secured,
      params: WebhookEndpointParams,
      body: TestEventBody,
      response: { 202: TestEventResponse, 404: ErrorBody, ...bodyErrors, ...errors },
    },
  },
  recoverWebhookEndpoint: {
    method: 'POST',
    url: '/v1/webhook-endpoints/:endpointId/recover',
    schema: {
      operationId: 'recoverWebhookEndpoint',
      summary: "Re-send the endpoint's dropped deliveries",
      description:
        'Answers 202 `{taskId}`: a dispatcher task queues again every `dropped` delivery of this endpoint created in ' +
        "[`since`, `until`) for an immediate attempt, to the endpoint's current URL. A `cancelled` delivery (its " +
        'message was retracted or erased, or deleted with its channel) is not `dropped` and never sent again: a recovery ' +
        'sends the `message.retracted` event of such a message, never its content. Follow it at GET /v1/webhook-tasks/{taskId}.',
      ...secured,
      params: WebhookEndpointParams,
      body: RecoverBody,
      response: { 202: WebhookTaskAccepted, 404: ErrorBody, ...bodyErrors, ...errors },
    },
  },
  getWebhookTask: {
    method: 'GET',
    url: '/v1/webhook-tasks/:taskId',
    schema: {
      operationId: 'getWebhookTask',
      summary: "A webhook task's progress",
      description: '`running` until every matching delivery is queued again, then `completed` (or `failed`, with a reason).',
      ...secured,
      params: WebhookTaskParams,
      response: { 200: WebhookTask, 404: ErrorBody, ...errors },
    },
  },
} as const satisfies Operations;
