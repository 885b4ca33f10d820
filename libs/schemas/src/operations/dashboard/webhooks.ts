import { DashboardDeliveryParams, DashboardEnvParams, DashboardWebhook, DashboardWebhookBody } from '../../dashboard.ts';
import { DeliveriesQuery, DeliveryDetail, DeliveryList, DeliveryRow, WebhookSecretResponse } from '../../webhooks.ts';
import { CURRENT_READ, type Operations } from '../operation.ts';
import { CSRF_NOTE, MANAGE, URL_FOR_VIEWERS, common, csrfHeaders, readErrors, writeErrors } from './common.ts';
import { FAILURE_VOCABULARY } from '../webhooks.ts';

/** Control plane: an environment's webhook URL, signing secret and delivery ledger. */
export const dashboardWebhookOperations = {
  dashboardGetWebhook: {
    method: 'GET',
    url: '/v1/dashboard/environments/:envId/webhook',
    schema: {
      ...common,
      operationId: 'dashboardGetWebhook',
      summary: 'The webhook settings of an environment',
      description: 'The active URL (null: delivery is off) and whether a signing secret exists. Any member.' + URL_FOR_VIEWERS,
      params: DashboardEnvParams,
      response: { 200: DashboardWebhook, ...readErrors },
    },
  },
  dashboardDeployWebhook: {
    method: 'PUT',
    url: '/v1/dashboard/environments/:envId/webhook',
    schema: {
      ...common,
      operationId: 'dashboardDeployWebhook',
      summary: 'Deploy the webhook URL',
      description:
        'Deploys and activates a configuration with this URL (null turns delivery off), keeping the active ' +
        'channel access and limits: the same deployment as PUT /v1/config, so every gateway applies it at once. ' +
        'The URL is checked first by the same rules; a refused URL is 400 `invalid_request` whose reason names the ' +
        'rule, and nothing is deployed. The first deploy with a URL creates the signing secret.' +
        MANAGE +
        CSRF_NOTE,
      headers: csrfHeaders,
      params: DashboardEnvParams,
      body: DashboardWebhookBody,
      response: { 200: DashboardWebhook, ...writeErrors },
    },
  },
  dashboardRevealWebhookSecret: {
    method: 'GET',
    url: '/v1/dashboard/environments/:envId/webhook/secret',
    schema: {
      ...common,
      operationId: 'dashboardRevealWebhookSecret',
      summary: 'Reveal the webhook signing secret',
      description:
        'Each reveal is recorded in the audit log (`webhook.secret_revealed`, without the secret). 404 ' +
        '`webhooks_not_configured` before the first deploy with a URL.' +
        MANAGE,
      params: DashboardEnvParams,
      response: { 200: WebhookSecretResponse, ...readErrors },
    },
  },
  dashboardRotateWebhookSecret: {
    method: 'POST',
    url: '/v1/dashboard/environments/:envId/webhook/secret/rotate',
    schema: {
      ...common,
      operationId: 'dashboardRotateWebhookSecret',
      summary: 'Rotate the webhook signing secret',
      description:
        'As POST /v1/webhooks/secret/rotate: answers the new secret; for 24 h deliveries carry both signatures. 404 ' +
        '`webhooks_not_configured` when no secret exists yet. Takes no body.' +
        MANAGE +
        CSRF_NOTE,
      headers: csrfHeaders,
      params: DashboardEnvParams,
      response: { 200: WebhookSecretResponse, ...writeErrors },
    },
  },
  dashboardListDeliveries: {
    method: 'GET',
    url: '/v1/dashboard/environments/:envId/webhook/deliveries',
    schema: {
      ...common,
      operationId: 'dashboardListDeliveries',
      summary: 'The webhook delivery ledger',
      description:
        "Newest first. `status` and `endpointId` (an endpoint's id, or `default` for the configuration's URL) filter; " +
        "`limit` default 50, maximum 500; `cursor` is the previous page's `nextCursor`. Any member." +
        URL_FOR_VIEWERS +
        ' ' +
        FAILURE_VOCABULARY +
        CURRENT_READ,
      params: DashboardEnvParams,
      querystring: DeliveriesQuery,
      response: { 200: DeliveryList, ...readErrors },
    },
  },
  dashboardGetDelivery: {
    method: 'GET',
    url: '/v1/dashboard/environments/:envId/webhook/deliveries/:deliveryId',
    schema: {
      ...common,
      operationId: 'dashboardGetDelivery',
      summary: 'One webhook delivery with its attempt log',
      description: '404 for a delivery of another environment. Any member.' + URL_FOR_VIEWERS + ' ' + FAILURE_VOCABULARY + CURRENT_READ,
      params: DashboardDeliveryParams,
      response: { 200: DeliveryDetail, ...readErrors },
    },
  },
  dashboardRetryDelivery: {
    method: 'POST',
    url: '/v1/dashboard/environments/:envId/webhook/deliveries/:deliveryId/retry',
    schema: {
      ...common,
      operationId: 'dashboardRetryDelivery',
      summary: 'Retry a dropped delivery now',
      description:
        'As POST /v1/webhooks/deliveries/{deliveryId}/retry: one immediate attempt (status back to `pending`). A ' +
        'delivery that is not `dropped`: 400 `invalid_request` (a `cancelled` one, whose message was retracted or ' +
        'deleted, is never sent again). Takes no body.' +
        MANAGE +
        CSRF_NOTE,
      headers: csrfHeaders,
      params: DashboardDeliveryParams,
      response: { 200: DeliveryRow, ...writeErrors },
    },
  },
} as const satisfies Operations;
