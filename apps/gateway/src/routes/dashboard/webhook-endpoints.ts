import { publishLog } from '@rtm/bus';
import { createEndpoint, deleteEndpoint, getEndpoint, getWebhookTask, redactWebhookUrl, sendTestEvent, startRecovery, updateEndpoint } from '@rtm/webhooks';
import { dashboardWebhookEndpointOperations as ops } from '@rtm/schemas';
import type { ZodApp } from '../../http/public-app.ts';
import type { GatewayDeps } from '../../deps.ts';
import { dashboardActor } from '../../dashboard/session-auth.ts';
import { EVENT_TYPE_CATALOGUE, listEndpointPage, withCheckedUrl } from '../../webhooks/endpoints.ts';
import { endpointAudit, revealEndpointSecret, rotateEndpointSecretAudited } from '../../webhooks/secrets.ts';
import { webhookReader } from '../../webhooks/url-visibility.ts';
import { sessionRoute } from './common.ts';

/**
 * Control plane: an environment's webhook endpoints for a signed-in member, the same domain
 * functions as /v1/webhook-endpoints (libs/webhooks) scoped by the session's environment access.
 * Reads need membership, and a member without `manage` (a viewer) reads each URL redacted
 * (redactWebhookUrl); changes, secrets, test events and recoveries need `manage` (admins and
 * owners), and each writes its audit entry with the session's user as the actor, inside the
 * change's transaction (a secret's reveal: after it is read, before it is shown).
 */
export async function dashboardWebhookEndpointRoutes(app: ZodApp, deps: GatewayDeps) {
  const accounts = deps.dashboard.accounts;
  const secured = sessionRoute(deps);
  const log = (environmentId: string, event: string, fields: Record<string, unknown>) =>
    publishLog(deps.nc, deps.subjects, environmentId, 'info', event, fields);
  const reader = (request: Parameters<typeof dashboardActor>[0], envId: string) => webhookReader(deps, request, envId);
  const manager = async (request: Parameters<typeof dashboardActor>[0], envId: string) => {
    const actor = dashboardActor(request);
    const access = await accounts.access.environmentAccess(actor, envId, 'manage');
    return { actor, environmentId: access.environmentId };
  };

  app.route({
    ...ops.dashboardListWebhookEventTypes,
    ...secured,
    handler: async (request) => {
      await reader(request, request.params.envId);
      return EVENT_TYPE_CATALOGUE;
    },
  });

  app.route({
    ...ops.dashboardListWebhookEndpoints,
    ...secured,
    handler: async (request) => {
      const { environmentId, shown } = await reader(request, request.params.envId);
      const page = await listEndpointPage(deps, environmentId, request.query);
      return { ...page, data: page.data.map(shown) };
    },
  });

  app.route({
    ...ops.dashboardCreateWebhookEndpoint,
    ...secured,
    handler: async (request, reply) => {
      const { actor, environmentId } = await manager(request, request.params.envId);
      const body = withCheckedUrl(deps, request.body);
      const endpoint = await createEndpoint(deps.pool, deps.secretKeyring, environmentId, body, endpointAudit(actor, environmentId, 'created'));
      log(environmentId, 'webhook.endpoint_created', { endpointId: endpoint.id, url: redactWebhookUrl(body.url) });
      return reply.code(201).send(endpoint);
    },
  });

  app.route({
    ...ops.dashboardGetWebhookEndpoint,
    ...secured,
    handler: async (request) => {
      const { environmentId, shown } = await reader(request, request.params.envId);
      return shown(await getEndpoint(deps.pool, environmentId, request.params.endpointId));
    },
  });

  app.route({
    ...ops.dashboardUpdateWebhookEndpoint,
    ...secured,
    handler: async (request) => {
      const { actor, environmentId } = await manager(request, request.params.envId);
      const change = withCheckedUrl(deps, request.body);
      const endpoint = await updateEndpoint(
        deps.pool,
        environmentId,
        request.params.endpointId,
        change,
        endpointAudit(actor, environmentId, 'updated', { changed: Object.keys(request.body).sort(), disabled: request.body.disabled }),
      );
      log(environmentId, 'webhook.endpoint_updated', { endpointId: endpoint.id, disabled: endpoint.disabled });
      return endpoint;
    },
  });

  app.route({
    ...ops.dashboardDeleteWebhookEndpoint,
    ...secured,
    handler: async (request, reply) => {
      const { actor, environmentId } = await manager(request, request.params.envId);
      await deleteEndpoint(deps.pool, environmentId, request.params.endpointId, endpointAudit(actor, environmentId, 'deleted'));
      log(environmentId, 'webhook.endpoint_deleted', { endpointId: request.params.endpointId });
      return reply.code(204).send(null);
    },
  });

  app.route({
    ...ops.dashboardRevealWebhookEndpointSecret,
    ...secured,
    handler: async (request) => {
      const { actor, environmentId } = await manager(request, request.params.envId);
      return revealEndpointSecret(deps, actor, environmentId, request.params.endpointId);
    },
  });

  app.route({
    ...ops.dashboardRotateWebhookEndpointSecret,
    ...secured,
    handler: async (request) => {
      const { actor, environmentId } = await manager(request, request.params.envId);
      return rotateEndpointSecretAudited(deps, actor, environmentId, request.params.endpointId);
    },
  });

  app.route({
    ...ops.dashboardTestWebhookEndpoint,
    ...secured,
    handler: async (request, reply) => {
      const { actor, environmentId } = await manager(request, request.params.envId);
      const eventType = request.body?.eventType ?? 'webhook.test';
      const sent = await sendTestEvent(
        deps.pool,
        environmentId,
        request.params.endpointId,
        eventType,
        endpointAudit(actor, environmentId, 'tested', { eventType }),
      );
      return reply.code(202).send(sent);
    },
  });

  app.route({
    ...ops.dashboardRecoverWebhookEndpoint,
    ...secured,
    handler: async (request, reply) => {
      const { actor, environmentId } = await manager(request, request.params.envId);
      const window = { since: request.body.since, until: request.body.until ?? null };
      const taskId = await startRecovery(deps.pool, environmentId, request.params.endpointId, request.body, (client, endpoint, id) =>
        endpointAudit(actor, environmentId, 'recovery_started', { taskId: id, ...window })(client, endpoint),
      );
      log(environmentId, 'webhook.recovery_started', { endpointId: request.params.endpointId, taskId });
      return reply.code(202).header('location', `/v1/dashboard/environments/${environmentId}/webhook-tasks/${taskId}`).send({ taskId });
    },
  });

  app.route({
    ...ops.dashboardGetWebhookTask,
    ...secured,
    handler: async (request) => {
      const { environmentId } = await reader(request, request.params.envId);
      return getWebhookTask(deps.pool, environmentId, request.params.taskId);
    },
  });
}
