import { z } from 'zod';
import { UserId } from './common.ts';

export const MAX_NOTIFICATION_USERS = 1000;
export const MAX_NOTIFICATION_PAYLOAD_BYTES = 64 * 1024;
export const NOTIFICATION_TYPE_DEFAULT = 'notification';

export const NotificationType = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_.:-]+$/, 'must be 1-64 of [A-Za-z0-9_.:-]');

export const CreateNotificationsBody = z
  .object({
    userIds: z.array(UserId).min(1).max(MAX_NOTIFICATION_USERS).describe('1-1000 user ids. Users need not have connected before; repeated ids are sent once.'),
    type: NotificationType.optional().describe('Defaults to `notification`; `mention` is used by channel mentions.'),
    payload: z.record(z.string(), z.unknown()).describe('A JSON object, at most 64 KiB serialized (413 otherwise).'),
  })
  .strict();

export const CreateNotificationsResponse = z
  .object({
    ids: z
      .array(z.string())
      .describe('One notification id per distinct user id that was sent one, in the order of first appearance (the users in `dropped` have none).'),
    dropped: z
      .array(z.string())
      .optional()
      .describe('Present only when some users got nothing: they already had `notificationsPerUserPerMinute` notifications this minute (docs/limits.md).'),
  })
  .meta({ id: 'NotificationsCreated' });

export const Notification = z
  .object({
    id: z.string().describe('Time-ordered; pass the last one seen as `since` to the inbox socket.'),
    type: z.string(),
    payload: z.unknown(),
    timestamp: z.number().int().describe('Epoch milliseconds.'),
  })
  .meta({ id: 'Notification' });

export const NotificationId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_]+$/, 'must be a notification id');

export const InboxQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(500).default(50).describe('Default 50, maximum 500.'),
    before: NotificationId.optional().describe('Exclusive upper bound (a notification id).'),
    after: NotificationId.optional().describe('Exclusive lower bound (a notification id).'),
  })
  .strict();

export const InboxPage = z.object({ notifications: z.array(Notification), hasMore: z.boolean() }).meta({ id: 'InboxPage' });

export const InboxSocketQuery = z.object({ since: NotificationId.optional(), token: z.string().optional() }).strict();
