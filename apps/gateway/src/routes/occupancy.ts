/**
 * `GET /v1/channels/{channelId}/occupancy`: a channel's live subscriptions and distinct users over
 * every gateway, read from this gateway's index of the presence records (libs/edge presence/presence.ts):
 * no Postgres read, no bucket listing while the index is live.
 */
import { controlOccupancyOperations, realtimeOccupancyOperations } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { authorize, keyAuth, namespaceOf, requireSecretKey, requireUser, userAuth } from '@rtm/edge';
import { presenceOff } from '@rtm/presence';

/** The counts, or `forbidden` where the namespace does not track presence. */
export async function occupancyOf(deps: GatewayDeps, environmentId: string, channelId: string) {
  if (!(await namespaceOf(deps, environmentId, channelId)).presence) throw presenceOff();
  return { channelId, ...(await deps.sessions.presence.occupancy(environmentId, channelId)) };
}

/** Realtime edge: a user allowed to read the channel, with the `presence` capability. */
export async function occupancyRoutes(app: ZodApp, deps: GatewayDeps) {
  app.route({
    ...realtimeOccupancyOperations.getOccupancy,
    onRequest: requireUser(deps),
    handler: async (request) => {
      const auth = userAuth(request);
      await authorize(deps, auth, request.params.channelId, 'presence');
      return occupancyOf(deps, auth.environmentId, request.params.channelId);
    },
  });
}

/** Control plane: the same counts for the tenant's backend. */
export async function controlOccupancyRoutes(app: ZodApp, deps: GatewayDeps) {
  app.route({
    ...controlOccupancyOperations.getOccupancy,
    onRequest: requireSecretKey(deps),
    handler: async (request) => occupancyOf(deps, keyAuth(request).environmentId, request.params.channelId),
  });
}
