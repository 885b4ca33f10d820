/**
 * The bus encoding of commands (libs/schemas command-codec.ts) as the owner decodes it
 * (apps/channel-node/src/command-request.ts): a header plus the content's raw bytes, several per
 * request; round trips keep the content's text byte for byte; malformed requests are refused
 * with a reason and never throw; the older JSON form is still accepted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodeCommand, frameRequest, unframeRequest, type ChannelCommand } from '@rtm/schemas';
import { decodeRequest, MAX_COMMANDS_PER_REQUEST } from '../../apps/channel-node/src/command-request.ts';

const publish = (content: string, extra: Partial<ChannelCommand> = {}): ChannelCommand =>
  ({
    op: 'publish',
    environmentId: 'env_1',
    channelId: 'room-1',
    type: 'message',
    kind: 'user',
    content,
    sender: { id: 'ann', anon: false },
    ephemeral: false,
    ...extra,
  }) as ChannelCommand;
/** A decoded command as it was encoded: without the content's bytes the owner keeps beside it. */
const withoutBytes = (command: ChannelCommand): ChannelCommand => {
  if (command.op !== 'publish') return command;
  const { contentBytes: _, ...rest } = command;
  return rest;
};
const retract: ChannelCommand = { op: 'retract', environmentId: 'env_1', channelId: 'room-1', messageId: 'msg_1', reason: 'spam ✓' };

/** Content texts as clients write them: odd spacing, integer-like keys out of order, escapes, unicode. */
const contentText = fc
  .tuple(
    fc.dictionary(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 6 }), fc.constantFrom('10', '2', '1')), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 }),
    fc.constantFrom('', ' ', '\n  ', '\t'),
  )
  .map(([object, gap]) => {
    const members = Object.entries(object).map(([k, v]) => `${JSON.stringify(k)}${gap}:${gap}${JSON.stringify(v)}`);
    return `{${gap}${members.join(`${gap},`)}${gap}}`.replace(/é/g, '\\u00e9');
  });

test('command codec: a request of any commands decodes to the same commands, content text byte for byte', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(
          contentText.map((c) => publish(c)),
          fc.constant(retract),
        ),
        { minLength: 1, maxLength: 20 },
      ),
      (commands) => {
        const decoded = decodeRequest(frameRequest(commands.map(encodeCommand)));
        assert.ok(decoded.ok, JSON.stringify(decoded));
        assert.equal(decoded.many, commands.length > 1, 'a request of one is answered by one reply');
        assert.deepEqual(
          decoded.commands.map((c) => (c.ok ? withoutBytes(c.command) : c)),
          commands,
        );
        // a publish keeps the bytes it arrived as, for the frames and the commit: its text's UTF-8
        for (const c of decoded.commands) {
          if (!c.ok || c.command.op !== 'publish') continue;
          assert.ok(c.command.contentBytes && Buffer.from(c.command.contentBytes).equals(Buffer.from(c.command.content, 'utf8')));
        }
      },
    ),
    { numRuns: 300 },
  );
  const odd = '{ "10" : "ten",\n\t"2":[1, [2, {"x" :null}]], "\\u00e9t\\u00e9":"\\ud83d\\ude00", "a":"\u00e9\u2028" }';
  const decoded = decodeRequest(frameRequest([encodeCommand(publish(odd))]));
  assert.ok(decoded.ok && decoded.commands[0]!.ok);
  assert.equal((decoded.commands[0] as { command: { content: string } }).command.content, odd);
});

test('command codec: a decoded publish encodes again to the same bytes (its content bytes copied, never put in the header)', () => {
  const odd = '{ "10" : "ten", "\\u00e9":"\u00e9\u2028" }';
  const encoded = encodeCommand(publish(odd));
  const decoded = decodeRequest(frameRequest([encoded]));
  assert.ok(decoded.ok && decoded.commands[0]!.ok);
  const command = decoded.commands[0]!.command;
  assert.ok(command.op === 'publish' && command.contentBytes);
  assert.ok(Buffer.from(encodeCommand(command)).equals(Buffer.from(encoded)));
});

test('command codec: malformed requests and commands are refused with a reason, never thrown', () => {
  const good = encodeCommand(publish('{"a":1}'));
  const request = frameRequest([good, good]);
  const header = (h: string, content = '') => {
    const b = Buffer.alloc(8 + Buffer.byteLength(h) + Buffer.byteLength(content));
    b.writeUInt32BE(Buffer.byteLength(h), 0);
    b.writeUInt32BE(Buffer.byteLength(content), 4);
    b.write(h, 8);
    b.write(content, 8 + Buffer.byteLength(h));
    return b;
  };
  const invalidUtf8 = Buffer.concat([
    header(JSON.stringify({ ...publish(''), content: undefined })).subarray(0, 8),
    Buffer.from(JSON.stringify({ ...publish(''), content: undefined })),
  ]);
  invalidUtf8.writeUInt32BE(3, 4);
  const withBadContent = Buffer.concat([invalidUtf8, Buffer.from([0x7b, 0xff, 0x7d])]);
  const refusedRequests: [string, Uint8Array, RegExp][] = [
    ['count 0', Buffer.from([1, 0, 0]), /at least one/],
    ['too many commands', Buffer.from([1, 0xff, 0xff]), /more than/],
    ['cut short in the lengths', request.subarray(0, 6), /cut short/],
    ['cut short in the content', request.subarray(0, request.length - 1), /cut short/],
    ['bytes left over', Buffer.concat([request, Buffer.from([0])]), /left over/],
  ];
  for (const [what, bytes, reason] of refusedRequests) {
    const decoded = decodeRequest(bytes);
    assert.equal(decoded.ok, false, what);
    assert.match(!decoded.ok ? decoded.reason : '', reason, what);
  }
  const { content: _, ...publishHeader } = publish('') as { content: string };
  const refusedCommands: [string, Uint8Array, RegExp][] = [
    ['header not JSON', header('{"op":'), /undecodable/],
    ['header not an object', header('[1]'), /not an object/],
    ['content inside the header', header(JSON.stringify(publish('{}'))), /after the header/],
    ['content not valid UTF-8', withBadContent, /UTF-8/],
    ['content on a retraction', header(JSON.stringify(retract), '{}'), /only a publish/],
    ['content not an object', header(JSON.stringify(publishHeader), '[1]'), /must be a JSON object/],
    ['content not JSON', header(JSON.stringify(publishHeader), '{"a":1,}'), /not valid JSON/],
    ['content missing', header(JSON.stringify(publishHeader), ''), /JSON object/],
    ['content too deep', header(JSON.stringify(publishHeader), `${'{"a":'.repeat(64)}{}${'}'.repeat(64)}`), /deeper/],
    ['content over 64 KiB', header(JSON.stringify(publishHeader), `{"a":"${'x'.repeat(64 * 1024)}"}`), /larger than/],
    ['header over its bound', header(JSON.stringify({ ...publishHeader, type: 'x'.repeat(70_000) })), /header is larger/],
  ];
  for (const [what, command, reason] of refusedCommands) {
    // alone, and beside a good command (which still passes: one bad command fails alone)
    const alone = decodeRequest(frameRequest([command]));
    assert.ok(alone.ok && !alone.commands[0]!.ok, what);
    assert.match(alone.commands[0]!.ok ? '' : alone.commands[0]!.reason, reason, what);
    const mixed = decodeRequest(frameRequest([good, command]));
    assert.ok(mixed.ok && mixed.commands[0]!.ok && !mixed.commands[1]!.ok, what);
  }
  assert.equal(unframeRequest(Buffer.from('{"op":"publish"}'), MAX_COMMANDS_PER_REQUEST).ok, false, 'JSON is not a framed request');
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
      decodeRequest(Uint8Array.from([1, ...bytes]));
      decodeRequest(bytes);
    }),
  );
});

test('command codec: the older JSON form (object or array, content an object) is still accepted, its content turned into text once', () => {
  const old = { ...publish(''), content: { '10': 'ten', '2': 'two', text: 'hé' } };
  const one = decodeRequest(new TextEncoder().encode(JSON.stringify(old)));
  assert.ok(one.ok && !one.many && one.commands[0]!.ok);
  assert.equal((one.commands[0] as { command: { content: string } }).command.content, JSON.stringify(old.content));
  const many = decodeRequest(new TextEncoder().encode(JSON.stringify([old, retract, { ...old, content: [1] }])));
  assert.ok(many.ok && many.many);
  assert.deepEqual(
    many.commands.map((c) => c.ok),
    [true, true, false],
  );
});
