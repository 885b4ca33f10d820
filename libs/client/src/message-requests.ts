/**
 * The frames of a channel's requests to change messages (`publish`, `retract`, `edit`, `react`,
 * `unreact`), checked before anything is queued so that a bad argument is refused at once with
 * `invalid_request` and never waits for a connection; and reading a message's versions.
 */
import { RtmError } from './errors.ts';
import { getJson, type HttpContext } from './http.ts';
import { MESSAGE_ID, REACTION_TYPE, newIdempotencyKey } from './ids.ts';
import type { MessageVersion, PublishOptions } from './types.ts';

type Frame = Record<string, unknown>;

function content(value: unknown): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new RtmError('invalid_request', 'content must be a JSON object');
  return value as Record<string, unknown>;
}

function messageId(value: unknown): string {
  if (typeof value !== 'string' || !MESSAGE_ID.test(value))
    throw new RtmError('invalid_request', 'messageId must be a message id (msg_…): 1-64 of A-Z a-z 0-9 _');
  return value;
}

function reactionType(value: unknown): string {
  if (typeof value !== 'string' || !REACTION_TYPE.test(value)) {
    throw new RtmError('invalid_request', 'a reaction type is 1-32 characters without spaces or control characters, e.g. "thumbsup" or "👍"');
  }
  return value;
}

export function publishFrame(channelId: string, body: unknown, options: PublishOptions): Frame {
  const frame: Frame = { op: 'publish', channelId, content: content(body) };
  if (options.type !== undefined) frame.type = options.type;
  if (options.to !== undefined) frame.to = options.to;
  if (options.mentions !== undefined) frame.mentions = options.mentions;
  if (options.ephemeral) frame.ephemeral = true;
  frame.idempotencyKey = options.idempotencyKey ?? newIdempotencyKey();
  return frame;
}

export function retractFrame(channelId: string, id: unknown, reason: string | undefined): Frame {
  const frame: Frame = { op: 'retract', channelId, id: messageId(id) };
  if (reason !== undefined) frame.reason = reason;
  return frame;
}

export function editFrame(channelId: string, id: unknown, body: unknown): Frame {
  return { op: 'edit', channelId, id: messageId(id), content: content(body) };
}

export function reactFrame(op: 'react' | 'unreact', channelId: string, id: unknown, type: unknown): Frame {
  return { op, channelId, id: messageId(id), type: reactionType(type) };
}

/** Every version of a message's content, oldest first (`GET …/messages/{messageId}/versions`). */
export async function versionsOf(http: HttpContext, channelId: string, id: unknown): Promise<MessageVersion[]> {
  const path = `/v1/channels/${encodeURIComponent(channelId)}/messages/${encodeURIComponent(messageId(id))}/versions`;
  const answer = await getJson<{ versions: MessageVersion[] }>(http, path);
  return answer.versions;
}
