import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RtmError, FetchLike } from '@rtm/client';
import { parseRetryAfter } from '../../libs/client/src/http.ts';
import { fakeClient, settle } from '../helpers/client-fakes.ts';

type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

/** A fetch that answers from a script and records what it was asked. */
function scriptedFetch(answers: Answer[]) {
  const calls: Array<{ url: string; authorization: string | undefined }> = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, authorization: init.headers.authorization });
    const answer = answers.shift() ?? { status: 500 };
    return {
      status: answer.status,
      headers: { get: (name: string) => answer.headers?.[name.toLowerCase()] ?? null },
      text: async () => (answer.body === undefined ? '' : JSON.stringify(answer.body)),
    };
  };
  return { fetch, calls };
}

const page = (seqs: number[], hasMore: boolean) => ({
  status: 200,
  body: {
    messages: seqs.map((seq) => ({
      id: `m${seq}`,
      seq,
      type: 'message',
      kind: 'user',
      content: {},
      sender: { id: 'a', anon: false },
      timestamp: 1,
      retracted: false,
      ephemeral: false,
    })),
    hasMore,
  },
});

test('client http - history pages newest first with before, oldest first with after, and stops when hasMore is false', async () => {
  const { fetch, calls } = scriptedFetch([page([4, 5, 6], true), page([1, 2, 3], false), page([3, 4], true), page([5], false)]);
  const { client } = fakeClient({ fetch, autoConnect: false, url: 'https://edge.test/rt/' });
  const seqs: number[] = [];
  for await (const message of client.channel('a:b').history({ limit: 3 })) seqs.push(message.seq);
  assert.deepEqual(seqs, [6, 5, 4, 3, 2, 1]);
  assert.deepEqual(
    calls.map((c) => c.url),
    ['https://edge.test/rt/v1/channels/a%3Ab/history?limit=3', 'https://edge.test/rt/v1/channels/a%3Ab/history?limit=3&before=4'],
  );
  assert.equal(calls[0]!.authorization, 'Bearer tok-1');
  const forward: number[][] = [];
  for await (const messages of client.channel('a:b').history({ after: 2, limit: 2 }).pages()) forward.push(messages.map((m) => m.seq));
  assert.deepEqual(forward, [[3, 4], [5]]);
  assert.match(calls[3]!.url, /after=4/);
});

test('client http - history direction: forwards from the first message without after; backwards with after is refused', async () => {
  const { fetch, calls } = scriptedFetch([page([1, 2], true), page([3], false)]);
  const { client } = fakeClient({ fetch, autoConnect: false, url: 'https://edge.test/' });
  const seqs: number[] = [];
  for await (const message of client.channel('c').history({ direction: 'forwards', limit: 2 })) seqs.push(message.seq);
  assert.deepEqual(seqs, [1, 2, 3], 'oldest first, as the route returns each page');
  assert.deepEqual(
    calls.map((c) => c.url),
    ['https://edge.test/v1/channels/c/history?limit=2&after=0', 'https://edge.test/v1/channels/c/history?limit=2&after=2'],
  );
  assert.throws(
    () => client.channel('c').history({ direction: 'backwards', after: 3 }),
    (error: RtmError) => error.code === 'invalid_request',
  );
  assert.throws(
    () => client.channel('c').history({ direction: 'up' as 'forwards' }),
    (error: RtmError) => error.code === 'invalid_request',
  );
});

test('client http - 429 waits its retry-after, 401 asks getToken again, 503 is retried, other refusals throw the envelope', async () => {
  const { fetch, calls } = scriptedFetch([
    { status: 429, body: { code: 'rate_limited' }, headers: { 'retry-after': '3' } },
    { status: 401, body: { code: 'unauthorized' } },
    { status: 503, body: { code: 'unavailable' } },
    { status: 200, body: { members: [{ userId: 'a', role: 'member', online: true }] } },
    { status: 403, body: { code: 'banned', reason: 'spam' } },
  ]);
  const { client, clock, tokens } = fakeClient({ fetch, autoConnect: false });
  const roster = client.channel('c').presence.get();
  await settle();
  assert.equal(calls.length, 1);
  await clock.advance(2_999);
  assert.equal(calls.length, 1, 'not before retry-after');
  await clock.advance(1);
  assert.equal(calls.length, 3, 'then the 401 is retried at once with a new token');
  assert.deepEqual(tokens, ['tok-1', 'tok-2']);
  assert.equal(calls[2]!.authorization, 'Bearer tok-2');
  await clock.advance(5_000);
  assert.deepEqual(await roster, [{ userId: 'a', role: 'member', online: true }]);
  await assert.rejects(client.channel('c').presence.get(), (error: RtmError) => error.code === 'banned' && error.reason === 'spam');
});

test('client http - retry-after in seconds or as an HTTP date', () => {
  assert.equal(parseRetryAfter('7'), 7);
  assert.equal(parseRetryAfter(null), undefined);
  assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', Date.parse('2026-01-01T00:00:00Z')), 10);
  assert.equal(parseRetryAfter('soon'), undefined);
});
