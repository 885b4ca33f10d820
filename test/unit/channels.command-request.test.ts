import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { CommandReply } from '@rtm/schemas';
import { decodeRequest, MAX_COMMAND_BYTES, MAX_COMMANDS_PER_REQUEST, ReplyCollector } from '../../apps/channel-node/src/command-request.ts';

const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const publish = (channelId: string) => ({
  op: 'publish',
  environmentId: 'env_1',
  channelId,
  type: 'message',
  kind: 'server',
  content: { n: 1 },
  sender: { id: 'server', anon: false },
  ephemeral: false,
});

test('decodeRequest: one command, or an array checked element by element', () => {
  const one = decodeRequest(encode(publish('a')));
  assert.ok(one.ok && !one.many && one.commands.length === 1 && one.commands[0]!.ok);

  const many = decodeRequest(encode([publish('a'), { ...publish('b'), channelId: '' }, publish('c')]));
  assert.ok(many.ok && many.many);
  assert.deepEqual(
    many.commands.map((c) => c.ok),
    [true, false, true],
  );

  for (const bad of [[], {}, 'x', [1, 2].slice(0, 0)]) {
    const decoded = decodeRequest(encode(bad));
    if (Array.isArray(bad)) assert.equal(decoded.ok, false);
    else assert.ok(!decoded.ok || !decoded.commands[0]!.ok);
  }
  assert.equal(decodeRequest(new TextEncoder().encode('[{"op":')).ok, false);
  assert.equal(decodeRequest(encode(Array.from({ length: MAX_COMMANDS_PER_REQUEST + 1 }, () => publish('a')))).ok, false);
  assert.equal(decodeRequest(encode({ ...publish('a'), content: { big: 'x'.repeat(MAX_COMMAND_BYTES) } })).ok, false);
  // the per-command bound holds inside an array too: content over 64 KiB fails that element only
  const mixed = decodeRequest(encode([publish('a'), { ...publish('b'), content: { big: 'x'.repeat(70 * 1024) } }]));
  assert.ok(mixed.ok);
  assert.deepEqual(
    mixed.commands.map((c) => c.ok),
    [true, false],
  );
});

test('ReplyCollector: one reply, sent once, after every slot is filled, in slot order whatever the filling order', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 40 }).chain((n) => fc.tuple(fc.constant(n), fc.shuffledSubarray([...Array(n).keys()], { minLength: n, maxLength: n }))),
      fc.boolean(),
      ([n, order], twice) => {
        const sent: (CommandReply | CommandReply[])[] = [];
        const collector = new ReplyCollector(n, true, (reply) => sent.push(reply));
        order.forEach((index, k) => {
          assert.equal(sent.length, 0, 'nothing leaves before every slot is filled');
          collector.slot(index)({ ok: false, code: 'unavailable', reason: String(index) });
          if (twice && k === 0) collector.slot(index)({ ok: false, code: 'internal', reason: 'second' });
        });
        assert.equal(sent.length, 1);
        const replies = sent[0] as CommandReply[];
        assert.deepEqual(
          replies.map((r) => (r.ok ? '' : r.reason)),
          [...Array(n).keys()].map(String),
        );
        // late or repeated answers change nothing
        collector.slot(0)({ ok: false, code: 'internal', reason: 'late' });
        assert.equal(sent.length, 1);
      },
    ),
  );
  const single: unknown[] = [];
  new ReplyCollector(1, false, (reply) => single.push(reply)).slot(0)({ ok: false, code: 'internal' });
  assert.deepEqual(single, [{ ok: false, code: 'internal' }]);
});
