import { CreateNotificationsBody, CreateNotificationsResponse } from '../notifications.ts';
import { ErrorBody } from '../common.ts';
import type { Operations } from './operation.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 429: ErrorBody, 503: ErrorBody };

/** Control plane: `POST /v1/notifications` (the retention sweep is the dispatcher's task, apps/dispatcher/src/tasks/sweep-notifications.ts). */
export const notificationOperations = {
  sendNotifications: {
    method: 'POST',
    url: '/v1/notifications',
    schema: {
      operationId: 'sendNotifications',
      summary: "Send notifications to users' inboxes",
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
} as const satisfies Operations;
