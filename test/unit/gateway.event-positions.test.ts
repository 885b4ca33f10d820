/**
 * The event stream's ids (libs/edge/src/sessions/event-positions.ts) and its `channels`
 * parameter (libs/schemas/src/operations/events.ts): what a reconnect resumes from.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isServiceError } from '@rtm/errors';
import { EventsQuery, parseEventsChannels } from '@rtm/schemas';
import { EventPositions, channelHash, parseEventId, resumeInbox, resumePositions } from '../../libs/edge/src/sessions/event-positions.ts';

const refused = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    assert.ok(isServiceError(error));
    assert.equal(error.code, 'invalid_request');
    return error.reason ?? '';
  }
  assert.fail('not refused');
};

test('event positions - a channel hash is the first 8 characters of base64url(sha256(id))', () => {
  assert.equal(channelHash('general'), createHash('sha256').update('general').digest('base64url').slice(0, 8));
  assert.match(channelHash('a'), /^[A-Za-z0-9_-]{8}$/);
  assert.notEqual(channelHash('a'), channelHash('b'));
});

test("event positions - docs/protocol.md's example shows the real hashes of its channels", () => {
  const protocol = readFileSync(new URL('../../docs/protocol.md', import.meta.url), 'utf8');
  const example = protocol.slice(protocol.indexOf('## Server-sent events'));
  assert.ok(example.includes(`id: ${channelHash('general')}~42,${channelHash('random')}~8`));
});

test('event positions - the id lists every channel with a position, in query order, and follows each move', () => {
  const positions = new EventPositions(['a', 'b', 'c'], [5, undefined, 0]);
  assert.equal(positions.id, `${channelHash('a')}~5,${channelHash('c')}~0`);
  positions.set('b', 7);
  positions.set('a', 6);
  positions.set('zzz', 1); // not a channel of the stream: ignored
  assert.equal(positions.id, `${channelHash('a')}~6,${channelHash('b')}~7,${channelHash('c')}~0`);
  assert.equal(new EventPositions(['a'], [undefined]).id, '');
});

test('event positions - a reconnect resumes each channel: its own ~seq first, then the id, else live', () => {
  const id = new EventPositions(['a', 'b', 'gone'], [10, 20, 30]).id;
  const starts = resumePositions([{ channelId: 'a', since: 3 }, { channelId: 'b' }, { channelId: 'new' }], id, 'Last-Event-ID');
  assert.deepEqual(starts, [3, 20, undefined]);
  assert.deepEqual(resumePositions([{ channelId: 'a' }], undefined, 'x'), [undefined]);
  assert.deepEqual(resumePositions([{ channelId: 'a' }], '', 'x'), [undefined]);
  // the id read back is the id written
  assert.deepEqual(
    [...parseEventId(id, 'x').channels],
    [
      [channelHash('a'), 10],
      [channelHash('b'), 20],
      [channelHash('gone'), 30],
    ],
  );
});

test('event positions - a malformed id is refused, never read as "start live" (that would be a gap)', () => {
  assert.match(
    refused(() => parseEventId('garbage', 'Last-Event-ID')),
    /^Last-Event-ID: /,
  );
  refused(() => parseEventId(`${channelHash('a')}~-1`, 'x'));
  refused(() => parseEventId(`${channelHash('a')}~01`, 'x'));
  refused(() => parseEventId(`${channelHash('a')}~99999999999999999`, 'x'));
  refused(() => parseEventId(`${channelHash('a')}~1,${channelHash('a')}~2`, 'x'));
  refused(() => parseEventId(Array.from({ length: 21 }, (_, i) => `${channelHash(`c${i}`)}~1`).join(','), 'x'));
  assert.equal(parseEventId(Array.from({ length: 20 }, (_, i) => `${channelHash(`c${i}`)}~1`).join(','), 'x').channels.size, 20);
});

test('events query - channels: 1 to 20 distinct ids, each with an optional ~seq', () => {
  assert.deepEqual(parseEventsChannels('a,b~0,c.d~42'), [{ channelId: 'a' }, { channelId: 'b', since: 0 }, { channelId: 'c.d', since: 42 }]);
  // none: allowed by the parameter, refused by the route unless the stream carries the inbox
  assert.deepEqual(parseEventsChannels(''), []);
  assert.equal(typeof parseEventsChannels('a,,b'), 'string');
  assert.equal(typeof parseEventsChannels('a,a~3'), 'string');
  assert.equal(typeof parseEventsChannels('a~'), 'string');
  assert.equal(typeof parseEventsChannels('a~x'), 'string');
  assert.equal(typeof parseEventsChannels('a b'), 'string');
  assert.equal(typeof parseEventsChannels(Array.from({ length: 21 }, (_, i) => `c${i}`).join(',')), 'string');
  assert.equal((parseEventsChannels(Array.from({ length: 20 }, (_, i) => `c${i}`).join(',')) as unknown[]).length, 20);
  const parsed = EventsQuery.safeParse({ channels: 'a~1', token: 't' });
  assert.ok(parsed.success);
  assert.deepEqual(parsed.data.channels, [{ channelId: 'a', since: 1 }]);
  assert.equal(EventsQuery.safeParse({ channels: 'a', since: '1' }).success, false);
});

test('event positions - the inbox is one entry inbox~<id>, after the channels, and follows each notification', () => {
  const positions = new EventPositions(['a'], [5], undefined);
  assert.equal(positions.id, `${channelHash('a')}~5`);
  positions.setInbox('ntf_01');
  assert.equal(positions.id, `${channelHash('a')}~5,inbox~ntf_01`);
  positions.setInbox('ntf_02');
  assert.equal(positions.id, `${channelHash('a')}~5,inbox~ntf_02`);
  // a stream of the inbox alone, resumed from an id
  assert.equal(new EventPositions([], [], 'ntf_07').id, 'inbox~ntf_07');
  const read = parseEventId(`${channelHash('a')}~5,inbox~ntf_02`, 'x');
  assert.equal(read.inbox, 'ntf_02');
  assert.deepEqual([...read.channels], [[channelHash('a'), 5]]);
  // 20 channels and the inbox fit; a second inbox or a bad id does not
  const full = Array.from({ length: 20 }, (_, i) => `${channelHash(`c${i}`)}~1`).join(',');
  assert.equal(parseEventId(`${full},inbox~n1`, 'x').inbox, 'n1');
  refused(() => parseEventId('inbox~a,inbox~b', 'x'));
  refused(() => parseEventId('inbox~', 'x'));
  refused(() => parseEventId('inbox~a.b', 'x'));
  refused(() => parseEventId(`inbox~${'a'.repeat(65)}`, 'x'));
});

test('event positions - the inbox resumes after the later of inbox=<id> and the event id, inbox=1 from the id or the start', () => {
  assert.equal(resumeInbox('1', undefined, 'x'), undefined);
  assert.equal(resumeInbox('1', `${channelHash('a')}~5`, 'x'), undefined);
  assert.equal(resumeInbox('1', 'inbox~ntf_05', 'x'), 'ntf_05');
  assert.equal(resumeInbox('ntf_03', undefined, 'x'), 'ntf_03');
  // a browser reconnects with the URL it first opened and a newer event id: the id wins
  assert.equal(resumeInbox('ntf_03', 'inbox~ntf_05', 'x'), 'ntf_05');
  assert.equal(resumeInbox('ntf_09', 'inbox~ntf_05', 'x'), 'ntf_09');
  refused(() => resumeInbox('1', 'inbox~a,inbox~b', 'x'));
});

test('events query - inbox is 1 or a notification id, and lets the channels be none', () => {
  const parsed = EventsQuery.safeParse({ inbox: '1' });
  assert.ok(parsed.success);
  assert.deepEqual(parsed.data.channels, []);
  assert.equal(parsed.data.inbox, '1');
  assert.equal(EventsQuery.safeParse({ channels: 'a', inbox: 'ntf_x1' }).success, true);
  assert.equal(EventsQuery.safeParse({ channels: 'a', inbox: 'a.b' }).success, false);
  assert.equal(EventsQuery.safeParse({ channels: 'a', inbox: '' }).success, false);
});
