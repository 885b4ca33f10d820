import { encodeJson, publishLog } from '@rtm/bus';
import { newId, NOTIFICATION_CAP_LIMIT, storeNotifications } from '@rtm/db';
import { DEFAULT_LIMITS } from '@rtm/rules';
import { ServiceError } from '@rtm/errors';
import { jsonSize, MAX_NOTIFICATION_PAYLOAD_BYTES, NOTIFICATION_TYPE_DEFAULT, notificationOperations } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey } from '@rtm/edge';

/** Control plane: `POST /v1/notifications` (the retention sweep is the dispatcher's task, apps/dispatcher/src/tasks/sweep-notifications.ts). */
export async function notificationRoutes(app: ZodApp, deps: GatewayDeps) {
  const countStored = deps.sessionMetrics.notifications;

  app.route({
    ...notificationOperations.sendNotifications,
    onRequest: requireSecretKey(deps),
    handler: async (request, reply) => {
      const { environmentId } = keyAuth(request);
      const { payload } = request.body;
      const type = request.body.type ?? NOTIFICATION_TYPE_DEFAULT;
      if (jsonSize(payload) > MAX_NOTIFICATION_PAYLOAD_BYTES) {
        throw new ServiceError('payload_too_large', 'payload is over 64 KiB serialized');
      }
      const userIds = [...new Set(request.body.userIds)];
      const ids = userIds.map(() => newId('ntf'));
      const timestamp = Date.now();
      const { stored, retryAfter } = await storeNotifications(deps.pool, {
        environmentId,
        userIds,
        ids,
        type,
        payloadText: JSON.stringify(payload),
        timestamp,
        defaultCap: DEFAULT_LIMITS[NOTIFICATION_CAP_LIMIT],
      });
      const dropped = userIds.filter((userId) => !stored.has(userId));
      if (dropped.length > 0) deps.sessionMetrics.notificationsDropped.inc(dropped.length);
      if (stored.size === 0) {
        throw new ServiceError(
          'rate_limited',
          `over ${NOTIFICATION_CAP_LIMIT}: ${userIds.length === 1 ? 'the user has' : 'every user has'} had the most notifications this minute allows; nothing was stored`,
          { retryAfter },
        );
      }
      countStored.inc(stored.size);
      deps.usage.add(environmentId, 'notifications', stored.size);
      const storedIds: string[] = [];
      userIds.forEach((userId, i) => {
        if (!stored.has(userId)) return;
        storedIds.push(ids[i]!);
        deps.nc.publish(deps.subjects.user(environmentId, userId), encodeJson({ op: 'notification', id: ids[i], type, payload, timestamp }));
      });
      publishLog(deps.nc, deps.subjects, environmentId, 'info', 'notification.sent', { type, users: stored.size });
      return reply.code(202).send(dropped.length > 0 ? { ids: storedIds, dropped } : { ids: storedIds });
    },
  });
}
