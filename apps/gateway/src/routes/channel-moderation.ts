import { channelModerationOperations } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { requireUser, userAuth } from '../auth/authenticate.ts';
import { authorizeModeration } from '../access/channel-access.ts';
import { putBan, removeBan, removeMember } from '../moderation/moderation.ts';

/** How the realtime edge's forms of these routes are described in the merged OpenAPI document. */
export const MODERATOR_NOTE =
  ' Realtime edge: a user token of a `moderator` of the channel (with the `publish` capability on it) may do the same ' +
  'for this channel; anyone else is 403 `forbidden`, and a moderator may not act on another moderator or themselves.';

/**
 * Realtime edge: what a channel's moderators may do besides retracting any message (that is
 * DELETE /v1/channels/{id}/messages/{messageId}): remove a member, ban and unban on the channel.
 * The same implementation as the control plane's routes (moderation.ts): kicks, live log, cache
 * invalidation on every gateway.
 */
export async function channelModerationRoutes(app: ZodApp, deps: GatewayDeps) {
  const common = { onRequest: requireUser(deps) };

  app.route({
    ...channelModerationOperations.removeMember,
    ...common,
    handler: async (request, reply) => {
      const auth = userAuth(request);
      const { channelId, userId } = request.params;
      await authorizeModeration(deps, auth, channelId, userId);
      await removeMember(deps, auth.environmentId, channelId, userId);
      return reply.code(204).send(null);
    },
  });

  app.route({
    ...channelModerationOperations.banFromChannel,
    ...common,
    handler: async (request) => {
      const auth = userAuth(request);
      const { channelId, userId } = request.params;
      await authorizeModeration(deps, auth, channelId, userId);
      return putBan(deps, auth.environmentId, channelId, userId, request.body);
    },
  });

  app.route({
    ...channelModerationOperations.unbanFromChannel,
    ...common,
    handler: async (request, reply) => {
      const auth = userAuth(request);
      const { channelId, userId } = request.params;
      await authorizeModeration(deps, auth, channelId, userId);
      await removeBan(deps, auth.environmentId, channelId, userId);
      return reply.code(204).send(null);
    },
  });
}
