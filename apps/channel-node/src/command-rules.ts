/**
 * What a channel owner accepts from the bus. Gateways validate every request first, but an owner
 * does not trust its callers (an older or buggy gateway, or anything else that can publish on the
 * partition subject): a command Postgres would refuse must be answered alone, here, and never
 * enter a merged transaction where it would fail its neighbours.
 */
import { MAX_ADDRESSEES, MAX_CONTENT_BYTES, isStorableText } from '@rtm/schemas';

const ID = /^[a-z]{1,8}_[0-9a-hjkmnp-tv-z]{26}$/;
const CHANNEL_ID = /^[A-Za-z0-9_.:@=-]{1,128}$/;
const USER_ID = /^[A-Za-z0-9_.:@-]{1,128}$/;
const MESSAGE_ID = /^[A-Za-z0-9_]{1,64}$/;
const KINDS = new Set(['user', 'server', 'system']);

const text = (value: unknown, max: number, min = 1): boolean =>
  typeof value === 'string' && value.length >= min && value.length <= max && isStorableText(value);

const userIds = (value: unknown): boolean =>
  value === undefined ||
  (Array.isArray(value) && value.length >= 1 && value.length <= MAX_ADDRESSEES && value.every((v) => typeof v === 'string' && USER_ID.test(v)));

/** Why `command` cannot be committed, or null when it can. */
export function commandProblem(command: unknown): string | null {
  if (!command || typeof command !== 'object') return 'not a command';
  const c = command as Record<string, unknown>;
  if (typeof c.environmentId !== 'string' || !ID.test(c.environmentId)) return 'environmentId: not an environment id';
  if (typeof c.channelId !== 'string' || !CHANNEL_ID.test(c.channelId)) return 'channelId: must be 1-128 of [A-Za-z0-9_.:@=-]';
  if (c.op === 'publish') {
    if (!text(c.type, 64) || /[\u0000-\u001f]/.test(c.type as string)) return 'type: must be 1-64 storable characters';
    if (typeof c.kind !== 'string' || !KINDS.has(c.kind)) return 'kind: unknown';
    if (!c.content || typeof c.content !== 'object' || Array.isArray(c.content)) return 'content: must be a JSON object';
    if (Buffer.byteLength(JSON.stringify(c.content)) > MAX_CONTENT_BYTES) return 'content: over 64 KiB serialized';
    const sender = c.sender as Record<string, unknown> | undefined;
    if (!sender || typeof sender.id !== 'string' || !USER_ID.test(sender.id) || typeof sender.anon !== 'boolean') return 'sender: invalid';
    if (!userIds(c.to)) return 'to: must be 1-100 user ids';
    if (!userIds(c.mentions)) return 'mentions: must be 1-100 user ids';
    if (typeof c.ephemeral !== 'boolean') return 'ephemeral: must be a boolean';
    if (c.idempotencyKey !== undefined && !text(c.idempotencyKey, 128)) return 'idempotencyKey: must be 1-128 storable characters';
    return null;
  }
  if (c.op === 'retract') {
    if (typeof c.messageId !== 'string' || !MESSAGE_ID.test(c.messageId)) return 'messageId: not a message id';
    if (c.reason !== undefined && !text(c.reason, 1024, 0)) return 'reason: must be at most 1024 storable characters';
    if (c.onlySender !== undefined && (typeof c.onlySender !== 'string' || !USER_ID.test(c.onlySender))) return 'onlySender: not a user id';
    return null;
  }
  return 'op: must be publish or retract';
}
