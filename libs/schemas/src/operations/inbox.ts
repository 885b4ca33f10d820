import { InboxPage, InboxQuery } from '../notifications.ts';
import { ErrorBody } from '../common.ts';
import type { Operations } from './operation.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 429: ErrorBody, 503: ErrorBody };

/** Realtime edge: `GET /v1/inbox`, the user's own notifications. */
export const inboxOperations = {
  listInbox: {
    method: 'GET',
    url: '/v1/inbox',
    schema: {
      operationId: 'listInbox',
      summary: "List the user's notifications",
      description:
        'User token. Notifications of the last 7 days, ascending by id (ids are time-ordered) within a page. ' +
        'Default: the newest page. `before`/`after` are exclusive notification-id bounds: `before` pages back, ' +
        '`after` alone pages forward from an id. `hasMore` says whether more exist beyond the page in its ' +
        'direction. `limit` default 50, max 500. 403 `banned` for a user banned environment-wide. ' +
        'Rate-limited per user by `userInboxReadsPerSecond` (one unit per 50 notifications a page may return, so ' +
        '`limit=500` costs 10; inbox replays of sockets and event streams count too) and `environmentEdgeReadsPerSecond`: ' +
        '429 `rate_limited` with `retry-after`.',
      tags: ['notifications'],
      security: [{ userToken: [] }],
      querystring: InboxQuery,
      response: { 200: InboxPage, ...errors },
    },
  },
} as const satisfies Operations;
