import { memberOperations } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey } from '../auth/authenticate.ts';
import { putMember, removeMember } from '../moderation/moderation.ts';

/** Control plane: `PUT|DELETE /v1/channels/{channelId}/members/{userId}`. */
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
