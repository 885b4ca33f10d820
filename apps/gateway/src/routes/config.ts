import { configOperations } from '@rtm/schemas';
import { cleanOverrides } from '@rtm/limits';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey } from '@rtm/edge';
import { activeConfig, checkedWebhookUrl, deployConfig, shownConfig } from '../config/deploy.ts';

/** Control plane: `PUT /v1/config` (deploy and activate) and `GET /v1/config` (the active one). */
export async function configRoutes(app: ZodApp, deps: GatewayDeps) {
  app.route({
    ...configOperations.deployConfig,
    onRequest: requireSecretKey(deps),
    handler: async (request) => {
      const { environmentId } = keyAuth(request);
      const webhooks = request.body.webhooks ? { url: checkedWebhookUrl(deps, request.body.webhooks.url, 'invalid_webhook_url') } : null;
      return deployConfig(deps, environmentId, {
        webhooks,
        // presence settings stored only when given: a later change of their default reaches the environment
        channels: { access: request.body.channels?.access ?? 'open', ...presenceSettings(request.body.channels) },
        limits: cleanOverrides(request.body.limits),
        namespaces: request.body.namespaces ?? [],
      });
    },
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

/** The presence settings a deploy gave (absent ones take the defaults when read). */
function presenceSettings(channels: { presence?: boolean; joinLeave?: boolean } | undefined) {
  const settings: { presence?: boolean; joinLeave?: boolean } = {};
  if (channels?.presence !== undefined) settings.presence = channels.presence;
  if (channels?.joinLeave !== undefined) settings.joinLeave = channels.joinLeave;
  return settings;
}
