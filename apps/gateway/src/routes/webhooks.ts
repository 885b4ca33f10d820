import { getDelivery } from '@rtm/webhooks';
import { webhookOperations } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey } from '@rtm/edge';
import { listDeliveries, retryDelivery } from '../webhooks/ledger.ts';
import { keyActor, revealWebhookSecret, rotateWebhookSecretAudited } from '../webhooks/secrets.ts';

/**
 * Control plane: the signing secret (read, rotate; each audited with the key as the actor) and
 * the delivery ledger (list, one, retry).
 * Every query is scoped by the environment of the secret key: another environment's rows are
 * `not_found`, never visible.
 */
export async function webhookRoutes(app: ZodApp, deps: GatewayDeps) {
  const secured = { onRequest: requireSecretKey(deps) };

  app.route({
    ...webhookOperations.getWebhookSecret,
    ...secured,
    handler: async (request) => revealWebhookSecret(deps, keyActor(request), keyAuth(request).environmentId),
  });

  app.route({
    ...webhookOperations.rotateWebhookSecret,
    ...secured,
    handler: async (request) => rotateWebhookSecretAudited(deps, keyActor(request), keyAuth(request).environmentId),
  });

  app.route({
    ...webhookOperations.listDeliveries,
    ...secured,
    handler: async (request) => listDeliveries(deps, keyAuth(request).environmentId, request.query),
  });

  app.route({
    ...webhookOperations.getDelivery,
    ...secured,
    handler: async (request) => deps.reads.current('ledger', (db) => getDelivery(db, keyAuth(request).environmentId, request.params.deliveryId)),
  });

  app.route({
    ...webhookOperations.retryDelivery,
    ...secured,
    handler: async (request) => retryDelivery(deps, keyAuth(request).environmentId, request.params.deliveryId),
  });
}
