import { recordAudit } from '@rtm/accounts';
import { getDelivery, hasWebhookSecret, redactWebhookUrl } from '@rtm/webhooks';
import { dashboardWebhookOperations } from '@rtm/schemas';
import type { ZodApp } from '../../http/public-app.ts';
import type { GatewayDeps } from '../../deps.ts';
import { dashboardActor } from '../../dashboard/session-auth.ts';
import { activeConfig, checkedWebhookUrl, deployConfig } from '../../config/deploy.ts';
import { listDeliveries, retryDelivery } from '../../webhooks/ledger.ts';
import { revealWebhookSecret, rotateWebhookSecretAudited } from '../../webhooks/secrets.ts';
import { webhookReader } from '../../webhooks/url-visibility.ts';
import { sessionRoute } from './common.ts';

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

/**
 * Control plane: an environment's webhook URL, signing secret and delivery ledger. A member
 * without `manage` (a viewer) reads each URL redacted (redactWebhookUrl).
 */
export async function dashboardWebhookRoutes(app: ZodApp, deps: GatewayDeps) {
  const accounts = deps.dashboard.accounts;
  const secured = sessionRoute(deps);
  const reader = (request: Parameters<typeof dashboardActor>[0], envId: string) => webhookReader(deps, request, envId);

  app.route({
    ...dashboardWebhookOperations.dashboardGetWebhook,
    ...secured,
    handler: async (request) => {
      const { environmentId, shown } = await reader(request, request.params.envId);
      return shown(await webhookView(deps, environmentId));
    },
  });

  app.route({
    ...dashboardWebhookOperations.dashboardDeployWebhook,
    ...secured,
    handler: async (request) => {
      const actor = dashboardActor(request);
      const { environmentId, organizationId } = await accounts.access.environmentAccess(actor, request.params.envId, 'manage');
      const url = request.body.url === null ? null : checkedWebhookUrl(deps, request.body.url, 'invalid_request');
      // a change of the active configuration, read under the deploy's lock: a PATCH or another
      // deploy at the same moment is kept, not overwritten by a copy read before it committed
      await deployConfig(
        deps,
        environmentId,
        (current) => ({
          webhooks: url === null ? null : { url },
          channels: current?.channels ?? { access: 'open' },
          ...(current?.limits !== undefined && { limits: current.limits }),
          ...(current?.namespaces !== undefined && { namespaces: current.namespaces }),
        }),
        (client, deploymentId) =>
          recordAudit(client, actor, {
            organizationId,
            action: 'webhook.deployed',
            targetType: 'environment',
            targetId: environmentId,
            details: { url: url === null ? null : redactWebhookUrl(url), deploymentId },
          }),
      );
      return webhookView(deps, environmentId);
    },
  });

  app.route({
    ...dashboardWebhookOperations.dashboardRevealWebhookSecret,
    ...secured,
    handler: async (request) => {
      const actor = dashboardActor(request);
      const { environmentId } = await accounts.access.environmentAccess(actor, request.params.envId, 'manage');
      return revealWebhookSecret(deps, actor, environmentId);
    },
  });

  app.route({
    ...dashboardWebhookOperations.dashboardRotateWebhookSecret,
    ...secured,
    handler: async (request) => {
      const actor = dashboardActor(request);
      const { environmentId } = await accounts.access.environmentAccess(actor, request.params.envId, 'manage');
      return rotateWebhookSecretAudited(deps, actor, environmentId);
    },
  });

  app.route({
    ...dashboardWebhookOperations.dashboardListDeliveries,
    ...secured,
    handler: async (request) => {
      const { environmentId, shown } = await reader(request, request.params.envId);
      const page = await listDeliveries(deps, environmentId, request.query);
      return { ...page, data: page.data.map(shown) };
    },
  });

  app.route({
    ...dashboardWebhookOperations.dashboardGetDelivery,
    ...secured,
    handler: async (request) => {
      const { environmentId, shown } = await reader(request, request.params.envId);
      return shown(await deps.reads.current('ledger', (db) => getDelivery(db, environmentId, request.params.deliveryId)));
    },
  });

  app.route({
    ...dashboardWebhookOperations.dashboardRetryDelivery,
    ...secured,
    handler: async (request) => {
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
  });
}
