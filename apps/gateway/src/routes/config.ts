import { configOperations } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey } from '@rtm/edge';
import { activeConfig, deployConfig, shownConfig } from '../config/deploy.ts';
import { configOfBody, patchedConfig } from '../config/config-body.ts';

/**
 * Control plane: `PUT /v1/config` (deploy and activate a whole configuration), `PATCH /v1/config`
 * (merge into the active one, under the environment's deploy lock) and `GET /v1/config` (the active one).
 */
export async function configRoutes(app: ZodApp, deps: GatewayDeps) {
  app.route({
    ...configOperations.deployConfig,
    onRequest: requireSecretKey(deps),
    handler: async (request) => deployConfig(deps, keyAuth(request).environmentId, configOfBody(deps, request.body)),
  });

  app.route({
    ...configOperations.patchConfig,
    onRequest: requireSecretKey(deps),
    handler: async (request) => deployConfig(deps, keyAuth(request).environmentId, (active) => patchedConfig(deps, active, request.body)),
  });

  app.route({
    ...configOperations.getConfig,
    onRequest: requireSecretKey(deps),
    handler: async (request) => {
      const active = await activeConfig(deps, keyAuth(request).environmentId);
      if (!active) return { deploymentId: null, activatedAt: null, config: shownConfig({ webhooks: null, channels: { access: 'open' } }) };
      return { deploymentId: active.id, activatedAt: active.activatedAt.toISOString(), config: shownConfig(active.config) };
    },
  });
}
