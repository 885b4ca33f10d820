/**
 * Messages that change (docs/channels.md, "Messages that change"): edits (a new version of a
 * message's content) and reactions (a short type per user, summarised per message). Each change
 * goes through the channel's owner and takes the next seq of the channel's sequence (its
 * `eventSeq`), so it is ordered with the channel's messages and replayed on resume.
 */
import { z } from 'zod';
import { UserId } from './common.ts';
import { NOT_STORABLE, isStorableText } from './json-text.ts';

/** Users a reaction summary names per type (the first to react); `count` counts all. */
export const REACTION_USERS_SHOWN = 10;
/** Reaction types one user may have on one message at once. */
export const MAX_REACTIONS_PER_USER = 16;
/** Distinct reaction types one message may carry. */
export const MAX_REACTION_TYPES = 64;
/** The shortest interval between two summaries of one message (frames and webhook events). */
export const SUMMARY_INTERVAL_MS = 250;

export const ReactionType = z
  .string()
  .min(1)
  .max(32)
  .regex(/^[^\s\u0000-\u001f]+$/, 'must not contain spaces or control characters')
  .refine(isStorableText, NOT_STORABLE)
  .describe('A short reaction name or emoji, 1-32 characters without spaces, e.g. "thumbsup" or "👍".');

export const ReactionCount = z.object({
  count: z.number().int().describe('Users who reacted with this type.'),
  users: z.array(z.string()).describe(`The first ${REACTION_USERS_SHOWN} users who reacted with this type, oldest first.`),
  clipped: z.boolean().describe('`users` does not name everyone (`count` is larger).'),
});
export const ReactionSummary = z
  .record(z.string(), ReactionCount)
  .meta({ id: 'ReactionSummary', description: 'Reaction type → who reacted with it. Absent from a message nobody reacted to.' });
export type ReactionSummary = z.infer<typeof ReactionSummary>;

const EditContent = z
  .record(z.string(), z.unknown())
  .describe("The new content: a JSON object, at most 64 KiB as sent, kept exactly as sent like a publish's.");

export const EditBody = z.object({ content: EditContent }).strict();
export const ServerEditBody = z
  .object({
    content: EditContent,
    userId: UserId.optional().describe('Recorded as `updatedBy`; omitted: null (the backend edited).'),
  })
  .strict();
export const EditResponse = z
  .object({
    id: z.string(),
    seq: z.number().int(),
    version: z.number().int().describe('The new version: 2 after the first edit.'),
    updatedAt: z.number().int().describe('When the edit committed (ms since the epoch).'),
    eventSeq: z.number().int().describe("The edit's place in the channel's sequence."),
  })
  .meta({ id: 'EditedMessage' });

export const ReactBody = z.object({ type: ReactionType }).strict();
export const ServerReactBody = z.object({ type: ReactionType, userId: UserId.describe('Who reacts.') }).strict();
export const ReactionParams = z.object({ type: ReactionType }).strict();
export const ServerUnreactQuery = z.object({ userId: UserId.describe('Whose reaction to remove.') }).strict();
export const ReactionResponse = z
  .object({
    id: z.string(),
    seq: z.number().int(),
    type: z.string(),
    reacted: z.boolean().describe('Whether the user now has this reaction on the message.'),
  })
  .meta({ id: 'Reaction' });

export const MessageVersion = z.object({
  version: z.number().int(),
  content: z.record(z.string(), z.unknown()),
  updatedAt: z.number().int().nullable().describe("null for version 1 (its time is the message's `timestamp`)."),
  updatedBy: z.string().nullable().describe("Who made this version: the editor's user id; null for version 1 and backend edits."),
});
export const MessageVersions = z
  .object({ versions: z.array(MessageVersion).describe("Oldest first; the last is the message's content now.") })
  .meta({ id: 'MessageVersions' });

/** Gateway → owner: a new version of a message's content. */
export interface EditCommand {
  op: 'edit';
  environmentId: string;
  channelId: string;
  messageId: string;
  /** The new content's JSON text exactly as sent (framed like a publish's content). */
  content: string;
  contentBytes?: Uint8Array;
  /** Recorded as `updatedBy`; null: the backend. */
  editor: string | null;
  /** Realtime edge: only this sender may edit (else `forbidden`). */
  onlySender?: string;
}

/** Gateway → owner: a user adds (or with `remove`, takes back) a reaction. Repeating one changes nothing. */
export interface ReactCommand {
  op: 'react';
  environmentId: string;
  channelId: string;
  messageId: string;
  type: string;
  userId: string;
  remove?: boolean;
  /** Realtime edge: the user must be able to see the message (its `to`), else `not_found`. */
  asReader?: boolean;
}

export type EditResult = { id: string; seq: number; version: number; updatedAt: number; eventSeq: number };
export type ReactResult = { id: string; seq: number; type: string; reacted: boolean };
