import { ServiceError } from '@rtm/errors';
import { recordAudit } from '@rtm/accounts';
import { publishLog } from '@rtm/bus';
import { getDelivery, hasWebhookSecret, readWebhookSecret, rotateWebhookSecret } from '@rtm/webhooks';
import {
  DashboardDeliveryParams,
  DashboardEnvParams,
  DashboardWebhook,
  DashboardWebhookBody,
  DeliveriesQuery,
  DeliveryDetail,
  DeliveryList,
  DeliveryRow,
  WebhookSecretResponse,
  FAILURE_VOCABULARY,
} from '@rtm/schemas';
import type { ZodApp } from '../../http/public-app.ts';
import type { GatewayDeps } from '../../deps.ts';
import { dashboardActor } from '../../dashboard/session-auth.ts';
import { activeConfig, checkedWebhookUrl, deployConfig } from '../../config/deploy.ts';
import { listDeliveries, retryDelivery } from '../../webhooks/ledger.ts';
import { CSRF_NOTE, SESSION_SECURITY, TAGS, csrfHeaders, readErrors, sessionRoute, writeErrors } from './common.ts';

const MANAGE = ' Admins and owners (403 for viewers).';

/** The active webhook settings of an environment. */
async function webhookView(deps: GatewayDeps, environmentId: string) {
  const active = await activeConfig(deps, environmentId);
  return {
    url: active?.config.webhooks?.url ?? null,
    deploymentId: active?.id ?? null,
    activatedAt: active ? active.activatedAt.toISOString() : null,
    secretConfigured: await hasWebhookSecret(deps.pool, environmentId),
  };
}

/** Control plane: an environment's webhook URL, signing secret and delivery ledger. */
export async function dashboardWebhookRoutes(app: ZodApp, deps: GatewayDeps) {
  const accounts = deps.dashboard.accounts;
  const secured = sessionRoute(deps);
  const common = { tags: TAGS, security: SESSION_SECURITY };

  app.get(
    '/v1/dashboard/environments/:envId/webhook',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardGetWebhook',
        summary: 'The webhook settings of an environment',
        description: 'The active URL (null: delivery is off) and whether a signing secret exists. Any member.',
        params: DashboardEnvParams,
        response: { 200: DashboardWebhook, ...readErrors },
      },
    },
    async (request) => {
      const { environmentId } = await accounts.access.environmentAccess(dashboardActor(request), request.params.envId, 'read');
      return webhookView(deps, environmentId);
    },
  );

  app.put(
    '/v1/dashboard/environments/:envId/webhook',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardDeployWebhook',
        summary: 'Deploy the webhook URL',
        description:
          'Deploys and activates a configuration with this URL (null turns delivery off), keeping the active ' +
          'channel access and limits: the same deployment as PUT /v1/config, so every gateway applies it at once. ' +
          'The URL is checked first by the same rules; a refused URL is 400 `invalid_request` whose reason names the ' +
          'rule, and nothing is deployed. The first deploy with a URL creates the signing secret.' + MANAGE + CSRF_NOTE,
        headers: csrfHeaders,
        params: DashboardEnvParams,
        body: DashboardWebhookBody,
        response: { 200: DashboardWebhook, ...writeErrors },
      },
    },
    async (request) => {
      const actor = dashboardActor(request);
      const { environmentId, organizationId } = await accounts.access.environmentAccess(actor, request.params.envId, 'manage');
      const url = request.body.url === null ? null : checkedWebhookUrl(deps, request.body.url, 'invalid_request');
      const current = (await activeConfig(deps, environmentId))?.config;
      await deployConfig(
        deps,
        environmentId,
        {
          webhooks: url === null ? null : { url },
          channels: current?.channels ?? { access: 'open' },
          ...(current?.limits !== undefined && { limits: current.limits }),
          ...(current?.namespaces !== undefined && { namespaces: current.namespaces }),
        },
        (client, deploymentId) =>
          recordAudit(client, actor, {
            organizationId,
            action: 'webhook.deployed',
            targetType: 'environment',
            targetId: environmentId,
            details: { url, deploymentId },
          }),
      );
      return webhookView(deps, environmentId);
    },
  );

  app.get(
    '/v1/dashboard/environments/:envId/webhook/secret',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardRevealWebhookSecret',
        summary: 'Reveal the webhook signing secret',
        description:
          'Each reveal is recorded in the audit log (`webhook.secret_revealed`, without the secret). 404 ' +
          '`webhooks_not_configured` before the first deploy with a URL.' + MANAGE,
        params: DashboardEnvParams,
        response: { 200: WebhookSecretResponse, ...readErrors },
      },
    },
    async (request) => {
      const actor = dashboardActor(request);
      const { environmentId, organizationId } = await accounts.access.environmentAccess(actor, request.params.envId, 'manage');
      const secret = await readWebhookSecret(deps.pool, deps.secretKeyring, environmentId);
      if (secret === null) throw new ServiceError('webhooks_not_configured');
      await recordAudit(deps.pool, actor, {
        organizationId,
        action: 'webhook.secret_revealed',
        targetType: 'environment',
        targetId: environmentId,
      });
      return { secret };
    },
  );

  app.post(
    '/v1/dashboard/environments/:envId/webhook/secret/rotate',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardRotateWebhookSecret',
        summary: 'Rotate the webhook signing secret',
        description:
          'As POST /v1/webhooks/secret/rotate: answers the new secret; for 24 h deliveries carry both signatures. 404 ' +
          '`webhooks_not_configured` when no secret exists yet. Takes no body.' + MANAGE + CSRF_NOTE,
        headers: csrfHeaders,
        params: DashboardEnvParams,
        response: { 200: WebhookSecretResponse, ...writeErrors },
      },
    },
    async (request) => {
      const actor = dashboardActor(request);
      const { environmentId, organizationId } = await accounts.access.environmentAccess(actor, request.params.envId, 'manage');
      const secret = await rotateWebhookSecret(deps.pool, deps.secretKeyring, environmentId);
      if (secret === null) throw new ServiceError('webhooks_not_configured');
      // the rotation commits in its own transaction (shared with the secret-key route)
      await recordAudit(deps.pool, actor, {
        organizationId,
        action: 'webhook.secret_rotated',
        targetType: 'environment',
        targetId: environmentId,
      });
      publishLog(deps.nc, deps.subjects, environmentId, 'info', 'webhook.secret_rotated', {});
      return { secret };
    },
  );

  app.get(
    '/v1/dashboard/environments/:envId/webhook/deliveries',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardListDeliveries',
        summary: 'The webhook delivery ledger',
        description:
          'Newest first. `status` filters; `limit` default 50, maximum 500; `cursor` is the previous page\'s ' +
          '`nextCursor`. Any member. ' + FAILURE_VOCABULARY,
        params: DashboardEnvParams,
        querystring: DeliveriesQuery,
        response: { 200: DeliveryList, ...readErrors },
      },
    },
    async (request) => {
      const { environmentId } = await accounts.access.environmentAccess(dashboardActor(request), request.params.envId, 'read');
      return listDeliveries(deps, environmentId, request.query);
    },
  );

  app.get(
    '/v1/dashboard/environments/:envId/webhook/deliveries/:deliveryId',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardGetDelivery',
        summary: 'One webhook delivery with its attempt log',
        description: '404 for a delivery of another environment. Any member. ' + FAILURE_VOCABULARY,
        params: DashboardDeliveryParams,
        response: { 200: DeliveryDetail, ...readErrors },
      },
    },
    async (request) => {
      const { environmentId } = await accounts.access.environmentAccess(dashboardActor(request), request.params.envId, 'read');
      return getDelivery(deps.pool, environmentId, request.params.deliveryId);
    },
  );

  app.post(
    '/v1/dashboard/environments/:envId/webhook/deliveries/:deliveryId/retry',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardRetryDelivery',
        summary: 'Retry a dropped delivery now',
        description:
          'As POST /v1/webhooks/deliveries/{deliveryId}/retry: one immediate attempt (status back to `pending`). A ' +
          'delivery that is not `dropped`: 400 `invalid_request`. Takes no body.' + MANAGE + CSRF_NOTE,
        headers: csrfHeaders,
        params: DashboardDeliveryParams,
        response: { 200: DeliveryRow, ...writeErrors },
      },
    },
    async (request) => {
      const actor = dashboardActor(request);
      const { environmentId, organizationId } = await accounts.access.environmentAccess(actor, request.params.envId, 'manage');
      return retryDelivery(deps, environmentId, request.params.deliveryId, (client, delivery) =>
        recordAudit(client, actor, {
          organizationId,
          action: 'delivery.retried',
          targetType: 'delivery',
          targetId: delivery.id,
          details: { environmentId, eventType: delivery.eventType, channelId: delivery.channelId },
        }),
      );
    },
  );
}
