import { ServiceError } from '@rtm/errors';
import { inboxOperations } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { environmentBan, requireUser, userAuth } from '@rtm/edge';
import { readInbox } from '@rtm/db';

/** Realtime edge: `GET /v1/inbox`, the user's own notifications. */
export async function inboxRoutes(app: ZodApp, deps: GatewayDeps) {
  app.route({
    ...inboxOperations.listInbox,
    onRequest: requireUser(deps),
    handler: async (request) => {
      const auth = userAuth(request);
      const ban = await environmentBan(deps.pool, auth.environmentId, auth.userId);
      if (ban) throw new ServiceError('banned', ban.reason ?? 'the user is banned from this environment');
      const { limit, before, after } = request.query;
      const page = await readInbox(deps.pool, {
        environmentId: auth.environmentId,
        userId: auth.userId,
        retentionMs: deps.config.NOTIFICATION_RETENTION,
        limit,
        before,
        after,
      });
      return {
        notifications: page.notifications.map(({ id, type, payload, timestamp }) => ({ id, type, payload, timestamp })),
        hasMore: page.hasMore,
      };
    },
  });
}
