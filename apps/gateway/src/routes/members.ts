import { memberOperations, realtimeMemberOperations } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { authorizeModeration, keyAuth, putMember, removeMember, requireSecretKey, requireUser, userAuth } from '@rtm/edge';

/**
 * Channel members: the control plane adds, changes and removes them (`PUT|DELETE
 * /v1/channels/{channelId}/members/{userId}`); on the realtime edge a channel's moderator removes
 * them. One implementation behind both (moderation.ts): kicks, live log, cache invalidation on
 * every gateway. The roster of who is online is roster.ts.
 */
export async function memberRoutes(app: ZodApp, deps: GatewayDeps) {
  app.route({
    ...memberOperations.putMember,
    onRequest: requireSecretKey(deps),
    handler: async (request) => {
      const { environmentId } = keyAuth(request);
      return putMember(deps, environmentId, request.params.channelId, request.params.userId, request.body?.role ?? 'member');
    },
  });

  app.route({
    ...memberOperations.removeMember,
    onRequest: requireSecretKey(deps),
    handler: async (request, reply) => {
      const { environmentId } = keyAuth(request);
      await removeMember(deps, environmentId, request.params.channelId, request.params.userId);
      return reply.code(204).send(null);
    },
  });
}

/** Realtime edge: a channel's moderator removes a member (a moderator may not remove a moderator). */
export async function realtimeMemberRoutes(app: ZodApp, deps: GatewayDeps) {
  app.route({
    ...realtimeMemberOperations.removeMember,
    onRequest: requireUser(deps),
    handler: async (request, reply) => {
      const auth = userAuth(request);
      const { channelId, userId } = request.params;
      await authorizeModeration(deps, auth, channelId, userId);
      await removeMember(deps, auth.environmentId, channelId, userId);
      return reply.code(204).send(null);
    },
  });
}
