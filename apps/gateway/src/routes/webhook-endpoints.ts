import { publishLog } from '@rtm/bus';
import { createEndpoint, deleteEndpoint, getEndpoint, getWebhookTask, redactWebhookUrl, sendTestEvent, startRecovery, updateEndpoint } from '@rtm/webhooks';
import { webhookEndpointOperations as ops } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey } from '@rtm/edge';
import { EVENT_TYPE_CATALOGUE, listEndpointPage, withCheckedUrl } from '../webhooks/endpoints.ts';
import { keyActor, revealEndpointSecret, rotateEndpointSecretAudited } from '../webhooks/secrets.ts';

/**
 * Control plane: an environment's webhook endpoints (libs/webhooks/src/endpoints.ts), their
 * secrets, test events and recoveries, the event-type catalogue and the tasks. Scoped by the
 * environment of the secret key; another environment's endpoint or task is `not_found`. The key
 * reads each URL whole; revealing and rotating a secret are audited with the key as the actor.
 */
export async function webhookEndpointRoutes(app: ZodApp, deps: GatewayDeps) {
  const secured = { onRequest: requireSecretKey(deps) };
  const log = (environmentId: string, event: string, fields: Record<string, unknown>) =>
    publishLog(deps.nc, deps.subjects, environmentId, 'info', event, fields);

  app.route({ ...ops.listWebhookEventTypes, ...secured, handler: async () => EVENT_TYPE_CATALOGUE });

  app.route({
    ...ops.createWebhookEndpoint,
    ...secured,
    handler: async (request, reply) => {
      const { environmentId } = keyAuth(request);
      const body = withCheckedUrl(deps, request.body);
      const endpoint = await createEndpoint(deps.pool, deps.secretKeyring, environmentId, body);
      log(environmentId, 'webhook.endpoint_created', { endpointId: endpoint.id, url: redactWebhookUrl(body.url) });
      return reply.code(201).send(endpoint);
    },
  });

  app.route({
    ...ops.listWebhookEndpoints,
    ...secured,
    handler: async (request) => {
      return listEndpointPage(deps, keyAuth(request).environmentId, request.query);
    },
  });

  app.route({
    ...ops.getWebhookEndpoint,
    ...secured,
    handler: async (request) => getEndpoint(deps.pool, keyAuth(request).environmentId, request.params.endpointId),
  });

  app.route({
    ...ops.updateWebhookEndpoint,
    ...secured,
    handler: async (request) => {
      const { environmentId } = keyAuth(request);
      const change = withCheckedUrl(deps, request.body);
      const endpoint = await updateEndpoint(deps.pool, environmentId, request.params.endpointId, change);
      log(environmentId, 'webhook.endpoint_updated', { endpointId: endpoint.id, disabled: endpoint.disabled });
      return endpoint;
    },
  });

  app.route({
    ...ops.deleteWebhookEndpoint,
    ...secured,
    handler: async (request, reply) => {
      const { environmentId } = keyAuth(request);
      await deleteEndpoint(deps.pool, environmentId, request.params.endpointId);
      log(environmentId, 'webhook.endpoint_deleted', { endpointId: request.params.endpointId });
      return reply.code(204).send(null);
    },
  });

  app.route({
    ...ops.getWebhookEndpointSecret,
    ...secured,
    handler: async (request) => revealEndpointSecret(deps, keyActor(request), keyAuth(request).environmentId, request.params.endpointId),
  });

  app.route({
    ...ops.rotateWebhookEndpointSecret,
    ...secured,
    handler: async (request) => rotateEndpointSecretAudited(deps, keyActor(request), keyAuth(request).environmentId, request.params.endpointId),
  });

  app.route({
    ...ops.testWebhookEndpoint,
    ...secured,
    handler: async (request, reply) => {
      const sent = await sendTestEvent(deps.pool, keyAuth(request).environmentId, request.params.endpointId, request.body?.eventType);
      return reply.code(202).send(sent);
    },
  });

  app.route({
    ...ops.recoverWebhookEndpoint,
    ...secured,
    handler: async (request, reply) => {
      const { environmentId } = keyAuth(request);
      const taskId = await startRecovery(deps.pool, environmentId, request.params.endpointId, request.body);
      log(environmentId, 'webhook.recovery_started', { endpointId: request.params.endpointId, taskId });
      return reply.code(202).header('location', `/v1/webhook-tasks/${taskId}`).send({ taskId });
    },
  });

  app.route({
    ...ops.getWebhookTask,
    ...secured,
    handler: async (request) => getWebhookTask(deps.pool, keyAuth(request).environmentId, request.params.taskId),
  });
}
