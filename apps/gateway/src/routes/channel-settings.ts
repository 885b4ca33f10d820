import { publishLog } from '@rtm/bus';
import { ChannelParams, ChannelSettingsBody, ChannelSettings, ErrorBody } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey } from '../auth/authenticate.ts';
import { recheckChannel } from '../kicks/kicks.ts';
import { announceAccessChange } from '../access/access-cache.ts';
import { setChannelAccess } from '@rtm/channels';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };

/** Control plane: `PUT /v1/channels/{channelId}` (per-channel access override). */
export async function channelSettingsRoutes(app: ZodApp, deps: GatewayDeps) {
  app.put(
    '/v1/channels/:channelId',
    {
      onRequest: requireSecretKey(deps),
      schema: {
        operationId: 'setChannelAccess',
        summary: 'Set a channel\'s access',
        description:
          'Secret key. `open`: any user token of the environment may read and publish; `members`: only members. ' +
          'Overrides the channel namespace\'s `access` and the environment\'s deployed default for this channel; the ' +
          'channel is created if it does not exist ' +
          'yet. Switching to `members` closes the live sockets of non-members on every gateway with 4403.',
        tags: ['membership'],
        security: [{ secretKey: [] }],
        params: ChannelParams,
        body: ChannelSettingsBody,
        response: { 200: ChannelSettings, ...errors },
      },
    },
    async (request) => {
      const { environmentId } = keyAuth(request);
      const { channelId } = request.params;
      const { access } = request.body;
      await setChannelAccess(deps.pool, environmentId, channelId, access);
      await announceAccessChange(deps, environmentId);
      if (access === 'members') recheckChannel(deps, environmentId, channelId);
      publishLog(deps.nc, deps.subjects, environmentId, 'info', 'channel.access_set', { channelId, access });
      return { channelId, access };
    },
  );
}
