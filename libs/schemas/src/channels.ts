import { z } from 'zod';
import { UserId, ChannelId, QuotaRefusal, storableText } from './common.ts';
import type { QuotaDetail } from '@rtm/errors';
import { NOT_STORABLE, isStorableText } from './json-text.ts';
import { ReactionSummary, ReactionType, type EditCommand, type EditResult, type ReactCommand, type ReactResult } from './message-changes.ts';
import { RewindText } from './rewind.ts';

/** Largest `content` of one message, in UTF-8 bytes of its JSON text as sent (64 KiB; larger: 413 payload_too_large). */
export const MAX_CONTENT_BYTES = 64 * 1024;
/** Most user ids in `to` or `mentions` of one message (our choice; see docs/limits.md). */
export const MAX_ADDRESSEES = 100;
export const HISTORY_LIMIT_DEFAULT = 50;
export const HISTORY_LIMIT_MAX = 500;

export const MessageType = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[^\u0000-\u001f]+$/, 'must not contain control characters')
  .refine(isStorableText, NOT_STORABLE)
  .describe('Application-defined message type, 1-64 chars; default "message".');

const Addressees = z.array(UserId).min(1).max(MAX_ADDRESSEES);

const Content = z
  .record(z.string(), z.unknown())
  .describe(
    'A JSON object, at most 64 KiB as sent (the UTF-8 bytes of its JSON text, spacing included; larger: 413 ' +
      'payload_too_large). Its text is kept exactly as sent (key order, spacing, escapes) on socket frames, in history and in webhook bodies.',
  );

/** Publish fields shared by both hosts and the socket's `publish` frame. */
export const publishFields = {
  type: MessageType.optional(),
  content: Content,
  ephemeral: z.boolean().optional().describe('Fan out to sockets only: no history, no webhook, no seq advance.'),
  to: Addressees.optional().describe('Only these users and the sender receive it on sockets and see it in history.'),
  mentions: Addressees.optional().describe(
    'Each mentioned user who may read the message gets an inbox notification of type "mention": decided when the message is ' +
      "stored, by the channel's access, membership and bans (and `to`, when given). Other ids are dropped silently, and so " +
      "are notifications past the recipient's `notificationsPerUserPerMinute` (docs/limits.md); the message is published " +
      'either way and the answer does not say who was notified.',
  ),
  idempotencyKey: z
    .string()
    .min(1)
    .max(128)
    .refine(isStorableText, NOT_STORABLE)
    .optional()
    .describe('The same key on the same channel within 24 h returns the first result and creates nothing. Ignored for ephemeral messages.'),
};

export const PublishBody = z.object(publishFields).strict();
export const ServerPublishBody = z.object({ ...publishFields, senderId: UserId.optional().describe('Sender shown to clients; default "server".') }).strict();

export const PublishResponse = z.object({ id: z.string(), seq: z.number().int(), timestamp: z.number().int() }).meta({ id: 'PublishedMessage' });
export const EphemeralPublishResponse = z.object({ id: z.string(), ephemeral: z.literal(true) }).meta({ id: 'EphemeralMessage' });

/** Most messages in one `POST /v1/messages/batch`. */
export const MAX_BATCH_MESSAGES = 100;
/** Largest body of `POST /v1/messages/batch` (413 payload_too_large above it). */
export const MAX_BATCH_BODY_BYTES = 1024 * 1024;

const batchChannel = { channelId: ChannelId.describe('The channel this message goes to.') };
export const BatchPublishBody = z
  .object({
    messages: z
      .array(z.object({ ...batchChannel, ...publishFields }).strict())
      .min(1)
      .max(MAX_BATCH_MESSAGES),
  })
  .strict();
export const ServerBatchPublishBody = z
  .object({
    messages: z
      .array(z.object({ ...batchChannel, ...publishFields, senderId: UserId.optional().describe('Sender shown to clients; default "server".') }).strict())
      .min(1)
      .max(MAX_BATCH_MESSAGES),
  })
  .strict();
export const BatchItemError = z
  .object({ error: z.object({ code: z.string(), reason: z.string().optional(), quota: QuotaRefusal.optional() }) })
  .meta({ id: 'BatchItemError', description: 'This message was not published; the others are unaffected.' });
export const BatchPublishResponse = z
  .object({ results: z.array(z.union([PublishResponse, EphemeralPublishResponse, BatchItemError])) })
  .meta({ id: 'BatchPublishResults' });

export const RetractBody = z.object({ reason: storableText(1024, 0).optional().describe('Sent on the socket `retract` frame only.') }).strict();
export const RetractResponse = z
  .object({
    id: z.string(),
    seq: z.number().int(),
    retracted: z.literal(true),
    eventSeq: z.number().int().optional().describe("The retraction's place in the channel's sequence; absent when the message was already retracted."),
  })
  .meta({ id: 'RetractedMessage' });

export const MessageEnvelopeFields = z.object({
  id: z.string(),
  seq: z.number().int(),
  type: z.string(),
  kind: z.enum(['user', 'server', 'system']),
  content: z
    .record(z.string(), z.unknown())
    .nullable()
    .describe('The content exactly as published: its bytes are kept (key order, spacing, escapes). null once retracted.'),
  sender: z.object({ id: z.string(), anon: z.boolean() }),
  timestamp: z.number().int(),
  to: z.array(z.string()).optional(),
  mentions: z.array(z.string()).optional(),
  retracted: z.boolean(),
  ephemeral: z.boolean(),
  version: z.number().int().optional().describe("The content's version, from 2 once edited; absent for a message never edited (version 1)."),
  updatedAt: z.number().int().optional().describe('When the last edit committed (ms since the epoch); only on an edited message.'),
  updatedBy: z.string().nullable().optional().describe('Who made the last edit (null: the backend); only on an edited message.'),
  reactions: ReactionSummary.optional(),
});
export const MessageEnvelope = MessageEnvelopeFields.meta({ id: 'MessageEnvelope', description: 'A message as history, socket frames and webhooks show it.' });
export type MessageEnvelope = z.infer<typeof MessageEnvelope>;

/** What an envelope is made of, wherever it comes from (a publish, a stored row, a retraction). */
export interface EnvelopeParts {
  id: string;
  seq: number;
  type: string;
  kind: MessageEnvelope['kind'];
  content: Record<string, unknown> | null;
  sender: { id: string; anon: boolean };
  timestamp: number;
  retracted: boolean;
  ephemeral: boolean;
  to?: string[] | null;
  mentions?: string[] | null;
  /** 1 (or absent) for a message never edited. */
  version?: number;
  updatedAt?: number | null;
  updatedBy?: string | null;
  reactions?: ReactionSummary | null;
}

/**
 * The one builder of message envelopes (publish frames, history, replay, webhooks), so every
 * path shows the same fields in the same order: a retracted message has no content, and `to` and
 * `mentions` appear only when the message has them.
 */
export function messageEnvelope(parts: EnvelopeParts): MessageEnvelope {
  const envelope: MessageEnvelope = {
    id: parts.id,
    seq: parts.seq,
    type: parts.type,
    kind: parts.kind,
    content: parts.retracted ? null : parts.content,
    sender: parts.sender,
    timestamp: parts.timestamp,
    retracted: parts.retracted,
    ephemeral: parts.ephemeral,
  };
  if (parts.to) envelope.to = parts.to;
  if (parts.mentions) envelope.mentions = parts.mentions;
  if (parts.version !== undefined && parts.version > 1) {
    envelope.version = parts.version;
    envelope.updatedAt = parts.updatedAt ?? parts.timestamp;
    envelope.updatedBy = parts.updatedBy ?? null;
  }
  if (parts.reactions && !parts.retracted) envelope.reactions = parts.reactions;
  return envelope;
}

/**
 * EnvelopeParts whose content is JSON text (spliced as it is), null when retracted, and whose
 * reaction summary is JSON text too (as stored).
 */
export type EnvelopeTextParts = Omit<EnvelopeParts, 'content' | 'reactions'> & { content: string | null; reactions?: string | null };

/**
 * The JSON text of messageEnvelope(parts), with `content` spliced in as the text it was sent as,
 * never parsed or re-serialised: the same fields in the same order, so every path (live frames,
 * replay, history, webhooks) carries the content's exact bytes.
 */
export function messageEnvelopeText(parts: EnvelopeTextParts): string {
  const content = parts.retracted || parts.content === null ? 'null' : parts.content;
  return `${envelopeHead(parts)}${content}${envelopeTail(parts)}`;
}

/** `null` as UTF-8 (made without Buffer: the module loads anywhere). */
const NULL_CONTENT = Uint8Array.of(0x6e, 0x75, 0x6c, 0x6c);

/**
 * messageEnvelopeText as UTF-8 bytes, `content` given as the UTF-8 bytes it arrived as: they are
 * copied into the frame as they are, never decoded or encoded again (a publish's frame is built
 * around the bytes the channel owner received).
 */
export function messageEnvelopeBytes(parts: Omit<EnvelopeTextParts, 'content'>, content: Uint8Array | null): Uint8Array {
  const head = envelopeHead(parts);
  const tail = envelopeTail(parts);
  const value = parts.retracted || content === null ? NULL_CONTENT : content;
  const headLength = Buffer.byteLength(head, 'utf8');
  const tailLength = Buffer.byteLength(tail, 'utf8');
  const bytes = Buffer.allocUnsafe(headLength + value.length + tailLength);
  bytes.write(head, 0, headLength, 'utf8');
  bytes.set(value, headLength);
  bytes.write(tail, headLength + value.length, tailLength, 'utf8');
  return bytes;
}

/*
 * The text around `content`, written field by field rather than by serialising objects (what
 * JSON.stringify gives for these fields, for less work on every frame): each string through
 * JSON.stringify, so any character is escaped as it would be there.
 */
function envelopeHead(parts: Omit<EnvelopeTextParts, 'content'>): string {
  return `{"id":${JSON.stringify(parts.id)},"seq":${parts.seq},"type":${JSON.stringify(parts.type)},"kind":${JSON.stringify(parts.kind)},"content":`;
}

function envelopeTail(parts: Omit<EnvelopeTextParts, 'content'>): string {
  const { sender } = parts;
  let tail = `,"sender":{"id":${JSON.stringify(sender.id)},"anon":${sender.anon}},"timestamp":${parts.timestamp},"retracted":${parts.retracted},"ephemeral":${parts.ephemeral}`;
  if (parts.to) tail += `,"to":${JSON.stringify(parts.to)}`;
  if (parts.mentions) tail += `,"mentions":${JSON.stringify(parts.mentions)}`;
  if (parts.version !== undefined && parts.version > 1) {
    tail += `,"version":${parts.version},"updatedAt":${parts.updatedAt ?? parts.timestamp},"updatedBy":${JSON.stringify(parts.updatedBy ?? null)}`;
  }
  if (parts.reactions && !parts.retracted) tail += `,"reactions":${parts.reactions}`;
  return `${tail}}`;
}

/** Message ids are `msg_` + 26 base32 characters; anything else cannot name a message. */
export const MessageId = z.string().regex(/^[A-Za-z0-9_]{1,64}$/, 'must be a message id (msg_…)');

export const ChannelMessageParams = z
  .object({
    channelId: ChannelId.describe('The channel: 1-128 of `[A-Za-z0-9_.:@=-]`, chosen by the application.'),
    messageId: MessageId.describe('The message id (`msg_…`) its publish answered.'),
  })
  .strict();
export const ChannelSocketParams = z.object({ channelId: ChannelId }).strict();

export const SeqParam = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const HistoryQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(HISTORY_LIMIT_MAX).optional().describe('Default 50, max 500.'),
    before: SeqParam.optional().describe('Exclusive upper seq bound.'),
    after: SeqParam.optional().describe('Exclusive lower seq bound; with `after` the page starts just after it.'),
  })
  .strict();
export const HistoryResponse = z
  .object({
    messages: z.array(MessageEnvelope).describe('Ascending by seq.'),
    hasMore: z.boolean().describe('More messages exist beyond this page in the paging direction.'),
  })
  .meta({ id: 'History' });

/**
 * The delta formats a subscription may ask for (docs/protocol.md, "Delta compression"): `fossil`,
 * a fossil delta of `content`'s UTF-8 JSON text against the previous message's.
 */
export const DeltaFormat = z
  .enum(['fossil'])
  .describe(
    "Messages as deltas: `fossil`, each message's `content` as a fossil delta against the previous message this subscription received " +
      "(`delta: {format, base, data}` in place of `content`). Only where the channel's namespace turns `delta` on (else `forbidden`).",
  );

export const SocketQuery = z.object({
  since: SeqParam.optional(),
  rewind: RewindText.optional(),
  token: z.string().optional(),
  delta: DeltaFormat.optional(),
});

export const Ref = z.union([storableText(64), z.number().int()]);

/** Frames a client may send on the channel socket. */
export const ClientFrame = z.discriminatedUnion('op', [
  z.object({ op: z.literal('publish'), ref: Ref, ...publishFields }).strict(),
  z.object({ op: z.literal('retract'), ref: Ref, id: MessageId, reason: storableText(1024, 0).optional() }).strict(),
  z.object({ op: z.literal('edit'), ref: Ref, id: MessageId, content: publishFields.content }).strict(),
  z.object({ op: z.literal('react'), ref: Ref, id: MessageId, type: ReactionType }).strict(),
  z.object({ op: z.literal('unreact'), ref: Ref, id: MessageId, type: ReactionType }).strict(),
  z.object({ op: z.literal('ping'), ref: Ref.optional() }).strict(),
]);
export type ClientFrame = z.infer<typeof ClientFrame>;

/**
 * Gateway → channel owner, a NATS request on the partition subject. The gateway has already
 * authenticated and validated; the owner checks every field again before it writes anything
 * (apps/channel-node/src/command-check.ts), since anything that can publish on the subject can
 * send one.
 */
export type ChannelCommand =
  | {
      op: 'publish';
      environmentId: string;
      channelId: string;
      type: string;
      kind: 'user' | 'server' | 'system';
      /** The content's JSON text (an object) exactly as the client sent it; never re-serialised. */
      content: string;
      /**
       * `content`'s UTF-8 bytes as the channel owner received them (a framed request), when it has
       * them: frames and the commit copy these instead of encoding `content` again. Never sent on
       * the bus (the framed form carries the content after the header anyway).
       */
      contentBytes?: Uint8Array;
      sender: { id: string; anon: boolean };
      to?: string[];
      mentions?: string[];
      ephemeral: boolean;
      idempotencyKey?: string;
      /**
       * How the publish reached the gateway (the channel socket or /v1/connect, one HTTP publish, a
       * batch): the owner counts each committed message under it (docs/stats.md).
       */
      route?: 'socket' | 'http' | 'batch';
    }
  | {
      op: 'retract';
      environmentId: string;
      channelId: string;
      messageId: string;
      reason?: string;
      /** Realtime edge: only this sender may retract (else `forbidden`). */
      onlySender?: string;
      /**
       * An erasure job's retraction: made and counted in the job's `retracted` only while the job
       * still carries this lease token (else `unavailable`, nothing changed).
       */
      erasure?: { jobId: string; leaseToken: string };
    }
  | EditCommand
  | ReactCommand;

export type PublishResult = { id: string; seq: number; timestamp: number; ephemeral?: true };
/** `eventSeq`: the retraction's place in the channel's sequence (absent when it was already retracted). */
export type RetractResult = { id: string; seq: number; retracted: true; eventSeq?: number };

/** Owner → gateway. Error codes are those of the error table (libs/errors). */
export type CommandReply =
  | { ok: true; result: PublishResult | RetractResult | EditResult | ReactResult }
  | { ok: false; code: string; reason?: string; quota?: QuotaDetail };
