/**
 * The message envelope builder (libs/schemas messageEnvelope): one shape for publish frames,
 * history, replay, retractions and webhooks. Keys always in the same order (clients and
 * webhook receivers that compare JSON text see the same text for the same message), a retracted
 * message carries no content, and `to`/`mentions` appear only when the message has them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { messageEnvelope, messageEnvelopeBytes, messageEnvelopeText, MessageEnvelope } from '../../libs/schemas/src/channels.ts';

const ORDER = ['id', 'seq', 'type', 'kind', 'content', 'sender', 'timestamp', 'retracted', 'ephemeral', 'to', 'mentions'];

const parts = fc.record({
  id: fc.string({ minLength: 1 }),
  seq: fc.nat(),
  type: fc.string(),
  kind: fc.constantFrom('user' as const, 'server' as const, 'system' as const),
  content: fc.option(fc.dictionary(fc.string(), fc.jsonValue()), { nil: null }),
  sender: fc.record({ id: fc.string(), anon: fc.boolean() }),
  timestamp: fc.nat(),
  retracted: fc.boolean(),
  ephemeral: fc.boolean(),
  to: fc.option(fc.array(fc.string(), { minLength: 1 }), { nil: null }),
  mentions: fc.option(fc.array(fc.string(), { minLength: 1 }), { nil: undefined }),
});

test('envelope: canonical key order, no content once retracted, to/mentions only when present, valid by the schema', () => {
  fc.assert(
    fc.property(parts, (p) => {
      const envelope = messageEnvelope(p);
      const keys = Object.keys(envelope);
      assert.deepEqual(
        keys,
        ORDER.filter((key) => keys.includes(key)),
      );
      assert.equal(keys.includes('to'), p.to != null);
      assert.equal(keys.includes('mentions'), p.mentions != null);
      assert.equal(envelope.content, p.retracted ? null : p.content);
      assert.ok(MessageEnvelope.safeParse(envelope).success);
    }),
  );
});

test('envelope: extra fields of a stored row do not leak into it', () => {
  const row = {
    id: 'msg_1',
    seq: 3,
    type: 't',
    kind: 'user' as const,
    content: { a: 1 },
    sender_id: 'ann',
    sender_anon: false,
    ts: 5,
    retracted: false,
    to: null,
    mentions: null,
  };
  const envelope = messageEnvelope({ ...row, sender: { id: 'ann', anon: false }, timestamp: row.ts, ephemeral: false });
  assert.deepEqual(
    JSON.stringify(envelope),
    JSON.stringify({
      id: 'msg_1',
      seq: 3,
      type: 't',
      kind: 'user',
      content: { a: 1 },
      sender: { id: 'ann', anon: false },
      timestamp: 5,
      retracted: false,
      ephemeral: false,
    }),
  );
});

test("envelope text: the same text as the object envelope serialised, with the content's own text spliced in unchanged", () => {
  fc.assert(
    fc.property(parts, fc.constantFrom('', ' ', '\n\t'), (p, gap) => {
      // compact content: exactly what serialising the object envelope gives
      const compact = p.content === null ? null : JSON.stringify(p.content);
      assert.equal(messageEnvelopeText({ ...p, content: compact }), JSON.stringify(messageEnvelope(p)));
      // content as some client wrote it: spliced byte for byte, the rest unchanged
      if (p.content === null || p.retracted) return;
      const written = `{${gap}${Object.entries(p.content)
        .map(([k, v]) => `${JSON.stringify(k)}${gap}:${JSON.stringify(v)}`)
        .join(`,${gap}`)}${gap}}`;
      const text = messageEnvelopeText({ ...p, content: written });
      assert.ok(text.includes(`,"content":${written},"sender":`));
      assert.deepEqual(JSON.parse(text), JSON.parse(JSON.stringify(messageEnvelope(p))));
    }),
  );
  const stored = messageEnvelopeText({
    id: 'msg_1',
    seq: 1,
    type: 't',
    kind: 'user',
    content: '{ "10":1, "2":2 }',
    sender: { id: 'a', anon: false },
    timestamp: 1,
    retracted: true,
    ephemeral: false,
  });
  assert.ok(stored.includes('"content":null'), 'a retracted message has no content, whatever text is passed');
});

test("envelope bytes: the UTF-8 of the envelope text, the content's bytes copied in as they are", () => {
  fc.assert(
    fc.property(parts, fc.constantFrom('', ' ', '\n\t'), (p, gap) => {
      const written =
        p.content === null
          ? null
          : `{${gap}${Object.entries(p.content)
              .map(([k, v]) => `${JSON.stringify(k)}${gap}:${JSON.stringify(v)}`)
              .join(`,${gap}`)}${gap}}`;
      const bytes = messageEnvelopeBytes(p, written === null ? null : Buffer.from(written, 'utf8'));
      assert.ok(Buffer.from(bytes).equals(Buffer.from(messageEnvelopeText({ ...p, content: written }), 'utf8')));
    }),
  );
  // the bytes are copied, never decoded: even bytes that are not UTF-8 arrive unchanged
  const raw = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0xa9, 0x22, 0x7d]);
  const frame = Buffer.from(
    messageEnvelopeBytes(
      { id: 'msg_1', seq: 1, type: 'tÿpe', kind: 'user', sender: { id: 'a', anon: false }, timestamp: 1, retracted: false, ephemeral: false },
      raw,
    ),
  );
  assert.ok(frame.includes(Buffer.concat([Buffer.from('"content":'), raw, Buffer.from(',"sender":')])));
  assert.ok(frame.includes(Buffer.from('"type":"tÿpe"', 'utf8')), 'text around the content is UTF-8, whatever its characters');
  const retracted = messageEnvelopeBytes(
    { id: 'msg_1', seq: 1, type: 't', kind: 'user', sender: { id: 'a', anon: false }, timestamp: 1, retracted: true, ephemeral: false },
    raw,
  );
  assert.ok(Buffer.from(retracted).toString('utf8').includes('"content":null'), 'a retracted message has no content, whatever bytes are passed');
});
