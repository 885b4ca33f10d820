import { z } from 'zod';
import { ErrorBody } from '../../common.ts';
import { DashboardEnvParams } from '../../dashboard.ts';
import { WebhookSecretResponse } from '../../webhooks.ts';
import {
  CreatedWebhookEndpoint,
  CreateWebhookEndpointBody,
  EndpointId,
  RecoverBody,
  TestEventBody,
  TestEventResponse,
  UpdateWebhookEndpointBody,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointsQuery,
  WebhookEventTypeList,
  WebhookTask,
  WebhookTaskAccepted,
  TASK_ID_PATTERN,
} from '../../webhook-endpoints.ts';
import type { Operations } from '../operation.ts';
import { CSRF_NOTE, MANAGE, URL_FOR_VIEWERS, common, csrfHeaders, readErrors, writeErrors } from './common.ts';

const EnvId = DashboardEnvParams.shape.envId;
const EndpointParams = z.object({ envId: EnvId, endpointId: EndpointId.describe('An endpoint of the environment (`ep_…`).') }).strict();
const TaskParams = z
  .object({ envId: EnvId, taskId: z.string().regex(TASK_ID_PATTERN, 'must be a webhook task id (wtk_…)').describe('A task of the environment (`wtk_…`).') })
  .strict();
const base = '/v1/dashboard/environments/:envId/webhook-endpoints';
const AS = (route: string) => ` As ${route} with the secret key, scoped to the environment.`;

/**
 * Control plane: an environment's webhook endpoints for a session, as /v1/webhook-endpoints serves
 * them for the secret key. Any member reads; admins and owners change, and every change, reveal,
 * test and recovery is recorded in the audit log.
 */
export const dashboardWebhookEndpointOperations = {
  dashboardListWebhookEventTypes: {
    method: 'GET',
    url: '/v1/dashboard/environments/:envId/webhook-event-types',
    schema: {
      ...common,
      operationId: 'dashboardListWebhookEventTypes',
      summary: 'The webhook event types',
      description: "The catalogue an endpoint's `eventTypes` filter names." + AS('GET /v1/webhook-event-types') + ' Any member.',
      params: DashboardEnvParams,
      response: { 200: WebhookEventTypeList, ...readErrors },
    },
  },
  dashboardListWebhookEndpoints: {
    method: 'GET',
    url: base,
    schema: {
      ...common,
      operationId: 'dashboardListWebhookEndpoints',
      summary: 'The webhook endpoints of an environment',
      description:
        "Oldest first; the default endpoint (the configuration's URL) is not listed." + AS('GET /v1/webhook-endpoints') + ' Any member.' + URL_FOR_VIEWERS,
      params: DashboardEnvParams,
      querystring: WebhookEndpointsQuery,
      response: { 200: WebhookEndpointList, ...readErrors },
    },
  },
  dashboardCreateWebhookEndpoint: {
    method: 'POST',
    url: base,
    schema: {
      ...common,
      operationId: 'dashboardCreateWebhookEndpoint',
      summary: 'Create a webhook endpoint',
      description:
        'Answers 201 with the endpoint and its signing secret. A URL the policy refuses is 422 `invalid_webhook_url` with ' +
        'the rule in its reason.' +
        AS('POST /v1/webhook-endpoints') +
        ' Audited (`webhook_endpoint.created`).' +
        MANAGE +
        CSRF_NOTE,
      headers: csrfHeaders,
      params: DashboardEnvParams,
      body: CreateWebhookEndpointBody,
      response: { 201: CreatedWebhookEndpoint, 422: ErrorBody, ...writeErrors },
    },
  },
  dashboardGetWebhookEndpoint: {
    method: 'GET',
    url: `${base}/:endpointId`,
    schema: {
      ...common,
      operationId: 'dashboardGetWebhookEndpoint',
      summary: 'One webhook endpoint',
      description: AS('GET /v1/webhook-endpoints/{endpointId}').trim() + ' Any member.' + URL_FOR_VIEWERS,
      params: EndpointParams,
      response: { 200: WebhookEndpoint, ...readErrors },
    },
  },
  dashboardUpdateWebhookEndpoint: {
    method: 'PATCH',
    url: `${base}/:endpointId`,
    schema: {
      ...common,
      operationId: 'dashboardUpdateWebhookEndpoint',
      summary: 'Change, disable or enable a webhook endpoint',
      description:
        'Changes the fields given; `null` clears a filter or the rate limit; `disabled` turns it off and on.' +
        AS('PATCH /v1/webhook-endpoints/{endpointId}') +
        ' Audited (`webhook_endpoint.updated`).' +
        MANAGE +
        CSRF_NOTE,
      headers: csrfHeaders,
      params: EndpointParams,
      body: UpdateWebhookEndpointBody,
      response: { 200: WebhookEndpoint, 422: ErrorBody, ...writeErrors },
    },
  },
  dashboardDeleteWebhookEndpoint: {
    method: 'DELETE',
    url: `${base}/:endpointId`,
    schema: {
      ...common,
      operationId: 'dashboardDeleteWebhookEndpoint',
      summary: 'Delete a webhook endpoint',
      description:
        'With its ledger. Answers 204.' + AS('DELETE /v1/webhook-endpoints/{endpointId}') + ' Audited (`webhook_endpoint.deleted`).' + MANAGE + CSRF_NOTE,
      headers: csrfHeaders,
      params: EndpointParams,
      response: { 204: z.null().describe('Deleted'), ...writeErrors },
    },
  },
  dashboardRevealWebhookEndpointSecret: {
    method: 'GET',
    url: `${base}/:endpointId/secret`,
    schema: {
      ...common,
      operationId: 'dashboardRevealWebhookEndpointSecret',
      summary: "Reveal an endpoint's signing secret",
      description: 'Each reveal is recorded in the audit log (`webhook_endpoint.secret_revealed`, without the secret).' + MANAGE,
      params: EndpointParams,
      response: { 200: WebhookSecretResponse, ...readErrors },
    },
  },
  dashboardRotateWebhookEndpointSecret: {
    method: 'POST',
    url: `${base}/:endpointId/secret/rotate`,
    schema: {
      ...common,
      operationId: 'dashboardRotateWebhookEndpointSecret',
      summary: "Rotate an endpoint's signing secret",
      description:
        'Answers the new secret; for 24 h deliveries to the endpoint carry both signatures. Takes no body. Audited ' +
        '(`webhook_endpoint.secret_rotated`).' +
        MANAGE +
        CSRF_NOTE,
      headers: csrfHeaders,
      params: EndpointParams,
      response: { 200: WebhookSecretResponse, ...writeErrors },
    },
  },
  dashboardTestWebhookEndpoint: {
    method: 'POST',
    url: `${base}/:endpointId/test`,
    schema: {
      ...common,
      operationId: 'dashboardTestWebhookEndpoint',
      summary: 'Send an endpoint a test event',
      description:
        'Answers 202 with the delivery in the ledger; a disabled endpoint is 400.' +
        AS('POST /v1/webhook-endpoints/{endpointId}/test') +
        ' Audited (`webhook_endpoint.tested`).' +
        MANAGE +
        CSRF_NOTE,
      headers: csrfHeaders,
      params: EndpointParams,
      body: TestEventBody,
      response: { 202: TestEventResponse, ...writeErrors },
    },
  },
  dashboardRecoverWebhookEndpoint: {
    method: 'POST',
    url: `${base}/:endpointId/recover`,
    schema: {
      ...common,
      operationId: 'dashboardRecoverWebhookEndpoint',
      summary: "Re-send an endpoint's dropped deliveries",
      description:
        'Answers 202 `{taskId}`; follow it at GET …/webhook-tasks/{taskId}.' +
        AS('POST /v1/webhook-endpoints/{endpointId}/recover') +
        ' Audited (`webhook_endpoint.recovery_started`).' +
        MANAGE +
        CSRF_NOTE,
      headers: csrfHeaders,
      params: EndpointParams,
      body: RecoverBody,
      response: { 202: WebhookTaskAccepted, ...writeErrors },
    },
  },
  dashboardGetWebhookTask: {
    method: 'GET',
    url: '/v1/dashboard/environments/:envId/webhook-tasks/:taskId',
    schema: {
      ...common,
      operationId: 'dashboardGetWebhookTask',
      summary: "A webhook task's progress",
      description: '`running`, then `completed` (or `failed`, with a reason).' + AS('GET /v1/webhook-tasks/{taskId}') + ' Any member.',
      params: TaskParams,
      response: { 200: WebhookTask, ...readErrors },
    },
  },
} as const satisfies Operations;
