/**
 * Frames of the multiplexed socket `GET /v1/connect` (docs/protocol.md): what a client may send.
 * Fields and limits are the channel socket's (publish, retract) and the inbox socket's (`since`),
 * plus `channelId` on every channel frame.
 */
import { z } from 'zod';
import { ChannelId, IsoTime, QuotaRefusal, UserId } from './common.ts';
import { DeltaFormat, MessageEnvelopeFields, MessageId, Ref, publishFields } from './channels.ts';
import { storableText } from './common.ts';
import { NotificationId } from './notifications.ts';
import { ReactionSummary, ReactionType } from './message-changes.ts';
import { RewindValue } from './rewind.ts';

const Seq = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/** The most presence data one user may set on a channel, serialized, in bytes (@rtm/presence PRESENCE_DATA_MAX). */
export const PRESENCE_DATA_BYTES = 1024;
const presenceData = () =>
  z
    .unknown()
    .describe(
      `Any JSON value, at most ${PRESENCE_DATA_BYTES} bytes serialized (larger: \`payload_too_large\`). Shown on the user's roster entry and in presence frames.`,
    );

export const ConnectFrame = z.discriminatedUnion('op', [
  z
    .object({
      op: z.literal('subscribe'),
      ref: Ref,
      channelId: ChannelId,
      since: Seq.optional(),
      rewind: RewindValue.optional(),
      occupancy: z
        .boolean()
        .optional()
        .describe('true: `occupancy` frames for this subscription (needs the `presence` capability and presence on in the namespace).'),
      delta: DeltaFormat.optional(),
    })
    .strict(),
  z.object({ op: z.literal('unsubscribe'), ref: Ref, channelId: ChannelId }).strict(),
  z.object({ op: z.literal('publish'), ref: Ref, channelId: ChannelId, ...publishFields }).strict(),
  z.object({ op: z.literal('retract'), ref: Ref, channelId: ChannelId, id: MessageId, reason: storableText(1024, 0).optional() }).strict(),
  z.object({ op: z.literal('edit'), ref: Ref, channelId: ChannelId, id: MessageId, content: publishFields.content }).strict(),
  z.object({ op: z.literal('react'), ref: Ref, channelId: ChannelId, id: MessageId, type: ReactionType }).strict(),
  z.object({ op: z.literal('unreact'), ref: Ref, channelId: ChannelId, id: MessageId, type: ReactionType }).strict(),
  z.object({ op: z.literal('remove-member'), ref: Ref, channelId: ChannelId, userId: UserId }).strict(),
  z
    .object({
      op: z.literal('ban-member'),
      ref: Ref,
      channelId: ChannelId,
      userId: UserId,
      reason: storableText(512).optional(),
      expiresAt: IsoTime.optional(),
    })
    .strict(),
  z.object({ op: z.literal('unban-member'), ref: Ref, channelId: ChannelId, userId: UserId }).strict(),
  z.object({ op: z.literal('presence-enter'), ref: Ref, channelId: ChannelId, data: presenceData().optional() }).strict(),
  z.object({ op: z.literal('presence-update'), ref: Ref, channelId: ChannelId, data: presenceData() }).strict(),
  z.object({ op: z.literal('presence-leave'), ref: Ref, channelId: ChannelId }).strict(),
  z.object({ op: z.literal('subscribe-inbox'), ref: Ref, since: NotificationId.optional() }).strict(),
  z.object({ op: z.literal('unsubscribe-inbox'), ref: Ref }).strict(),
  z.object({ op: z.literal('auth'), ref: Ref, token: z.string().min(1).max(8192) }).strict(),
  z.object({ op: z.literal('ping'), ref: Ref.optional() }).strict(),
]);
export type ConnectFrame = z.infer<typeof ConnectFrame>;

/** `GET /v1/connect?token=`: the token (or the Authorization header) and nothing else. */
export const ConnectQuery = z.object({ token: z.string().optional() }).strict();

/* What the server sends on `/v1/connect`: documented in docs/asyncapi.yaml (generated from these). */
const ChannelIdOut = z.string().describe('The channel the frame belongs to.');
const EventSeq = z
  .number()
  .int()
  .describe("The change's place in the channel's sequence (messages and changes share it): resume with `since` = the highest `seq` or `eventSeq` seen.");
const RefOut = z.union([z.string(), z.number().int()]).describe('The `ref` of the request this answers.');
const Timestamp = z.string().describe('ISO 8601');
const PresenceEntryOut = z
  .object({ userId: z.string(), data: z.unknown().describe('The data as the user set it (any JSON, at most 1 KiB serialized).') })
  .strict();
const presenceAnswer = (op: string, what: string) =>
  z
    .object({ op: z.literal(op), ref: RefOut, channelId: ChannelIdOut })
    .strict()
    .describe(what);

export const SERVER_FRAMES = {
  connected: z
    .object({
      op: z.literal('connected'),
      connectionId: z
        .string()
        .describe("The socket's id, `sock_…`: the `socketId` of its `socket.opened` and `socket.closed` live-log events. New on every connection."),
      userId: z.string(),
      expiresAt: Timestamp,
    })
    .strict()
    .describe('First frame of every connection. `expiresAt` is the token expiry: renew with `auth` before it.'),
  message: MessageEnvelopeFields.extend({ channelId: ChannelIdOut })
    .strict()
    .describe('A message of a subscribed channel, replayed or live: the message envelope plus `channelId` (no `op`).'),
  messageDelta: MessageEnvelopeFields.omit({ content: true })
    .extend({
      channelId: ChannelIdOut,
      delta: z
        .object({
          format: z.literal('fossil'),
          base: z.string().describe('The id of the message the delta is against: the last message with content and no `to` this subscription received.'),
          data: z.string().describe("Base64 of a fossil delta from the UTF-8 bytes of the base's `content` (its JSON text as sent) to this message's."),
        })
        .strict(),
    })
    .strict()
    .describe(
      'A live message of a subscription made with `delta`, as a delta against the previous one it received: the message envelope with `delta` in place of `content`. A client whose base is not `base` re-subscribes from its last seq.',
    ),
  subscribed: z
    .object({ op: z.literal('subscribed'), ref: RefOut, channelId: ChannelIdOut, lastSeq: z.number().int() })
    .strict()
    .describe("The replay is over; `lastSeq` is the channel's last seq when it was cut. Live frames follow."),
  unsubscribed: z
    .object({
      op: z.literal('unsubscribed'),
      ref: RefOut.optional(),
      channelId: ChannelIdOut,
      code: z.enum(['banned', 'forbidden', 'unavailable']).optional(),
      reason: z.string().optional(),
    })
    .strict()
    .describe('With `ref`: the answer to `unsubscribe`. Without: the server ended the subscription (`code` says why).'),
  retract: z
    .object({
      op: z.literal('retract'),
      channelId: ChannelIdOut,
      id: z.string(),
      seq: z.number().int(),
      eventSeq: EventSeq.optional(),
      reason: z.string().optional(),
      to: z.array(z.string()).optional(),
      sender: z.object({ id: z.string(), anon: z.boolean() }).optional(),
    })
    .strict()
    .describe(
      'A message of a subscribed channel was retracted (live, or in a replay: a message older than `since` retracted since). ' +
        "`seq` is the message's, `eventSeq` the retraction's place in the channel's sequence.",
    ),
  update: MessageEnvelopeFields.extend({ op: z.literal('update'), channelId: ChannelIdOut, eventSeq: EventSeq })
    .strict()
    .describe(
      'A message of a subscribed channel changed: live, an edit (the envelope with its new content and `version`); in a ' +
        'replay or a repaired gap, any change of a message older than the replay (an edit, a reaction summary): the ' +
        'message as it is now. Replace the message shown (keep the one with the higher `version` if an older update arrives late).',
    ),
  summary: z
    .object({
      op: z.literal('summary'),
      channelId: ChannelIdOut,
      eventSeq: EventSeq,
      id: z.string(),
      seq: z.number().int(),
      reactions: ReactionSummary,
      to: z.array(z.string()).optional(),
      sender: z.object({ id: z.string(), anon: z.boolean() }).optional(),
    })
    .strict()
    .describe('The reactions of a message changed: its summary now (`{}` when none is left), at most one frame per message every 250 ms.'),
  skip: z
    .object({ op: z.literal('skip'), channelId: ChannelIdOut, seq: z.number().int() })
    .strict()
    .describe('A persisted message of a subscribed channel addressed (`to`) to other users: its seq is used, its content is not for this user.'),
  presence: z
    .object({
      op: z.literal('presence'),
      channelId: ChannelIdOut,
      joined: z.array(z.string()).describe('Users who came online in the channel since the previous presence frame.'),
      left: z.array(z.string()).describe('Users who went offline in the channel (on every gateway) since the previous presence frame.'),
      entered: z
        .array(PresenceEntryOut)
        .optional()
        .describe('Users who entered presence (`presence-enter`), with their data (null when entered without). Only when not empty.'),
      updated: z.array(PresenceEntryOut).optional().describe('Users whose presence data changed (`presence-update`), with the new data. Only when not empty.'),
      exited: z
        .array(z.string())
        .optional()
        .describe('Users who left presence (`presence-leave`, or their entered subscription ended); they may still be online. Only when not empty.'),
    })
    .strict()
    .describe(
      "Who came online in, or left, a subscribed channel, and who entered, updated or left its presence (with their data): at most one frame per channel every 250 ms, carrying each user's latest change of that interval. Sent only where the channel's namespace turns `joinLeave` on (off by default).",
    ),
  presenceEntered: presenceAnswer(
    'presence-entered',
    'The answer to `presence-enter`: the entry is set on this gateway and goes to every gateway within about half a second.',
  ),
  presenceUpdated: presenceAnswer('presence-updated', "The answer to `presence-update`: the entry's data is replaced."),
  presenceLeft: presenceAnswer('presence-left', 'The answer to `presence-leave` (also when the subscription had not entered: it is idempotent).'),
  occupancy: z
    .object({
      op: z.literal('occupancy'),
      channelId: ChannelIdOut,
      connections: z.number().int().min(0).describe('Live subscriptions of the channel on every gateway.'),
      users: z.number().int().min(0).describe('Distinct users among them.'),
    })
    .strict()
    .describe(
      'The live counts of a channel subscribed with `occupancy: true`: one frame soon after `subscribed`, then at most one a second, only when a count changed.',
    ),
  notification: z
    .object({ op: z.literal('notification'), id: z.string(), type: z.string(), payload: z.record(z.string(), z.unknown()), timestamp: z.number().int() })
    .strict()
    .describe("A notification of the user's inbox, replayed or live (after `subscribe-inbox`)."),
  inboxSubscribed: z
    .object({ op: z.literal('inbox-subscribed'), ref: RefOut })
    .strict()
    .describe('The inbox replay is over; live notifications follow.'),
  inboxUnsubscribed: z
    .object({ op: z.literal('inbox-unsubscribed'), ref: RefOut })
    .strict()
    .describe('The answer to `unsubscribe-inbox`.'),
  ack: z
    .object({
      op: z.literal('ack'),
      ref: RefOut,
      channelId: ChannelIdOut,
      id: z.string(),
      seq: z.number().int().optional(),
      timestamp: z.number().int().optional(),
      ephemeral: z.literal(true).optional(),
      retracted: z.literal(true).optional(),
      eventSeq: z.number().int().optional(),
      version: z.number().int().optional(),
      updatedAt: z.number().int().optional(),
      type: z.string().optional(),
      reacted: z.boolean().optional(),
    })
    .strict()
    .describe(
      'A request committed: a publish (with `timestamp`), a retraction (with `retracted`), an edit (with `version`, `updatedAt`, ' +
        '`eventSeq`) or a reaction (with `type` and `reacted`).',
    ),
  error: z
    .object({
      op: z.literal('error'),
      ref: RefOut.optional(),
      channelId: ChannelIdOut.optional(),
      code: z.string(),
      reason: z.string(),
      retryAfter: z.number().int().optional().describe('Seconds to wait before trying again (rate_limited).'),
      quota: QuotaRefusal.optional().describe('With `quota_exceeded`: the monthly quota that is spent (docs/quotas.md).'),
    })
    .strict()
    .describe('A request was refused; the connection stays open.'),
  memberRemoved: z
    .object({ op: z.literal('member-removed'), ref: RefOut, channelId: ChannelIdOut, userId: z.string() })
    .strict()
    .describe('The answer to `remove-member` (a moderator removed a member of the channel).'),
  memberBanned: z
    .object({
      op: z.literal('member-banned'),
      ref: RefOut,
      channelId: ChannelIdOut,
      userId: z.string(),
      reason: z.string().nullable(),
      expiresAt: Timestamp.nullable(),
    })
    .strict()
    .describe('The answer to `ban-member` (a moderator banned a user from the channel).'),
  memberUnbanned: z
    .object({ op: z.literal('member-unbanned'), ref: RefOut, channelId: ChannelIdOut, userId: z.string() })
    .strict()
    .describe('The answer to `unban-member`.'),
  authenticated: z
    .object({ op: z.literal('authenticated'), ref: RefOut, expiresAt: Timestamp })
    .strict()
    .describe('The token was renewed.'),
  pong: z
    .object({ op: z.literal('pong'), ref: RefOut.optional() })
    .strict()
    .describe('The answer to `ping`.'),
};

export const ConnectServerFrame = z.union(Object.values(SERVER_FRAMES) as unknown as [z.ZodType, z.ZodType, ...z.ZodType[]]);
