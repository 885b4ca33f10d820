/**
 * Realtime edge: `PUT` and `DELETE /v1/channels/{channelId}/presence`, the presence entry of one
 * of the caller's connections named by its `connectionId` (the way an event stream, which sends
 * no frames, enters presence). The connection may be on any gateway: libs/edge presence/entry-requests.ts
 * finds it; the entry and its rules are the frames' (libs/edge sockets/connect-frames.ts presenceEntry).
 */
import { presenceEntryOperations } from '@rtm/schemas';
import type { Subscription } from '@rtm/bus';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { answerEntryRequests, presenceOfConnection, requireUser, userAuth } from '@rtm/edge';

export async function presenceEntryRoutes(app: ZodApp, deps: GatewayDeps) {
  // this gateway answers for the connections it holds while its realtime edge listens (it holds
  // none before; building the app touches no bus)
  let answering: Subscription | undefined;
  app.addHook('onListen', async () => {
    answering ??= answerEntryRequests(deps);
  });
  app.addHook('onClose', async () => answering?.unsubscribe());

  app.route({
    ...presenceEntryOperations.putPresence,
    onRequest: requireUser(deps),
    handler: async (request) => {
      const auth = userAuth(request);
      const { channelId } = request.params;
      const { connectionId, data } = request.body;
      await presenceOfConnection(deps, auth, 'presence-enter', channelId, connectionId, data);
      return { channelId, userId: auth.userId, data: data ?? null };
    },
  });

  app.route({
    ...presenceEntryOperations.deletePresence,
    onRequest: requireUser(deps),
    handler: async (request, reply) => {
      const auth = userAuth(request);
      await presenceOfConnection(deps, auth, 'presence-leave', request.params.channelId, request.query.connectionId);
      return reply.code(204).send(null);
    },
  });
}
