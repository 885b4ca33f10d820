/**
 * The webhook event types: each one's name, what it reports and the shape of its `data`, served
 * as a catalogue at GET /v1/webhook-event-types (the JSON Schema of each `data` comes from these
 * zod schemas). Every event's body is `{id, type, timestamp, environmentId, channelId?, data}`;
 * `channelId` is there when the event is about one channel.
 */
import { z } from 'zod';
import { MessageEnvelope } from './channels.ts';
import { MemberRole } from './members.ts';
import { IsoTime } from './common.ts';
import { ReactionSummary } from './message-changes.ts';

const MemberData = z.object({ channelId: z.string(), userId: z.string(), role: MemberRole });
const BanData = z.object({
  userId: z.string(),
  channelId: z.string().nullable().describe('null for an environment-wide ban.'),
  reason: z.string().nullable(),
  expiresAt: IsoTime.nullable(),
});

/** The most members one `presence.entered` or `presence.left` event carries; more in one interval: several events. */
export const PRESENCE_EVENT_MEMBERS_MAX = 50;

const ChannelData = z.object({ channelId: z.string() });
const PresenceMembers = z.object({
  channelId: z.string(),
  members: z
    .array(
      z.object({
        userId: z.string(),
        data: z.unknown().describe('The presence data the user entered with (any JSON, at most 1 KiB serialized; `null` when entered without).'),
      }),
    )
    .min(1)
    .max(PRESENCE_EVENT_MEMBERS_MAX)
    .describe(`At most ${PRESENCE_EVENT_MEMBERS_MAX}, sorted by userId; more in one interval go in further events.`),
});
const OPT_IN = 'Sent only to endpoints whose `eventTypes` name it (an endpoint without a type filter does not get it).';

const MESSAGE_EXAMPLE = {
  id: 'msg_01j9zq3v8k6m2p4r7t9w1x3y5z',
  seq: 42,
  type: 'chat',
  kind: 'user' as const,
  content: { text: 'hello' } as Record<string, unknown> | null,
  sender: { id: 'alice', anon: false },
  timestamp: 1767225600000,
  retracted: false,
  ephemeral: false,
};

export const WEBHOOK_EVENT_TYPES = {
  'message.published': {
    description: 'A message was persisted on a channel (ephemeral messages are not). `data` is the message envelope.',
    data: MessageEnvelope,
    example: MESSAGE_EXAMPLE,
  },
  'message.retracted': {
    description: 'A message was retracted (by its sender, a moderator, the backend or an erasure). `data` is the tombstoned envelope.',
    data: MessageEnvelope,
    example: { ...MESSAGE_EXAMPLE, content: null, retracted: true },
  },
  'message.updated': {
    description:
      'A message was edited: `data` is the envelope with the new content, `version` (2 after the first edit), `updatedAt` and ' +
      "`updatedBy`. Sent to webhook endpoints only (not to the configuration's URL).",
    data: MessageEnvelope,
    example: { ...MESSAGE_EXAMPLE, content: { text: 'hello, edited' }, version: 2, updatedAt: 1767225660000, updatedBy: 'alice' },
  },
  'message.reactions': {
    description:
      "A message's reactions changed: `data` is its summary now, at most one event per message every 250 ms however many " +
      "reactions arrive (coalesced). Sent to webhook endpoints only (not to the configuration's URL).",
    data: z.object({
      id: z.string().describe('The message id.'),
      seq: z.number().int().describe("The message's seq."),
      reactions: ReactionSummary.describe('Reaction type → count and first users; `{}` once the last reaction is removed.'),
    }),
    example: {
      id: 'msg_01j9zq3v8k6m2p4r7t9w1x3y5z',
      seq: 42,
      reactions: { thumbsup: { count: 2, users: ['alice', 'bob'], clipped: false } },
    },
  },
  'member.added': {
    description: 'A user became a member of a channel, or their role changed.',
    data: MemberData,
    example: { channelId: 'room-1', userId: 'alice', role: 'member' },
  },
  'member.removed': {
    description: 'A user stopped being a member of a channel (removed by the backend or a moderator).',
    data: MemberData,
    example: { channelId: 'room-1', userId: 'alice', role: 'member' },
  },
  'member.banned': {
    description: 'A user was banned from a channel, or from the whole environment (`channelId` null).',
    data: BanData,
    example: { userId: 'mallory', channelId: 'room-1', reason: 'spam', expiresAt: null },
  },
  'member.unbanned': {
    description: 'A ban was lifted before it expired.',
    data: BanData,
    example: { userId: 'mallory', channelId: 'room-1', reason: 'spam', expiresAt: null },
  },
  'channel.deleted': {
    description: 'A channel was deleted with its history, membership and bans (DELETE /v1/channels/{channelId} finished).',
    data: z.object({ channelId: z.string(), messages: z.number().int().describe('Messages deleted.') }),
    example: { channelId: 'room-1', messages: 1200 },
  },
  'channel.occupied': {
    description:
      'A channel got its first subscriber: nobody held a subscription of it on any gateway, now someone does. Once per ' +
      'cluster; a channel that is vacated and occupied again within one second on one gateway sends neither. ' +
      OPT_IN,
    data: ChannelData,
    example: { channelId: 'room-1' },
  },
  'channel.vacated': {
    description:
      'A channel lost its last subscriber on every gateway (they left, or the gateway holding them stopped refreshing ' +
      'presence and its records expired after PRESENCE_TTL_MS). Once per cluster, after the `channel.occupied` it ends. ' +
      OPT_IN,
    data: ChannelData,
    example: { channelId: 'room-1' },
  },
  'channel.occupancy': {
    description:
      'The subscriptions of an occupied channel and the distinct users among them, over every gateway: at most once per ' +
      'channel every PRESENCE_OCCUPANCY_WEBHOOK_MS (15 s by default), only when a count changed since the last one. ' +
      OPT_IN,
    data: z.object({ channelId: z.string(), connections: z.number().int(), users: z.number().int() }),
    example: { channelId: 'room-1', connections: 3, users: 2 },
  },
  'presence.entered': {
    description:
      "Users entered the channel's presence (`presence-enter`) with their data, gathered per channel per second. Only for " +
      'channels whose namespace turns `presenceWebhooks` on. ' +
      OPT_IN,
    data: PresenceMembers,
    example: { channelId: 'room-1', members: [{ userId: 'alice', data: { status: 'online' } }] },
  },
  'presence.left': {
    description:
      "Users left the channel's presence (`presence-leave`, their subscription or connection ended, or their gateway " +
      'stopped and its records expired), each with the data they had, gathered per channel per second. Only for channels ' +
      'whose namespace turns `presenceWebhooks` on. ' +
      OPT_IN,
    data: PresenceMembers,
    example: { channelId: 'room-1', members: [{ userId: 'alice', data: { status: 'online' } }] },
  },
  'user.messages_erased': {
    description: "An erasure of a user's messages finished: every message they sent is retracted.",
    data: z.object({ userId: z.string(), erasureId: z.string(), retracted: z.number().int() }),
    example: { userId: 'alice', erasureId: 'erj_01j9zq3v8k6m2p4r7t9w1x3y5z', retracted: 17 },
  },
  'usage.threshold': {
    description:
      'The environment used 80 % or 100 % of a monthly quota (`limits.monthlyMessages` or `limits.monthlyConnectionMinutes`, ' +
      'docs/quotas.md): once per environment, quota, threshold and calendar month (UTC), whatever the limit is changed to later ' +
      'in the month. `used` is the count when the threshold was seen (messages, or whole connection-minutes).',
    data: z.object({
      quota: z.enum(['monthlyMessages', 'monthlyConnectionMinutes']),
      threshold: z.union([z.literal(80), z.literal(100)]),
      limit: z.number().int(),
      used: z.number().int(),
      period: z.object({ start: IsoTime.describe("The month's first instant (UTC)."), resetsAt: IsoTime.describe("The next month's first instant.") }),
    }),
    example: {
      quota: 'monthlyMessages',
      threshold: 80,
      limit: 100000,
      used: 80000,
      period: { start: '2026-01-01T00:00:00.000Z', resetsAt: '2026-02-01T00:00:00.000Z' },
    },
  },
  'webhook.test': {
    description: 'Sent by POST /v1/webhook-endpoints/{endpointId}/test to that endpoint only.',
    data: z.object({ endpointId: z.string(), message: z.string() }),
    example: { endpointId: 'ep_01j9zq3v8k6m2p4r7t9w1x3y5z', message: 'a test event' },
  },
  'endpoint.disabled': {
    description:
      'Operational: an endpoint whose every attempt failed for WEBHOOK_DISABLE_AFTER was disabled. Sent to the ' +
      "environment's other endpoints that take it.",
    data: z.object({
      endpointId: z.string(),
      url: z.string().describe("The disabled endpoint's URL, redacted: query values and userinfo masked (`?token=***`)."),
      failingSince: IsoTime,
      disabledAt: IsoTime,
    }),
    example: {
      endpointId: 'ep_01j9zq3v8k6m2p4r7t9w1x3y5z',
      url: 'https://hooks.example.com/rtm',
      failingSince: '2026-01-01T00:00:00.000Z',
      disabledAt: '2026-01-06T00:00:00.000Z',
    },
  },
  'delivery.dropped': {
    description:
      "Operational: a delivery was dropped after its last retry. Sent to the environment's other endpoints that " +
      'take it; a dropped operational event reports nothing further.',
    data: z.object({
      deliveryId: z.string(),
      endpointId: z.string().nullable().describe("null for the default endpoint (the configuration's webhook URL)."),
      eventId: z.string(),
      eventType: z.string(),
      attempts: z.number().int(),
      lastError: z.string().nullable(),
    }),
    example: {
      deliveryId: 'dlv_01j9zq3v8k6m2p4r7t9w1x3y5z',
      endpointId: 'ep_01j9zq3v8k6m2p4r7t9w1x3y5z',
      eventId: 'msg_01j9zq3v8k6m2p4r7t9w1x3y5z',
      eventType: 'message.published',
      attempts: 6,
      lastError: 'timeout',
    },
  },
} as const;

export type WebhookEventType = keyof typeof WEBHOOK_EVENT_TYPES;
export const WEBHOOK_EVENT_TYPE_NAMES = Object.keys(WEBHOOK_EVENT_TYPES) as [WebhookEventType, ...WebhookEventType[]];
export const WebhookEventTypeName = z.enum(WEBHOOK_EVENT_TYPE_NAMES);

/** The event types the default endpoint (the configuration's `webhooks.url`) receives, as before endpoints existed. */
export const DEFAULT_ENDPOINT_EVENT_TYPES: readonly WebhookEventType[] = ['message.published', 'message.retracted'];

/** Operational events: a dropped one is not reported again (no `delivery.dropped` of a `delivery.dropped`). */
export const OPERATIONAL_EVENT_TYPES: readonly WebhookEventType[] = ['endpoint.disabled', 'delivery.dropped'];

/**
 * Presence-driven events: an endpoint gets them only when its `eventTypes` names them (an endpoint
 * without a type filter takes every other type). They come from subscribers arriving and leaving,
 * not from changes a backend makes, so a catch-all endpoint does not start receiving them.
 */
export const OPT_IN_EVENT_TYPES: readonly WebhookEventType[] = [
  'channel.occupied',
  'channel.vacated',
  'channel.occupancy',
  'presence.entered',
  'presence.left',
];

/** The catalogue as served: name, description, whether it must be named (`optIn`), the JSON Schema of `data`, and an example. */
export function webhookEventCatalogue(): { name: WebhookEventType; description: string; optIn: boolean; schema: Record<string, unknown>; example: unknown }[] {
  return WEBHOOK_EVENT_TYPE_NAMES.map((name) => {
    const entry = WEBHOOK_EVENT_TYPES[name];
    const schema = z.toJSONSchema(entry.data, { unrepresentable: 'any' }) as Record<string, unknown>;
    return { name, description: entry.description, optIn: OPT_IN_EVENT_TYPES.includes(name), schema, example: entry.example };
  });
}
