/**
 * `rewind` (libs/schemas/src/rewind.ts): the last N messages (1-100) or a duration (whole s, m, h,
 * at most 24h), read the same on the channel socket's query, the `subscribe` frame and an event
 * stream's `~rewind:` entry; every refusal is a reason naming what is wrong. The SDK's own check
 * (libs/client/src/rewind.ts) accepts and refuses exactly the same values.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ConnectFrame, SocketQuery, parseEventsChannels, parseRewind, REWIND_MAX_COUNT, REWIND_MAX_SECONDS } from '@rtm/schemas';
import { rewindProblem } from '../../libs/client/src/rewind.ts';

const ACCEPTED: [unknown, { count: number } | { ms: number }][] = [
  [1, { count: 1 }],
  [100, { count: 100 }],
  ['1', { count: 1 }],
  ['50', { count: 50 }],
  ['100', { count: 100 }],
  ['010', { count: 10 }],
  ['1s', { ms: 1_000 }],
  ['30s', { ms: 30_000 }],
  ['2m', { ms: 120_000 }],
  ['1h', { ms: 3_600_000 }],
  ['24h', { ms: 86_400_000 }],
  ['1440m', { ms: 86_400_000 }],
  ['86400s', { ms: 86_400_000 }],
];

/** Each refused value and a fragment of its reason. */
const REFUSED: [unknown, RegExp][] = [
  [0, /count must be from 1 to 100 \(got 0\)/],
  [101, /count must be from 1 to 100 \(got 101\)/],
  [-3, /count must be from 1 to 100/],
  [1.5, /must be a message count from 1 to 100 or a duration/],
  [Number.NaN, /must be a message count/],
  [Number.POSITIVE_INFINITY, /must be a message count/],
  ['0', /count must be from 1 to 100/],
  ['101', /count must be from 1 to 100/],
  ['0s', /duration must be at least 1s/],
  ['0h', /duration must be at least 1s/],
  ['25h', /duration must be at most 24h \(got "25h"\)/],
  ['1441m', /duration must be at most 24h/],
  ['86401s', /duration must be at most 24h/],
  ['9999999999999999h', /duration must be at most 24h/],
  ['', /must be a message count/],
  ['2d', /must be a message count/],
  ['2M', /must be a message count/],
  ['1.5m', /must be a message count/],
  ['1h30m', /must be a message count/],
  [' 2m', /must be a message count/],
  ['-2m', /must be a message count/],
  ['m', /must be a message count/],
  ['PT2M', /must be a message count/],
  ['9'.repeat(40), /must be a message count/],
  [true, /must be a message count/],
  [null, /must be a message count/],
  [{ count: 3 }, /must be a message count/],
  [[3], /must be a message count/],
];

test('rewind - accepted counts and durations and what they read as', () => {
  for (const [value, read] of ACCEPTED) assert.deepEqual(parseRewind(value), read, JSON.stringify(value));
  assert.equal(REWIND_MAX_COUNT, 100);
  assert.equal(REWIND_MAX_SECONDS, 86_400);
});

test('rewind - refused values get a reason that says what is wrong', () => {
  for (const [value, reason] of REFUSED) {
    const read = parseRewind(value);
    assert.equal(typeof read, 'string', `${JSON.stringify(value)} was accepted`);
    assert.match(read as string, reason, JSON.stringify(value));
  }
});

test('rewind - the subscribe frame takes a number or the text, and refuses with the path and reason', () => {
  const frame = (rewind: unknown) => ConnectFrame.safeParse({ op: 'subscribe', ref: 1, channelId: 'c', rewind });
  const ok = frame(5);
  assert.ok(ok.success && ok.data.op === 'subscribe');
  assert.deepEqual(ok.success && ok.data.op === 'subscribe' && ok.data.rewind, { count: 5 });
  const text = frame('2m');
  assert.deepEqual(text.success && text.data.op === 'subscribe' && text.data.rewind, { ms: 120_000 });
  for (const [value, reason] of REFUSED) {
    const refused = frame(value);
    assert.ok(!refused.success, `${JSON.stringify(value)} was accepted`);
    assert.deepEqual(refused.error.issues[0]!.path, ['rewind']);
    assert.match(refused.error.issues[0]!.message, reason, JSON.stringify(value));
  }
  // since and rewind together parse: since wins where the subscription starts (channel-replay.ts)
  const both = ConnectFrame.safeParse({ op: 'subscribe', ref: 1, channelId: 'c', since: 4, rewind: 10 });
  assert.ok(both.success);
});

test("rewind - the channel socket's query reads the text; a bad one is refused naming query.rewind", () => {
  assert.deepEqual(SocketQuery.parse({ rewind: '20' }).rewind, { count: 20 });
  assert.deepEqual(SocketQuery.parse({ rewind: '90s' }).rewind, { ms: 90_000 });
  assert.equal(SocketQuery.parse({}).rewind, undefined);
  for (const value of ['0', '101', '25h', 'abc', '1.5m', '']) {
    const refused = SocketQuery.safeParse({ rewind: value });
    assert.ok(!refused.success, value);
    assert.deepEqual(refused.error.issues[0]!.path, ['rewind']);
  }
  assert.ok(!SocketQuery.safeParse({ rewind: ['1', '2'] }).success, 'given twice');
});

test('rewind - an event stream entry <channelId>~rewind:<value>, beside ~seq entries', () => {
  assert.deepEqual(parseEventsChannels('a~rewind:10,b~4,c~rewind:2m,d'), [
    { channelId: 'a', rewind: { count: 10 } },
    { channelId: 'b', since: 4 },
    { channelId: 'c', rewind: { ms: 120_000 } },
    { channelId: 'd' },
  ]);
  for (const [entry, reason] of [
    ['a~rewind:0', /"a~rewind:0": rewind a count must be from 1 to 100/],
    ['a~rewind:25h', /rewind a duration must be at most 24h/],
    ['a~rewind:', /rewind must be a message count/],
    ['a~rewind:2d', /rewind must be a message count/],
    ['a~rewind', /is not <channelId>, <channelId>~<seq> or <channelId>~rewind:/],
    ['a~rewind:5,a', /named twice/],
  ] as const) {
    const read = parseEventsChannels(entry);
    assert.equal(typeof read, 'string', entry);
    assert.match(read as string, reason, entry);
  }
});

test('rewind - the SDK accepts and refuses exactly what the server does', () => {
  for (const [value] of ACCEPTED) assert.equal(rewindProblem(value), undefined, JSON.stringify(value));
  for (const [value] of REFUSED) assert.equal(typeof rewindProblem(value), 'string', JSON.stringify(value));
  fc.assert(
    fc.property(
      fc.oneof(
        fc.integer({ min: -5, max: 200 }),
        fc.double(),
        fc.tuple(fc.integer({ min: 0, max: 100_000 }), fc.constantFrom('', 's', 'm', 'h', 'd', 'ms', 'S')).map(([n, unit]) => `${n}${unit}`),
        fc.string({ maxLength: 8 }),
      ),
      (value) => {
        assert.equal(rewindProblem(value) === undefined, typeof parseRewind(value) !== 'string', JSON.stringify(value));
      },
    ),
  );
});
