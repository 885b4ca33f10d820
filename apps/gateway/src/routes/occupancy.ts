/**
 * `GET /v1/channels/{channelId}/occupancy`: a channel's live subscriptions and distinct users over
 * every gateway, read from this gateway's index of the presence records (presence/presence.ts):
 * no Postgres read, no bucket listing while the index is live.
 */
import { ChannelParams, ErrorBody, Occupancy } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey, requireUser, userAuth } from '../auth/authenticate.ts';
import { authorize, namespaceOf } from '../access/channel-access.ts';
import { presenceOff } from '../presence/occupancy-frames.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody, 503: ErrorBody };

const DESCRIPTION =
  'Live counts of the channel over every gateway: `connections` (channel sockets and `/v1/connect` subscriptions) and ' +
  '`users` (distinct users among them). A change shows within about 2 s; a gateway that dies stops counting after ' +
  'PRESENCE_TTL_MS (default 15 s). Counts come from presence: where the channel\'s namespace turns `presence` off the ' +
  'request is refused (403 `forbidden`). A user token needs read access to the channel and the `presence` capability ' +
  '(403 `forbidden` or `banned` otherwise); each read counts against `userRosterReadsPerSecond`.';

/** The counts, or `forbidden` where the namespace does not track presence. */
export async function occupancyOf(deps: GatewayDeps, environmentId: string, channelId: string) {
  if (!(await namespaceOf(deps, environmentId, channelId)).presence) throw presenceOff();
  return { channelId, ...(await deps.sessions.presence.occupancy(environmentId, channelId)) };
}

/** Realtime edge: a user allowed to read the channel, with the `presence` capability. */
export async function occupancyRoutes(app: ZodApp, deps: GatewayDeps) {
  app.get(
    '/v1/channels/:channelId/occupancy',
    {
      onRequest: requireUser(deps),
      schema: {
        operationId: 'getOccupancy',
        summary: "Read a channel's occupancy",
        description: DESCRIPTION,
        tags: ['membership'],
        security: [{ userToken: [] }],
        params: ChannelParams,
        response: { 200: Occupancy, ...errors },
      },
    },
    async (request) => {
      const auth = userAuth(request);
      await authorize(deps, auth, request.params.channelId, 'presence');
      return occupancyOf(deps, auth.environmentId, request.params.channelId);
    },
  );
}

/** Control plane: the same counts for the tenant's backend. */
export async function controlOccupancyRoutes(app: ZodApp, deps: GatewayDeps) {
  app.get(
    '/v1/channels/:channelId/occupancy',
    {
      onRequest: requireSecretKey(deps),
      schema: {
        operationId: 'getOccupancy',
        summary: "Read a channel's occupancy",
        description: DESCRIPTION,
        tags: ['membership'],
        security: [{ secretKey: [] }],
        params: ChannelParams,
        response: { 200: Occupancy, ...errors },
      },
    },
    async (request) => occupancyOf(deps, keyAuth(request).environmentId, request.params.channelId),
  );
}
