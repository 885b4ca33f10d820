import { encodeJson, publishLog } from '@rtm/bus';
import { admitNotificationsSql, newId, notificationCapSql, NOTIFICATION_CAP_LIMIT, WINDOW_SECONDS_LEFT_SQL } from '@rtm/db';
import { DEFAULT_LIMITS } from '@rtm/limits';
import { ServiceError } from '@rtm/errors';
import {
  CreateNotificationsBody,
  CreateNotificationsResponse,
  ErrorBody,
  jsonSize,
  MAX_NOTIFICATION_PAYLOAD_BYTES,
  NOTIFICATION_TYPE_DEFAULT,
} from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey } from '../auth/authenticate.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 429: ErrorBody, 503: ErrorBody };

/**
 * Stores one notification per user id, each counted against the user's cap
 * (notificationsPerUserPerMinute, read from the active deployment in the same statement, as the
 * channel-node's mentions): the users whose window is full get nothing. Answers who got one, and
 * the seconds until the current window ends.
 */
const STORE_SQL = `with wanted as (select $1::text as environment_id, u as user_id, 1 as n from unnest($2::text[]) as u),
     caps as (
       select ${notificationCapSql('d.config', '$7::int')} as cap
       from environments e left join config_deployments d on d.id = e.active_deployment_id where e.id = $1),
     counted as (${admitNotificationsSql('wanted', () => 'coalesce((select cap from caps), $7::int)')}),
     stored as (
       insert into notifications (id, environment_id, user_id, type, payload, ts)
       select v.id, $1, v.user_id, $3, $4::json, $5
       from unnest($2::text[], $6::text[]) as v(user_id, id)
       join counted k on k.user_id = v.user_id
       where k.admitted > 0
       returning user_id)
     select array(select user_id from stored) as stored, ${WINDOW_SECONDS_LEFT_SQL} as retry_after`;

/** Control plane: `POST /v1/notifications` (the retention sweep is the dispatcher's task, apps/dispatcher/src/tasks/sweep-notifications.ts). */
export async function notificationRoutes(app: ZodApp, deps: GatewayDeps) {
  const countStored = deps.sessionMetrics.notifications;

  app.post(
    '/v1/notifications',
    {
      onRequest: requireSecretKey(deps),
      schema: {
        operationId: 'sendNotifications',
        summary: 'Send notifications to users\' inboxes',
        description:
          'Secret key. Stores one notification per distinct user id (repeats are sent once), then delivers it live ' +
          'to every open /inbox socket of that user on every gateway. Users are not registered anywhere, so any ' +
          'well-formed user id is accepted: a user who has never connected finds it in GET /v1/inbox or when their ' +
          'inbox socket opens. Kept 7 days. 1-1000 user ids (400 otherwise); `payload` at most 64 KiB ' +
          'serialized (413 otherwise). Answered once stored. Each user is sent at most ' +
          '`notificationsPerUserPerMinute` notifications per minute (mentions included; docs/limits.md): users over it ' +
          'get nothing and are listed in `dropped`; when every user is over it, nothing is stored and the answer is ' +
          '429 `rate_limited` with `retry-after` (seconds until the minute ends).',
        tags: ['notifications'],
        security: [{ secretKey: [] }],
        body: CreateNotificationsBody,
        response: { 202: CreateNotificationsResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { environmentId } = keyAuth(request);
      const { payload } = request.body;
      const type = request.body.type ?? NOTIFICATION_TYPE_DEFAULT;
      if (jsonSize(payload) > MAX_NOTIFICATION_PAYLOAD_BYTES) {
        throw new ServiceError('payload_too_large', 'payload is over 64 KiB serialized');
      }
      const userIds = [...new Set(request.body.userIds)];
      const ids = userIds.map(() => newId('ntf'));
      const timestamp = Date.now();
      const text = JSON.stringify(payload);
      const { rows } = await deps.pool.query<{ stored: string[]; retry_after: number }>(STORE_SQL, [
        environmentId,
        userIds,
        type,
        text,
        timestamp,
        ids,
        DEFAULT_LIMITS[NOTIFICATION_CAP_LIMIT],
      ]);
      const stored = new Set(rows[0]!.stored);
      const dropped = userIds.filter((userId) => !stored.has(userId));
      if (dropped.length > 0) deps.sessionMetrics.notificationsDropped.inc(dropped.length);
      if (stored.size === 0) {
        throw new ServiceError(
          'rate_limited',
          `over ${NOTIFICATION_CAP_LIMIT}: ${userIds.length === 1 ? 'the user has' : 'every user has'} had the most notifications this minute allows; nothing was stored`,
          { retryAfter: rows[0]!.retry_after },
        );
      }
      countStored.inc(stored.size);
      const storedIds: string[] = [];
      userIds.forEach((userId, i) => {
        if (!stored.has(userId)) return;
        storedIds.push(ids[i]!);
        deps.nc.publish(
          deps.subjects.user(environmentId, userId),
          encodeJson({ op: 'notification', id: ids[i], type, payload, timestamp }),
        );
      });
      publishLog(deps.nc, deps.subjects, environmentId, 'info', 'notification.sent', { type, users: stored.size });
      return reply.code(202).send(dropped.length > 0 ? { ids: storedIds, dropped } : { ids: storedIds });
    },
  );
}
