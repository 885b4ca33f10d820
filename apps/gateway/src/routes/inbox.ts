import { ServiceError } from '@rtm/errors';
import { InboxQuery, InboxPage, ErrorBody } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { requireUser, userAuth } from '../auth/authenticate.ts';
import { environmentBan } from '../access/bans.ts';
import { readInbox } from '@rtm/db';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 503: ErrorBody };

/** Realtime edge: `GET /v1/inbox`, the user's own notifications. */
export async function inboxRoutes(app: ZodApp, deps: GatewayDeps) {
  app.get(
    '/v1/inbox',
    {
      onRequest: requireUser(deps),
      schema: {
        operationId: 'listInbox',
        summary: 'List the user\'s notifications',
        description:
          'User token. Notifications of the last 7 days, ascending by id (ids are time-ordered) within a page. ' +
          'Default: the newest page. `before`/`after` are exclusive notification-id bounds: `before` pages back, ' +
          '`after` alone pages forward from an id. `hasMore` says whether more exist beyond the page in its ' +
          'direction. `limit` default 50, max 500. 403 `banned` for a user banned environment-wide.',
        tags: ['notifications'],
        security: [{ userToken: [] }],
        querystring: InboxQuery,
        response: { 200: InboxPage, ...errors },
      },
    },
    async (request) => {
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
  );
}
