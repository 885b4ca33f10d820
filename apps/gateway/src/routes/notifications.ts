import { encodeJson, publishLog } from '@rtm/bus';
import { newId } from '@rtm/db';
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

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };

/** Control plane: `POST /v1/notifications` (the retention sweep is notifications/notification-sweeper.ts). */
export async function notificationRoutes(app: ZodApp, deps: GatewayDeps) {
  const stored = deps.sessionMetrics.notifications;

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
          'serialized (413 otherwise). Answered once stored.',
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
      await deps.pool.query(
        `insert into notifications (id, environment_id, user_id, type, payload, ts)
         select v.id, $1, v.user_id, $3, $4::json, $5 from unnest($2::text[], $6::text[]) as v(user_id, id)`,
        [environmentId, userIds, type, text, timestamp, ids],
      );
      stored.inc(userIds.length);
      userIds.forEach((userId, i) => {
        deps.nc.publish(
          deps.subjects.user(environmentId, userId),
          encodeJson({ op: 'notification', id: ids[i], type, payload, timestamp }),
        );
      });
      publishLog(deps.nc, deps.subjects, environmentId, 'info', 'notification.sent', { type, users: userIds.length });
      return reply.code(202).send({ ids });
    },
  );
}
