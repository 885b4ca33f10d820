import { publishLog } from '@rtm/bus';
import {
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  getWebhookTask,
  listEndpoints,
  readEndpointSecret,
  rotateEndpointSecret,
  sendTestEvent,
  startRecovery,
  updateEndpoint,
} from '@rtm/webhooks';
import { ENDPOINT_ID_PATTERN, webhookEndpointOperations as ops, webhookEventCatalogue } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey } from '../auth/authenticate.ts';
import { checkedWebhookUrl } from '../config/deploy.ts';
import { decodeCursor, encodeCursor } from '../http/list-cursor.ts';

const isEndpointId = (id: string) => ENDPOINT_ID_PATTERN.test(id);

/**
 * Control plane: an environment's webhook endpoints (libs/webhooks/src/endpoints.ts), their
 * secrets, test events and recoveries, the event-type catalogue and the tasks. Scoped by the
 * environment of the secret key; another environment's endpoint or task is `not_found`.
 */
export async function webhookEndpointRoutes(app: ZodApp, deps: GatewayDeps) {
  const secured = { onRequest: requireSecretKey(deps) };
  const log = (environmentId: string, event: string, fields: Record<string, unknown>) =>
    publishLog(deps.nc, deps.subjects, environmentId, 'info', event, fields);
  const catalogue = { data: webhookEventCatalogue() };

  app.route({ ...ops.listWebhookEventTypes, ...secured, handler: async () => catalogue });

  app.route({
    ...ops.createWebhookEndpoint,
    ...secured,
    handler: async (request, reply) => {
      const { environmentId } = keyAuth(request);
      const url = checkedWebhookUrl(deps, request.body.url, 'invalid_webhook_url');
      const endpoint = await createEndpoint(deps.pool, deps.secretKeyring, environmentId, { ...request.body, url });
      log(environmentId, 'webhook.endpoint_created', { endpointId: endpoint.id, url });
      return reply.code(201).send(endpoint);
    },
  });

  app.route({
    ...ops.listWebhookEndpoints,
    ...secured,
    handler: async (request) => {
      const after = request.query.cursor === undefined ? null : decodeCursor(request.query.cursor, isEndpointId);
      const { data, more } = await listEndpoints(deps.pool, keyAuth(request).environmentId, { after, limit: request.query.limit ?? 50 });
      return { data, nextCursor: more ? encodeCursor(data[data.length - 1]!.id) : null };
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
      const change = { ...request.body, ...(request.body.url !== undefined && { url: checkedWebhookUrl(deps, request.body.url, 'invalid_webhook_url') }) };
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
    handler: async (request) => ({
      secret: await readEndpointSecret(deps.pool, deps.secretKeyring, keyAuth(request).environmentId, request.params.endpointId),
    }),
  });

  app.route({
    ...ops.rotateWebhookEndpointSecret,
    ...secured,
    handler: async (request) => {
      const { environmentId } = keyAuth(request);
      const secret = await rotateEndpointSecret(deps.pool, deps.secretKeyring, environmentId, request.params.endpointId);
      log(environmentId, 'webhook.secret_rotated', { endpointId: request.params.endpointId });
      return { secret };
    },
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
