import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodeCommand, frameRequest, type ChannelCommand } from '@rtm/schemas';
import { checkCommand, MAX_CONTENT_DEPTH } from '../../apps/channel-node/src/command-check.ts';
import { decodeRequest } from '../../apps/channel-node/src/command-request.ts';

/** JSON text of a content; one too deep for JSON.stringify is written out flat (`{"a":{"a":…{}…}}`). */
const textOf = (content: unknown): string => {
  try {
    return JSON.stringify(content);
  } catch {
    let depth = 0;
    for (let v = content as Record<string, unknown>; v && typeof v === 'object' && 'a' in v; v = v.a as Record<string, unknown>) depth++;
    return `${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}`;
  }
};

/**
 * A command checked in both forms the owner accepts: the older JSON form (content an object) and
 * the framed one (content the object's JSON text, after a header); both must give the same verdict.
 */
const checkBoth = (command: unknown): { ok: boolean; command?: ChannelCommand; reason?: string } => {
  const legacy = checkCommand(command, true);
  const c = command as Record<string, unknown>;
  const asText = typeof c === 'object' && c !== null && c.op === 'publish' && 'content' in c ? { ...c, content: textOf(c.content) } : command;
  const framed = checkCommand(asText);
  assert.equal(framed.ok, legacy.ok, `framed ${JSON.stringify(framed).slice(0, 200)} vs legacy ${JSON.stringify(legacy).slice(0, 200)}`);
  if (framed.ok && legacy.ok) assert.deepEqual(legacy.command, framed.command, 'the older form is turned into the framed one');
  // through the real bytes: header + content, one request
  if (typeof asText === 'object' && asText !== null && typeof (asText as { op?: unknown }).op === 'string' && framed.ok) {
    const decoded = decodeRequest(frameRequest([encodeCommand(asText as ChannelCommand)]));
    assert.ok(decoded.ok && decoded.commands[0]!.ok, JSON.stringify(decoded).slice(0, 300));
  }
  return legacy;
};

/** A raw bus payload is accepted only if it decodes and every command in it passes. */
const checkEncoded = (data: Uint8Array) => {
  const decoded = decodeRequest(data);
  return { ok: decoded.ok && decoded.commands.every((c) => c.ok) };
};

const publish = {
  op: 'publish',
  environmentId: 'env_01hx',
  channelId: 'room-1',
  type: 'message',
  kind: 'user',
  content: { text: 'hi' },
  sender: { id: 'alice', anon: false },
  ephemeral: false,
};
const retract = { op: 'retract', environmentId: 'env_01hx', channelId: 'room-1', messageId: 'msg_01hx' };

const nest = (depth: number): Record<string, unknown> => {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
};

test('channels command check - well-formed commands pass as they are', () => {
  for (const command of [
    publish,
    { ...publish, to: ['bob'], mentions: ['carol'], idempotencyKey: 'k-1', kind: 'server' },
    { ...publish, content: { nul: '\u0000', lone: '\ud800', emoji: '😀', big: 2 ** 80 } }, // stored losslessly as json text
    { ...publish, content: nest(MAX_CONTENT_DEPTH) },
    retract,
    { ...retract, reason: 'spam 😀', onlySender: 'alice' },
    { ...retract, erasure: { jobId: 'erj_1', leaseToken: 'tok-1' } },
    { ...retract, messageId: 'not-ours but harmless' }, // answered not_found by the commit
  ]) {
    const checked = checkBoth(command);
    assert.ok(checked.ok, JSON.stringify(checked));
    const c = command as Record<string, unknown>;
    assert.deepEqual(checked.command, c.op === 'publish' ? { ...c, content: JSON.stringify(c.content) } : command);
  }
});

test('channels command check - everything Postgres or the bus would refuse is refused before the commit', () => {
  const bad: [string, unknown][] = [
    ['not an object', 'publish'],
    ['unknown op', { ...retract, op: 'delete' }],
    ['NUL in a message id', { ...retract, messageId: 'a\u0000b' }],
    ['lone surrogate in a message id', { ...retract, messageId: 'a\udc00' }],
    ['message id too long', { ...retract, messageId: 'm'.repeat(65) }],
    ['empty message id', { ...retract, messageId: '' }],
    ['NUL in a reason', { ...retract, reason: 'x\u0000' }],
    ['reason too long', { ...retract, reason: 'r'.repeat(1025) }],
    ['bad onlySender', { ...retract, onlySender: 'a b' }],
    ['erasure without a token', { ...retract, erasure: { jobId: 'erj_1' } }],
    ['erasure with extra fields', { ...retract, erasure: { jobId: 'erj_1', leaseToken: 't', count: 5 } }],
    ['NUL in an erasure token', { ...retract, erasure: { jobId: 'erj_1', leaseToken: 't\u0000' } }],
    ['subject characters in an environment id', { ...publish, environmentId: 'env.*' }],
    ['NUL in an environment id', { ...publish, environmentId: 'env\u0000' }],
    ['bad channel id', { ...publish, channelId: 'a\u0000b' }],
    ['channel id too long', { ...publish, channelId: 'c'.repeat(129) }],
    ['NUL in a type', { ...publish, type: 'a\u0000' }],
    ['lone surrogate in a type', { ...publish, type: '\ud800x' }],
    ['bad kind', { ...publish, kind: 'admin' }],
    ['bad sender', { ...publish, sender: { id: 'a\u0000', anon: false } }],
    ['sender with extra fields', { ...publish, sender: { id: 'a', anon: false, admin: true } }],
    ['bad addressee', { ...publish, to: ['ok', 'not ok'] }],
    ['too many mentions', { ...publish, mentions: Array.from({ length: 101 }, (_, i) => `u${i}`) }],
    ['NUL in an idempotency key', { ...publish, idempotencyKey: '\u0000' }],
    ['lone surrogate in an idempotency key', { ...publish, idempotencyKey: 'k\ud800' }],
    ['idempotency key too long', { ...publish, idempotencyKey: 'k'.repeat(129) }],
    ['content not an object', { ...publish, content: [1] }],
    ['content too deep', { ...publish, content: nest(MAX_CONTENT_DEPTH + 1) }],
    ['content 10,000 levels deep', { ...publish, content: nest(10_000) }],
    ['content too large', { ...publish, content: { big: 'x'.repeat(64 * 1024) } }],
    ['ephemeral not a boolean', { ...publish, ephemeral: 'yes' }],
    ['unknown field', { ...publish, admin: true }],
  ];
  for (const [what, command] of bad) {
    const checked = checkBoth(command);
    assert.equal(checked.ok, false, what);
  }
});

test('channels command check - raw bus payloads: undecodable, oversized or hostile JSON never throw', () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  assert.equal(checkEncoded(encode('{')).ok, false);
  assert.equal(checkEncoded(new Uint8Array(300 * 1024)).ok, false);
  assert.equal(checkEncoded(encode(`{"op":"publish","content":${'['.repeat(50_000)}${']'.repeat(50_000)}}`)).ok, false);
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 6 }), fc.string(), (value, text) => {
      assert.equal(checkEncoded(encode(JSON.stringify(value) ?? 'null')).ok, false);
      const mutated = { ...publish, type: text, channelId: text };
      const checked = checkBoth(mutated);
      if (checked.ok) assert.match(text, /^[A-Za-z0-9_.:@=-]{1,64}$/);
    }),
    { numRuns: 300 },
  );
});
