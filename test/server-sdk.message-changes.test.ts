/**
 * @rtm/server's edits and reactions against a real cluster: editMessage, addReaction,
 * removeReaction and messageVersions, what history and a subscriber see of them, and the
 * `message.updated` and `message.reactions` events a webhook endpoint receives, read with
 * parseWebhook.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServerClient, parseWebhook, ServerError, type MessageEnvelope, type MessageReactionsData } from '@rtm/server';
import { createClient, type MessageUpdate, type ReactionsUpdate } from '@rtm/client';
import WebSocket from 'ws';
import { startCluster } from './helpers/cluster.ts';
import { startReceiver } from './helpers/webhook-receiver.ts';
import { until } from './helpers/sdk.ts';

test('server SDK - edits, reactions, versions, and their webhook events', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1, dispatchers: 1 });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  const rtm = createServerClient({ url: gw.controlUrl, secretKey: env.secretKey });
  const receiver = await startReceiver(t);
  const endpoint = await rtm.createWebhookEndpoint({ url: receiver.url, eventTypes: ['message.updated', 'message.reactions'] });

  // a subscriber on the realtime edge sees each change as it commits
  const subscriber = createClient({
    url: gw.realtimeUrl,
    getToken: async () => (await rtm.mintToken({ userId: 'watcher' })).token,
    WebSocket: WebSocket as never,
  });
  t.after(() => subscriber.close());
  const updates: MessageUpdate[] = [];
  const summaries: ReactionsUpdate[] = [];
  const room = subscriber.channel('board');
  room.on('update', (u) => updates.push(u));
  room.on('summary', (s) => summaries.push(s));
  await room.subscribe(() => {}).ready;

  const sent = await rtm.publish('board', { content: { text: 'draft' }, senderId: 'alice' });
  const backend = await rtm.editMessage('board', sent.id, { text: 'first edit' });
  assert.deepEqual([backend.id, backend.seq, backend.version, backend.eventSeq], [sent.id, sent.seq, 2, sent.seq + 1]);
  const asAlice = await rtm.editMessage('board', sent.id, { text: 'second edit' }, { userId: 'alice' });
  assert.equal(asAlice.version, 3);

  assert.deepEqual(await rtm.addReaction('board', sent.id, '👍', 'bob'), { id: sent.id, seq: sent.seq, type: '👍', reacted: true });
  assert.deepEqual(await rtm.addReaction('board', sent.id, '👍', 'bob'), { id: sent.id, seq: sent.seq, type: '👍', reacted: true }, 'again: no change');
  await rtm.addReaction('board', sent.id, 'party', 'carol');
  assert.deepEqual(await rtm.removeReaction('board', sent.id, 'party', 'carol'), { id: sent.id, seq: sent.seq, type: 'party', reacted: false });

  const [message] = (await rtm.history('board')).messages;
  assert.deepEqual([message!.content, message!.version, message!.updatedBy], [{ text: 'second edit' }, 3, 'alice']);
  assert.deepEqual(message!.reactions, { '👍': { count: 1, users: ['bob'], clipped: false } });
  assert.deepEqual(
    (await rtm.messageVersions('board', sent.id)).map((v) => [v.version, v.content, v.updatedBy]),
    [
      [1, { text: 'draft' }, null],
      [2, { text: 'first edit' }, null],
      [3, { text: 'second edit' }, 'alice'],
    ],
  );

  await until(
    'the subscriber saw both edits and the last summary',
    () => updates.length === 2 && summaries.at(-1)?.reactions.party === undefined && summaries.length >= 1,
  );
  assert.deepEqual(
    updates.map((u) => [u.version, u.updatedBy]),
    [
      [2, null],
      [3, 'alice'],
    ],
  );
  assert.deepEqual(summaries.at(-1)!.reactions, { '👍': { count: 1, users: ['bob'], clipped: false } });

  // the endpoint gets the edits as message.updated, the reactions as message.reactions
  const secret = await rtm.webhookEndpointSecret(endpoint.id);
  await receiver.waitFor((received) => received.length >= 3, 'two message.updated and at least one message.reactions');
  await until('the last reactions event shows only bob', () => {
    const events = receiver.received.map((r) => parseWebhook(r.raw, r.headers, secret)).filter((e) => e.type === 'message.reactions');
    const last = events.at(-1)?.data as MessageReactionsData | undefined;
    return last !== undefined && last.reactions.party === undefined && last.reactions['👍']?.count === 1;
  });
  const events = receiver.received.map((r) => parseWebhook(r.raw, r.headers, secret));
  const edits = events.filter((e) => e.type === 'message.updated');
  assert.deepEqual(
    edits.map((e) => [e.channelId, (e.data as MessageEnvelope).version, (e.data as MessageEnvelope).content]),
    [
      ['board', 2, { text: 'first edit' }],
      ['board', 3, { text: 'second edit' }],
    ],
  );
  for (const edit of edits) assert.equal(edit.id, `${edit.data.id}_v${edit.data.version}`, "an edit's event id names its message and version");
  const reactions = events.filter((e) => e.type === 'message.reactions');
  assert.match(reactions[0]!.id, /^rct_/);
  assert.deepEqual({ ...(reactions[0]!.data as MessageReactionsData), reactions: undefined }, { id: sent.id, seq: sent.seq, reactions: undefined });

  // refusals are ServerErrors with the envelope's code
  await rtm.retract('board', sent.id);
  for (const call of [rtm.editMessage('board', sent.id, { text: 'too late' }), rtm.addReaction('board', sent.id, 'ok', 'bob')]) {
    const error = await call.catch((e: unknown) => e);
    assert.ok(error instanceof ServerError);
    assert.deepEqual([error.status, error.code], [409, 'conflict']);
  }
  assert.deepEqual(await rtm.messageVersions('board', sent.id), [], 'a retracted message keeps no version');
  const missing = await rtm.messageVersions('board', 'msg_00000000000000000000000000').catch((e: unknown) => e);
  assert.ok(missing instanceof ServerError);
  assert.equal(missing.code, 'not_found');
});
