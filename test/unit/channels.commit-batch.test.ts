import { webhookPartitionOf } from '@rtm/bus';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChannelCommand } from '@rtm/schemas';
import { channelKey, channelsOf } from '../../apps/channel-node/src/commit-batch.ts';
import { WRITE_MENTIONS_SQL, WRITE_SQL, writeStatement } from '../../apps/channel-node/src/commit-sql.ts';
import { WebhookBelief } from '../../apps/channel-node/src/webhook-belief.ts';
import { serverPublish } from '../helpers/commands.ts';
import { readBinaryTextArray } from '../helpers/binary-array.ts';

const placeholders = (sql: string) => new Set([...sql.matchAll(/\$(\d+)/g)].map((m) => Number(m[1])));

const plan = (mentions: boolean) => ({
  advanced: [{ pk: 7, expected: 3, next: 5 }],
  messages: [
    {
      channel_pk: 7,
      seq: 4,
      id: 'msg_1',
      type: 'message',
      kind: 'user',
      content: '{"a":1}',
      sender_id: 'sam',
      sender_anon: false,
      to: ['ann'],
      mentions: null,
      ts: 1000,
    },
    {
      channel_pk: 7,
      seq: 5,
      id: 'msg_2',
      type: 'message',
      kind: 'user',
      content: '{}',
      sender_id: 'sam',
      sender_anon: false,
      to: null,
      mentions: ['bob'],
      ts: 1000,
    },
  ],
  keys: [{ channel_pk: 7, key: 'k1', message_id: 'msg_1', seq: 4, ts: 1000 }],
  notifications: mentions ? [{ id: 'ntf_1', channel_pk: 7, environment_id: 'env_a', user_id: 'bob', payload: '{"seq":5}' }] : [],
  counted: new Map([['env_a', 2]]),
});
const batch = {
  now: 1000,
  environments: ['env_a', 'env_b'],
  hooked: [{ environmentId: 'env_a', channelId: 'room', eventId: 'evt_1', type: 'message.published' as const, timestamp: 1000, data: '{}' }],
  hookless: ['env_b'],
  pushLeaseMs: 30_000,
};

test('the write statement: each form numbers exactly the parameters given, in order', () => {
  for (const mentions of [false, true]) {
    const statement = writeStatement(plan(mentions), batch);
    assert.equal(statement.name, mentions ? 'rtm_write_batch_mentions' : 'rtm_write_batch');
    assert.equal(statement.text, mentions ? WRITE_MENTIONS_SQL : WRITE_SQL);
    const used = placeholders(statement.text);
    assert.equal(statement.values.length, mentions ? 42 : 40);
    assert.deepEqual(statement.values.slice(-2), [['env_a'], [2]], 'the monthly count: each environment and the messages it stores');
    assert.deepEqual(
      [...used].sort((a, b) => a - b),
      Array.from({ length: statement.values.length }, (_, i) => i + 1),
      'every parameter is used, none is missing',
    );
  }
});

test('the write statement: the fence, the rows, and what the statement checks sit where its text reads them', () => {
  const { values } = writeStatement(plan(true), batch);
  const at = (n: number) => values[n - 1];
  assert.deepEqual([at(1), at(2), at(3)], [[7], [3], [5]], 'the fence: pk, expected, next');
  assert.deepEqual(readBinaryTextArray(at(9) as Buffer), { elementOid: 114, values: ['{"a":1}', '{}'] }, 'the contents: one binary json[], each as sent');
  assert.deepEqual(at(12), ['["ann"]', null], '`to` travels as JSON text, absent as null');
  assert.deepEqual(at(13), [null, '["bob"]']);
  assert.deepEqual(at(16), ['k1']);
  assert.deepEqual(at(20), ['ntf_1']);
  assert.deepEqual([at(24), at(25), at(26)], [1000, ['env_a', 'env_b'], 1], 'now, every environment, how many channels the fence must match');
  assert.deepEqual(at(28), ['env_a'], "the hooked events' environments");
  assert.deepEqual([at(35), at(36)], [[null], [null]], "the hooked events' endpoint (none: every one that takes it) and exclusion");
  assert.deepEqual(at(27), [webhookPartitionOf('env_a')], "each hooked event's webhook partition (the delivery log's)");
  assert.equal(at(37), 0, 'no push lease: the delivery log holds none');
  assert.deepEqual(at(38), ['env_b'], 'the environments believed hookless, checked by the statement');
  assert.deepEqual(at(39), [7], "each notification's channel");
  assert.equal(typeof at(40), 'number', 'the default per-user cap');
});

test('channelsOf: cached channels are copied, the others loaded once each, created when a persisted publish needs them', () => {
  const cached = { pk: 1, lastSeq: 9 };
  const cache = new Map([[channelKey('env_a', 'cached'), cached]]);
  const commands: ChannelCommand[] = [
    serverPublish('env_a', 'cached', 1),
    { ...serverPublish('env_a', 'fresh', 1), ephemeral: true },
    serverPublish('env_a', 'fresh', 2),
    { ...serverPublish('env_a', 'lookup', 1), ephemeral: true },
    { op: 'retract', environmentId: 'env_b', channelId: 'old', messageId: 'msg_1' },
  ];
  const { states, toLoad } = channelsOf(commands, cache);
  assert.deepEqual([...states], [[channelKey('env_a', 'cached'), { pk: 1, lastSeq: 9 }]]);
  assert.notEqual(states.get(channelKey('env_a', 'cached')), cached, 'a copy: the cache is written only after commit');
  assert.deepEqual(toLoad, [
    { environmentId: 'env_a', channelId: 'fresh', create: true },
    { environmentId: 'env_a', channelId: 'lookup', create: false },
    { environmentId: 'env_b', channelId: 'old', create: false },
  ]);
});

test('the webhook belief: learnt from each answer, dropped when the statement finds a webhook, bounded', () => {
  const belief = new WebhookBelief();
  assert.equal(belief.hookless('env_a'), false, 'nothing is believed before a commit answered');
  belief.learn(['env_a', 'env_b'], ['env_b']);
  assert.deepEqual([belief.hookless('env_a'), belief.hookless('env_b')], [true, false]);
  belief.learn(['env_a'], ['env_a']);
  assert.equal(belief.hookless('env_a'), false, 'a webhook added since');
  belief.learn(['env_c', 'env_d'], []);
  belief.forget(['env_c']);
  assert.deepEqual([belief.hookless('env_c'), belief.hookless('env_d')], [false, true]);
  belief.learn(
    Array.from({ length: 100_001 }, (_, i) => `env_${i}`),
    [],
  );
  assert.equal(belief.hookless('env_5'), false, 'past 100,000 the belief starts over');
});
