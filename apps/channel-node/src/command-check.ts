/**
 * The owner's own check of a command before it may enter a commit. Gateways validate too, but a
 * command arrives over NATS from whoever can publish on the partition subject (a gateway with a
 * bug, an older release, a hostile process): the owner trusts none of it. Everything Postgres or
 * the bus would refuse or mangle is refused here, so one bad command costs an error reply, not a
 * failed transaction shared with other environments' commands:
 * - NUL and lone surrogates in any text (ids, type, keys, reason): Postgres text cannot hold
 *   NUL, and UTF-8 cannot hold a lone surrogate;
 * - NUL or lone surrogates inside `content` are NOT refused: content travels and is stored as
 *   JSON text (a json column, webhook bodies as text), where they stay the escapes `\u0000` and
 *   `\ud800` and are read back as sent;
 * - ids by pattern and length (an environment id becomes a NATS subject token as it is);
 * - `content` is the JSON text the client sent (the framed form, libs/schemas command-codec.ts),
 *   spliced as it is into the commit, the frames and the webhook bodies: it must be one JSON
 *   object (valid UTF-8, checked by the caller that decodes it), at most MAX_CONTENT_BYTES,
 *   nested at most MAX_CONTENT_DEPTH, checked by one flat validating scan (jsonObjectProblem,
 *   libs/schemas json-span.ts), so no depth can overflow the stack. The scan was chosen over
 *   JSON.parse (with or without a walk) by measuring them: it allocates nothing and was faster
 *   at every size tried, from a 100-byte message to a 57 KB one;
 * - the older JSON form (a command object whose `content` is an object, from a gateway of the
 *   previous release) is walked without recursion as before, then turned into text once.
 * Content numbers need no bound: `content` is stored as json text, which keeps any number as it
 * was written; no integer of a command goes into a bigint column.
 */
import {
  ChannelId,
  MAX_ADDRESSEES,
  MAX_CONTENT_BYTES,
  MessageType,
  ReactionType,
  UserId,
  isStorableText,
  jsonObjectProblem,
  type ChannelCommand,
} from '@rtm/schemas';

/** Deepest nesting of objects and arrays inside `content` (the object itself is depth 1). */
export const MAX_CONTENT_DEPTH = 64;
export const MAX_MESSAGE_ID_LENGTH = 64;
export const MAX_IDEMPOTENCY_KEY_LENGTH = 128;
export const MAX_REASON_LENGTH = 1024;

/** Environment ids are minted by the service (`env_…`); they become NATS subject tokens. */
const ENVIRONMENT_ID = /^[A-Za-z0-9_-]{1,64}$/;

export type CheckResult = { ok: true; command: ChannelCommand } | { ok: false; reason: string };

const fail = (reason: string): CheckResult => ({ ok: false, reason });
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Checks a decoded command; `ok` means every field is safe to write as it is. `content` is JSON
 * text (the framed form), or with `legacy` an object (the older JSON form), which is then
 * replaced by its text in the command returned.
 */
export function checkCommand(value: unknown, legacy = false): CheckResult {
  if (!isObject(value)) return fail('the command is not an object');
  const c = value;
  if (typeof c.environmentId !== 'string' || !ENVIRONMENT_ID.test(c.environmentId)) return fail('environmentId is malformed');
  if (!ChannelId.safeParse(c.channelId).success) return fail('channelId must be 1-128 of [A-Za-z0-9_.:@=-]');
  if (c.op === 'retract') {
    const allowed = new Set(['op', 'environmentId', 'channelId', 'messageId', 'reason', 'onlySender', 'erasure']);
    const extra = Object.keys(c).find((k) => !allowed.has(k));
    if (extra !== undefined) return fail(`unknown field ${extra}`);
    if (!isText(c.messageId, MAX_MESSAGE_ID_LENGTH)) return fail('messageId is malformed');
    if (c.reason !== undefined && !isText(c.reason, MAX_REASON_LENGTH, 0)) return fail('reason is malformed');
    if (c.onlySender !== undefined && !UserId.safeParse(c.onlySender).success) return fail('onlySender is malformed');
    if (c.erasure !== undefined) {
      const e = c.erasure;
      if (!isObject(e) || Object.keys(e).length !== 2 || !isText(e.jobId, MAX_MESSAGE_ID_LENGTH) || !isText(e.leaseToken, MAX_MESSAGE_ID_LENGTH)) {
        return fail('erasure must be {jobId, leaseToken}');
      }
    }
    return { ok: true, command: c as ChannelCommand };
  }
  if (c.op === 'edit') return checkEdit(c, legacy);
  if (c.op === 'react') return checkReact(c);
  if (c.op !== 'publish') return fail('op must be publish, retract, edit or react');
  const allowed = new Set(['op', 'environmentId', 'channelId', 'type', 'kind', 'content', 'sender', 'to', 'mentions', 'ephemeral', 'idempotencyKey', 'route']);
  const extra = Object.keys(c).find((k) => !allowed.has(k));
  if (extra !== undefined) return fail(`unknown field ${extra}`);
  if (!MessageType.safeParse(c.type).success) return fail('type is malformed');
  if (c.kind !== 'user' && c.kind !== 'server' && c.kind !== 'system') return fail('kind must be user, server or system');
  if (typeof c.ephemeral !== 'boolean') return fail('ephemeral must be a boolean');
  if (!isObject(c.sender) || !UserId.safeParse(c.sender.id).success || typeof c.sender.anon !== 'boolean' || Object.keys(c.sender).length !== 2) {
    return fail('sender is malformed');
  }
  for (const field of ['to', 'mentions'] as const) {
    const list = c[field];
    if (list === undefined) continue;
    if (!Array.isArray(list) || list.length < 1 || list.length > MAX_ADDRESSEES || !list.every((u) => UserId.safeParse(u).success)) {
      return fail(`${field} must be 1-${MAX_ADDRESSEES} user ids`);
    }
  }
  if (c.idempotencyKey !== undefined && !isText(c.idempotencyKey, MAX_IDEMPOTENCY_KEY_LENGTH)) return fail('idempotencyKey is malformed');
  if (c.route !== undefined && c.route !== 'socket' && c.route !== 'http' && c.route !== 'batch') return fail('route must be socket, http or batch');
  return withContent(c, legacy);
}

/**
 * A publish's or an edit's command once its content is checked: JSON text (the framed form), or
 * with `legacy` an object, then replaced by its text.
 */
function withContent(c: Record<string, unknown>, legacy: boolean): CheckResult {
  if (legacy) {
    const content = checkContent(c.content);
    if (content !== undefined) return fail(content);
    // bounded depth: stringify cannot overflow now
    return { ok: true, command: { ...c, content: JSON.stringify(c.content) } as ChannelCommand };
  }
  const content = checkContentText(c.content);
  if (content !== undefined) return fail(content);
  return { ok: true, command: c as ChannelCommand };
}

function checkEdit(c: Record<string, unknown>, legacy: boolean): CheckResult {
  const allowed = new Set(['op', 'environmentId', 'channelId', 'messageId', 'content', 'editor', 'onlySender']);
  const extra = Object.keys(c).find((k) => !allowed.has(k));
  if (extra !== undefined) return fail(`unknown field ${extra}`);
  if (!isText(c.messageId, MAX_MESSAGE_ID_LENGTH)) return fail('messageId is malformed');
  if (c.editor !== null && !UserId.safeParse(c.editor).success) return fail('editor must be a user id or null');
  if (c.onlySender !== undefined && !UserId.safeParse(c.onlySender).success) return fail('onlySender is malformed');
  return withContent(c, legacy);
}

function checkReact(c: Record<string, unknown>): CheckResult {
  const allowed = new Set(['op', 'environmentId', 'channelId', 'messageId', 'type', 'userId', 'remove', 'asReader']);
  const extra = Object.keys(c).find((k) => !allowed.has(k));
  if (extra !== undefined) return fail(`unknown field ${extra}`);
  if (!isText(c.messageId, MAX_MESSAGE_ID_LENGTH)) return fail('messageId is malformed');
  if (!ReactionType.safeParse(c.type).success) return fail('type must be 1-32 characters without spaces');
  if (!UserId.safeParse(c.userId).success) return fail('userId is malformed');
  if (c.remove !== undefined && typeof c.remove !== 'boolean') return fail('remove must be a boolean');
  if (c.asReader !== undefined && typeof c.asReader !== 'boolean') return fail('asReader must be a boolean');
  return { ok: true, command: c as ChannelCommand };
}

/**
 * Why a content's JSON text cannot be stored and spliced as it is, or undefined: one JSON object,
 * at most MAX_CONTENT_BYTES of UTF-8, nested at most MAX_CONTENT_DEPTH. The text must come from
 * valid UTF-8 (a fatal decode), so it holds no lone surrogate.
 */
export function checkContentText(content: unknown): string | undefined {
  if (typeof content !== 'string') return 'content must be JSON text';
  // UTF-16 units ≤ UTF-8 bytes ≤ 3 per unit: measure only when it can matter
  if (content.length > MAX_CONTENT_BYTES || (content.length * 3 > MAX_CONTENT_BYTES && Buffer.byteLength(content, 'utf8') > MAX_CONTENT_BYTES)) {
    return `content is larger than ${MAX_CONTENT_BYTES} bytes`;
  }
  return jsonObjectProblem(content, MAX_CONTENT_DEPTH);
}

function isText(value: unknown, max: number, min = 1): value is string {
  return typeof value === 'string' && value.length >= min && value.length <= max && isStorableText(value);
}

/** Why an object `content` (the older JSON form) cannot be stored, or undefined. Iterative: depth is bounded before anything recurses. */
export function checkContent(content: unknown): string | undefined {
  if (!isObject(content)) return 'content must be a JSON object';
  const stack: { value: unknown; depth: number }[] = [{ value: content, depth: 1 }];
  while (stack.length > 0) {
    const { value, depth } = stack.pop()!;
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) return 'content holds a number JSON cannot carry';
      continue;
    }
    if (value === null || typeof value === 'boolean' || typeof value === 'string') continue;
    if (typeof value !== 'object') return 'content holds a value JSON cannot carry';
    if (depth > MAX_CONTENT_DEPTH) return `content is nested deeper than ${MAX_CONTENT_DEPTH} levels`;
    if (Array.isArray(value)) {
      for (const item of value) stack.push({ value: item, depth: depth + 1 });
      continue;
    }
    for (const item of Object.values(value)) stack.push({ value: item, depth: depth + 1 });
  }
  // bounded depth: stringify cannot overflow now
  if (Buffer.byteLength(JSON.stringify(content), 'utf8') > MAX_CONTENT_BYTES) return `content is larger than ${MAX_CONTENT_BYTES} bytes`;
  return undefined;
}
