/**
 * Delta compression at the gateway (libs/edge/src/channels/delta-frames.ts, the feed and the
 * reader), without processes: a channel feed with a fake NATS subscription and store, readers
 * (ChannelReplay) on fake links, and the client SDK's DeltaReader rebuilding what they were sent.
 * - a delta frame is the message with `content` replaced by `delta`, only when smaller;
 * - a delta reader's messages rebuild to the exact content text a plain reader gets, across
 *   persisted and ephemeral messages, `to` messages (never deltas, never bases), retractions and
 *   skips (which do not move the base), and a gap repaired from Postgres (sent whole);
 * - a reader that joins mid-stream gets its first message whole;
 * - the delta of a message is encoded once for every delta reader of the feed (the same bytes).
 */
import { NO_USAGE } from '@rtm/usage';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyDelta } from 'fossil-delta';
import { resolveNamespace } from '@rtm/rules';
import { subjects } from '@rtm/bus';
import { envelopeTextOfRow, type MessageRow } from '@rtm/channels';
import { messageEnvelopeText } from '@rtm/schemas';
import { FeedRegistry, type FeedDeps } from '../../libs/edge/src/channels/channel-feed.ts';
import fc from 'fast-check';
import { DeltaBase, baseIdOf, contentSpan, deltaFrameText, walkedContentSpan } from '../../libs/edge/src/channels/delta-frames.ts';
import { ChannelReplay } from '../../libs/edge/src/sessions/channel-replay.ts';
import type { Link } from '../../libs/edge/src/sessions/link.ts';
import { DeltaReader, contentText, keepFrameText } from '../../libs/client/src/delta.ts';

/** A ~4 KB state document whose field `n` changes with each version. */
const documentText = (n: number, spacing = '') => {
  const rows = Array.from({ length: 40 }, (_, i) => `{"key":"row-${i}",${spacing}"value":${i * 7},"label":"état ${i} ✓"}`);
  return `{"version":${n},${spacing}"rows":[${rows.join(',')}],"updatedBy":"user-${n % 3}"}`;
};

const envelope = (id: string, seq: number, content: string | null, extra: { to?: string[]; ephemeral?: boolean } = {}) =>
  messageEnvelopeText({
    id,
    seq,
    type: 'state',
    kind: 'user',
    content,
    sender: { id: 'writer', anon: false },
    timestamp: 1_000 + seq,
    retracted: content === null,
    ephemeral: extra.ephemeral ?? false,
    to: extra.to,
  });

test('delta frame - content replaced by a fossil delta that rebuilds it; every other field in place; only when smaller', () => {
  const base = new DeltaBase('msg_1', envelope('msg_1', 1, documentText(1)));
  const target = new DeltaBase('msg_2', envelope('msg_2', 2, documentText(2)));
  const text = deltaFrameText(base, target)!;
  const frame = JSON.parse(text) as Record<string, unknown>;
  const full = JSON.parse(target.text) as Record<string, unknown>;
  assert.equal(frame.content, undefined);
  assert.deepEqual(
    Object.keys(frame),
    Object.keys(full).map((key) => (key === 'content' ? 'delta' : key)),
  );
  const delta = frame.delta as { format: string; base: string; data: string };
  assert.equal(delta.format, 'fossil');
  assert.equal(delta.base, 'msg_1');
  const rebuilt = Buffer.from(applyDelta(Buffer.from(documentText(1)), Buffer.from(delta.data, 'base64'), { verifyChecksum: true }));
  assert.equal(rebuilt.toString('utf8'), documentText(2));
  assert.ok(Buffer.byteLength(text) * 5 < Buffer.byteLength(target.text), `${Buffer.byteLength(text)} vs ${Buffer.byteLength(target.text)} bytes`);
  // a small content whose delta is no smaller: no delta frame
  const small = (id: string, n: number) => new DeltaBase(id, envelope(id, n, `{"n":${n}}`));
  assert.equal(deltaFrameText(small('msg_1', 1), small('msg_2', 2)), undefined);
});

test('content span - the two searches find what a walk over the keys finds, in any envelope the builder writes', () => {
  const text = fc.string({ unit: fc.constantFrom('a', '"', '\\', ',', ':', '{', '}', 'é', ' ') });
  fc.assert(
    fc.property(
      fc.dictionary(
        fc.oneof(text, fc.constantFrom('sender', 'content', 'id')),
        fc.oneof(fc.jsonValue(), fc.constant({ before: {}, sender: { id: 'x' }, content: {} })),
      ),
      fc.oneof(text, fc.constant('"content":{}')),
      fc.option(fc.array(text, { minLength: 1, maxLength: 3 }), { nil: undefined }),
      fc.boolean(),
      (content, type, to, tagged) => {
        let frame = messageEnvelopeText({
          id: 'msg_1',
          seq: 3,
          type,
          kind: 'user',
          content: JSON.stringify(content),
          sender: { id: 'u"1', anon: false },
          timestamp: 1,
          retracted: false,
          ephemeral: false,
          to,
          mentions: to,
        });
        if (tagged) frame = `{"channelId":"doc:1",${frame.slice(1)}`;
        const walked = walkedContentSpan(frame)!;
        assert.deepEqual(contentSpan(frame), walked);
        assert.equal(frame.slice(walked.start, walked.end), JSON.stringify(content));
      },
    ),
  );
});

test('delta bases - a message with object content and no `to`; not a retraction, an op frame or an addressed message', () => {
  assert.equal(baseIdOf({ id: 'msg_1', seq: 1, content: { a: 1 }, ephemeral: false }), 'msg_1');
  assert.equal(baseIdOf({ id: 'msg_1', seq: 0, content: { a: 1 }, ephemeral: true }), 'msg_1');
  assert.equal(baseIdOf({ id: 'msg_1', seq: 1, content: null, ephemeral: false }), undefined);
  assert.equal(baseIdOf({ id: 'msg_1', seq: 1, content: { a: 1 }, to: ['u2'], ephemeral: false }), undefined);
  assert.equal(baseIdOf({ op: 'retract', id: 'msg_1', seq: 1 }), undefined);
  assert.equal(baseIdOf({ op: 'skip', seq: 1 }), undefined);
});

test('namespaces - delta is off unless the channel namespace turns it on', () => {
  assert.equal(resolveNamespace([], 'doc:1').delta, false);
  assert.equal(resolveNamespace([{ prefix: 'doc:', delta: true }], 'doc:1').delta, true);
  assert.equal(
    resolveNamespace(
      [
        { prefix: 'doc:', delta: true },
        { prefix: 'doc:x', presence: true },
      ],
      'doc:x1',
    ).delta,
    false,
  );
});

test('client - the content text of a frame, whatever its spacing and nesting', () => {
  const content = documentText(3, ' ');
  assert.equal(contentText(`{"channelId":"c","id":"m","seq":1,"content":${content},"sender":{"id":"a"}}`), content);
  assert.equal(contentText(`{ "id" : "m\\"}" , "nested":{"content":1}, "content" :  {"a":[1,{"b":"}"}]} }`), '{"a":[1,{"b":"}"}]}');
  assert.equal(contentText('{"id":"m","content":null}'), 'null');
  assert.equal(contentText('{"id":"m"}'), undefined);
});

/** A link that keeps what it was sent. */
function fakeLink(): Link & { sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    socketId: 'sock_1',
    environmentId: 'env_a',
    claims: undefined,
    tokens: undefined,
    closed: false,
    send: (frame: object) => void sent.push(JSON.stringify(frame)),
    sendText: (text: string | Buffer) => void sent.push(typeof text === 'string' ? text : text.toString('utf8')),
    drained: async () => {},
    established() {},
    expireAt() {},
    admit: () => true,
    closeWith() {},
  } as unknown as Link & { sent: string[] };
}

async function feedOf(stored: MessageRow[]) {
  let callback: ((error: Error | null, msg: { data: Uint8Array }) => void) | undefined;
  const deps: FeedDeps = {
    nc: {
      subscribe: (_subject, opts) => {
        callback = opts.callback;
        return { unsubscribe() {} };
      },
      flush: async () => {},
    },
    subjects: subjects('rtm'),
    lastSeq: async () => 0,
    read: async (_environmentId, _channelId, range) =>
      stored.filter((r) => r.seq > (range.after ?? 0) && r.seq < (range.before ?? Infinity)).map((r) => ({ seq: r.seq, text: envelopeTextOfRow(r) })),
    readChanges: async () => [],
    log: { warn() {} },
  };
  const feeds = new FeedRegistry(deps);
  const readers: { link: ReturnType<typeof fakeLink>; reader: ChannelReplay }[] = [];
  const join = async (userId: string, options: { tagged: boolean; delta: boolean }) => {
    const link = fakeLink();
    const reader = new ChannelReplay({
      // a replay's reads are not used here; delivered frames are counted (nowhere)
      deps: { usage: NO_USAGE } as never,
      feeds,
      link,
      environmentId: 'env_a',
      channelId: 'doc:1',
      userId,
      tagged: options.tagged,
      delta: options.delta,
      lost: () => assert.fail('reader lost'),
    });
    assert.ok(await reader.join());
    assert.ok(await reader.replay({ since: undefined }));
    reader.live();
    readers.push({ link, reader });
    return link;
  };
  const encoder = new TextEncoder();
  return {
    join,
    publish: (text: string) => callback!(null, { data: encoder.encode(text) }),
    settle: async () => {
      for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

/** What a client SDK makes of the frames a reader was sent: each message frame's content text, in order. */
function rebuild(sent: string[]): { contents: (string | null)[]; deltas: number; bytes: number } {
  const reader = new DeltaReader();
  const contents: (string | null)[] = [];
  let deltas = 0;
  let bytes = 0;
  for (const text of sent) {
    const frame = JSON.parse(text) as Record<string, unknown>;
    if (frame.op !== undefined) continue;
    bytes += Buffer.byteLength(text);
    keepFrameText(frame, text);
    if (frame.delta !== undefined) deltas++;
    assert.ok(reader.read(frame), `a delta that does not fit: ${text.slice(0, 200)}`);
    contents.push(frame.content === null ? null : JSON.stringify(frame.content));
  }
  return { contents, deltas, bytes };
}

test('feed and readers - delta readers rebuild what plain readers get; addressed, retract and skip frames leave the base; a gap repair goes whole', async () => {
  const rowOf = (seq: number, content: string): MessageRow => ({
    id: `msg_${seq}`,
    seq,
    type: 'state',
    kind: 'user',
    content,
    sender_id: 'writer',
    sender_anon: false,
    to: null,
    mentions: null,
    ts: 1_000 + seq,
    retracted: false,
    version: 1,
    updated_at: null,
    updated_by: null,
    reactions: null,
  });
  const stored: MessageRow[] = [];
  const feed = await feedOf(stored);
  const plain = await feed.join('u1', { tagged: true, delta: false });
  const deltaTagged = await feed.join('u1', { tagged: true, delta: true });
  const deltaPlain = await feed.join('u1', { tagged: false, delta: true });
  let seq = 0;
  let ephemerals = 0;
  /** The next message: persisted ones are stored (what a gap repair reads); published unless `held`. */
  const next = (extra: { to?: string[]; ephemeral?: boolean; spacing?: string; held?: boolean } = {}) => {
    const ephemeral = extra.ephemeral ?? false;
    const id = ephemeral ? `eph_${++ephemerals}` : `msg_${++seq}`;
    const content = documentText(seq * 10 + ephemerals, extra.spacing);
    if (!ephemeral) stored.push({ ...rowOf(seq, content), to: extra.to ?? null });
    if (!extra.held) feed.publish(envelope(id, seq, content, extra));
  };
  for (let i = 0; i < 5; i++) next(); // msg_1..5
  next({ ephemeral: true }); // eph_1: a delta too, and the next one's base
  next(); // msg_6
  next({ to: ['u1'] }); // msg_7: whole, and not a base
  next({ spacing: ' ' }); // msg_8: against msg_6
  feed.publish(JSON.stringify({ op: 'retract', id: 'msg_8', seq: 8 }));
  next({ to: ['someone-else'] }); // msg_9: a skip
  next(); // msg_10: against msg_8
  next({ held: true }); // msg_11 and msg_12 never reach the feed: read from the store, whole
  next({ held: true });
  next(); // msg_13
  next(); // msg_14
  await feed.settle();
  // a reader that joins now: its first message comes whole, the next as a delta
  const late = await feed.join('u1', { tagged: true, delta: true });
  next();
  next();
  await feed.settle();

  const expected = rebuild(plain.sent);
  assert.equal(expected.deltas, 0, 'a plain reader gets no delta');
  for (const link of [deltaTagged, deltaPlain]) {
    const got = rebuild(link.sent);
    assert.deepEqual(got.contents, expected.contents);
    assert.ok(got.bytes * 2 < expected.bytes, `delta readers receive far fewer bytes (${got.bytes} vs ${expected.bytes})`);
  }
  const whole = (link: ReturnType<typeof fakeLink>) =>
    link.sent
      .filter((text) => !text.includes('"delta":{'))
      .map((text) => (JSON.parse(text) as { id?: string; op?: string }).op ?? (JSON.parse(text) as { id: string }).id);
  assert.deepEqual(
    whole(deltaTagged),
    ['msg_1', 'msg_7', 'retract', 'skip', 'msg_11', 'msg_12'],
    'whole: the first, the addressed one, the gap repair; the skip and retract frames as they are',
  );
  assert.deepEqual(whole(deltaPlain), ['msg_1', 'msg_7', 'retract', 'msg_11', 'msg_12'], 'the channel socket sends no skip');
  assert.ok(deltaTagged.sent.every((text) => text.startsWith('{"channelId":"doc:1",')));
  assert.ok(deltaPlain.sent.every((text) => !text.includes('"channelId"')));
  const lateGot = rebuild(late.sent);
  assert.deepEqual(lateGot.contents, expected.contents.slice(-2));
  assert.deepEqual(
    late.sent.map((text) => text.includes('"delta":{')),
    [false, true],
  );
});

test('feed - the delta of a message is encoded once for every delta reader', async () => {
  const feed = await feedOf([]);
  const links = await Promise.all(Array.from({ length: 40 }, (_, i) => feed.join(`u${i}`, { tagged: true, delta: true })));
  const sentBuffers: Buffer[][] = links.map(() => []);
  links.forEach((link, i) => {
    const sendText = link.sendText;
    link.sendText = (text, ...rest) => {
      if (Buffer.isBuffer(text)) sentBuffers[i]!.push(text);
      sendText(text, ...rest);
    };
  });
  feed.publish(envelope('msg_1', 1, documentText(1)));
  feed.publish(envelope('msg_2', 2, documentText(2)));
  await feed.settle();
  const deltas = sentBuffers.map((buffers) => buffers[1]!);
  assert.ok(deltas[0]!.toString().includes('"delta":{'));
  assert.ok(
    deltas.every((buffer) => buffer === deltas[0]),
    'one Buffer for every reader',
  );
});
