import { publishLog } from '@rtm/bus';
import { channelSettingsOperations } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { announceAccessChange, keyAuth, recheckChannel, requireSecretKey } from '@rtm/edge';
import { setChannelAccess } from '@rtm/channels';

/** Control plane: `PUT /v1/channels/{channelId}` (per-channel access override). */
export async function channelSettingsRoutes(app: ZodApp, deps: GatewayDeps) {
  app.route({
    ...channelSettingsOperations.setChannelAccess,
    onRequest: requireSecretKey(deps),
    handler: async (request) => {
      const { environmentId } = keyAuth(request);
      const { channelId } = request.params;
      const { access } = request.body;
      await setChannelAccess(deps.pool, environmentId, channelId, access);
      await announceAccessChange(deps, environmentId);
      if (access === 'members') recheckChannel(deps, environmentId, channelId);
      publishLog(deps.nc, deps.subjects, environmentId, 'info', 'channel.access_set', { channelId, access });
      return { channelId, access };
    },
  });
}
