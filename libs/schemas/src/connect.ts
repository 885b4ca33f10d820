/**
 * Frames of the multiplexed socket `GET /v1/connect` (docs/protocol.md): what a client may send.
 * Fields and limits are the channel socket's (publish, retract) and the inbox socket's (`since`),
 * plus `channelId` on every channel frame.
 */
import { z } from 'zod';
import { ChannelId } from './common.ts';
import { MessageId, Ref, publishFields } from './channels.ts';
import { storableText } from './common.ts';
import { NotificationId } from './notifications.ts';

const Seq = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const ConnectFrame = z.discriminatedUnion('op', [
  z.object({ op: z.literal('subscribe'), ref: Ref, channelId: ChannelId, since: Seq.optional() }).strict(),
  z.object({ op: z.literal('unsubscribe'), ref: Ref, channelId: ChannelId }).strict(),
  z.object({ op: z.literal('publish'), ref: Ref, channelId: ChannelId, ...publishFields }).strict(),
  z.object({ op: z.literal('retract'), ref: Ref, channelId: ChannelId, id: MessageId, reason: storableText(1024, 0).optional() }).strict(),
  z.object({ op: z.literal('subscribe-inbox'), ref: Ref, since: NotificationId.optional() }).strict(),
  z.object({ op: z.literal('unsubscribe-inbox'), ref: Ref }).strict(),
  z.object({ op: z.literal('auth'), ref: Ref, token: z.string().min(1).max(8192) }).strict(),
  z.object({ op: z.literal('ping'), ref: Ref.optional() }).strict(),
]);
export type ConnectFrame = z.infer<typeof ConnectFrame>;

/** `GET /v1/connect?token=`: the token (or the Authorization header) and nothing else. */
export const ConnectQuery = z.object({ token: z.string().optional() }).strict();
