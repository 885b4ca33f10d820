/**
 * @rtm/server's edits, reactions and versions without a server: the request each method sends
 * and what it makes of the answer, through a `fetch` that records requests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServerClient, ServerError } from '@rtm/server';

function fake(answer: () => Response) {
  const sent: { method: string; url: string; body: string; contentType: string | null }[] = [];
  const rtm = createServerClient({
    url: 'http://control.test',
    secretKey: 'sk_test',
    fetch: async (request) => {
      sent.push({ method: request.method, url: request.url, body: await request.text(), contentType: request.headers.get('content-type') });
      return answer();
    },
  });
  return { rtm, sent };
}

const json = (status: number, body: unknown) => () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

test('server SDK unit - editMessage: PATCH with the content, and userId only when given', async () => {
  const edited = { id: 'msg_1', seq: 4, version: 2, updatedAt: 1767225660000, eventSeq: 9 };
  const { rtm, sent } = fake(json(200, edited));
  assert.deepEqual(await rtm.editMessage('a:b', 'msg_1', { text: 'better' }), edited);
  assert.equal(sent[0]!.method, 'PATCH');
  assert.equal(sent[0]!.url, 'http://control.test/v1/channels/a%3Ab/messages/msg_1');
  assert.deepEqual(JSON.parse(sent[0]!.body), { content: { text: 'better' } });
  assert.equal(sent[0]!.contentType, 'application/json');
  await rtm.editMessage('room', 'msg_1', { text: 'as alice' }, { userId: 'alice' });
  assert.deepEqual(JSON.parse(sent[1]!.body), { content: { text: 'as alice' }, userId: 'alice' });
});

test('server SDK unit - addReaction and removeReaction name the user; the type is encoded in the path', async () => {
  const { rtm, sent } = fake(json(200, { id: 'msg_1', seq: 4, type: '👍', reacted: true }));
  assert.deepEqual(await rtm.addReaction('room', 'msg_1', '👍', 'bob'), { id: 'msg_1', seq: 4, type: '👍', reacted: true });
  assert.equal(sent[0]!.method, 'POST');
  assert.equal(sent[0]!.url, 'http://control.test/v1/channels/room/messages/msg_1/reactions');
  assert.deepEqual(JSON.parse(sent[0]!.body), { type: '👍', userId: 'bob' });
  await rtm.removeReaction('room', 'msg_1', '👍', 'bob');
  assert.equal(sent[1]!.method, 'DELETE');
  assert.equal(sent[1]!.url, `http://control.test/v1/channels/room/messages/msg_1/reactions/${encodeURIComponent('👍')}?userId=bob`);
  assert.equal(sent[1]!.body, '');
});

test('server SDK unit - messageVersions resolves with the list; a 409 is a ServerError with its code', async () => {
  const versions = [
    { version: 1, content: { text: 'a' }, updatedAt: null, updatedBy: null },
    { version: 2, content: { text: 'b' }, updatedAt: 5, updatedBy: 'alice' },
  ];
  const { rtm, sent } = fake(json(200, { versions }));
  assert.deepEqual(await rtm.messageVersions('room', 'msg_1'), versions);
  assert.equal(sent[0]!.method, 'GET');
  assert.equal(sent[0]!.url, 'http://control.test/v1/channels/room/messages/msg_1/versions');
  const conflict = await fake(json(409, { code: 'conflict', reason: 'retracted' }))
    .rtm.editMessage('room', 'msg_1', { text: 'x' })
    .catch((e: unknown) => e);
  assert.ok(conflict instanceof ServerError);
  assert.deepEqual([conflict.status, conflict.code, conflict.reason], [409, 'conflict', 'retracted']);
});
