import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readEventStream, SseParser, type SseEvent } from '../../libs/client/src/sse-parser.ts';
import { FakeBody } from '../helpers/sse-fakes.ts';

function parse(chunks: string[]): { events: SseEvent[]; comments: string[]; retries: number[] } {
  const events: SseEvent[] = [];
  const comments: string[] = [];
  const retries: number[] = [];
  const parser = new SseParser({ event: (e) => events.push(e), comment: (c) => comments.push(c), retry: (ms) => retries.push(ms) });
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return { events, comments, retries };
}

const STREAM =
  '\ufeffretry: 3000\n: ping\n\nid: 1\ndata: {"op":"connected"}\n\n' +
  'id: 2\r\ndata: line one\r\ndata:line two\r\n\r\n' +
  'id: 3\rdata: {"seq":3}\r\r' +
  'event: other\ndata\ndata: x\n\n' +
  'ignored: field\nid: 4\n\n' +
  'data: last\n\n' +
  'data: cut off by the end';

const EXPECTED: SseEvent[] = [
  { id: '1', type: 'message', data: '{"op":"connected"}' },
  { id: '2', type: 'message', data: 'line one\nline two' },
  { id: '3', type: 'message', data: '{"seq":3}' },
  { id: '3', type: 'other', data: '\nx' },
  { id: '4', type: 'message', data: 'last' },
];

test('sse parser - LF, CRLF and CR line ends, comments, retry, ids kept across events; an event cut off by the end is dropped', () => {
  const { events, comments, retries } = parse([STREAM]);
  assert.deepEqual(events, EXPECTED);
  assert.deepEqual(comments, ['ping']);
  assert.deepEqual(retries, [3000]);
});

test('sse parser - the same events however the text is cut into chunks (every cut point, and one character at a time)', () => {
  for (let cut = 1; cut < STREAM.length; cut++) {
    assert.deepEqual(parse([STREAM.slice(0, cut), STREAM.slice(cut)]).events, EXPECTED, `cut at ${cut}`);
  }
  assert.deepEqual(parse([...STREAM]).events, EXPECTED);
});

test('sse parser - a CR at the end of one chunk and an LF at the start of the next are one line end, not an empty line', () => {
  const { events } = parse(['data: a\r', '\ndata: b\r', '\n\r', '\n']);
  assert.deepEqual(events, [{ id: '', type: 'message', data: 'a\nb' }]);
});

test('sse parser - retry takes digits only; an id with NUL is ignored; a line without colon is a field with an empty value', () => {
  const { events, retries } = parse(['retry: 12a\nretry: 50\nid: a\u0000b\ndata\n\n']);
  assert.deepEqual(retries, [50]);
  assert.deepEqual(events, [{ id: '', type: 'message', data: '' }]);
});

test('sse stream reader - UTF-8 split across chunks is decoded whole; every chunk is told (liveness)', async () => {
  const bytes = new TextEncoder().encode('data: {"text":"héllo 🌍"}\n\n: ping\n\n');
  const body = new FakeBody();
  for (let i = 0; i < bytes.length; i += 3) body.write(bytes.slice(i, i + 3));
  body.end();
  const events: SseEvent[] = [];
  let chunks = 0;
  await readEventStream(
    body,
    new SseParser({ event: (e) => events.push(e) }),
    () => chunks++,
    () => false,
  );
  assert.deepEqual(
    events.map((e) => JSON.parse(e.data)),
    [{ text: 'héllo 🌍' }],
  );
  assert.equal(chunks, Math.ceil(bytes.length / 3));
});

test('sse stream reader - stopping mid-stream dispatches nothing more and cancels the body', async () => {
  const body = new FakeBody();
  body.write('data: one\n\ndata: two\n\n');
  body.write('data: three\n\n');
  body.end();
  const events: string[] = [];
  let stopped = false;
  await readEventStream(
    body,
    new SseParser({
      event: (e) => {
        events.push(e.data);
        stopped = true;
      },
    }),
    () => {},
    () => stopped,
  );
  assert.deepEqual(events, ['one', 'two']);
  assert.equal(body.cancelled, true);
});
