import { test } from 'node:test';
import assert from 'node:assert/strict';
import { channelKey, mentionCandidates, planBatch, type ChannelState } from '../../apps/channel-node/src/batch-plan.ts';
import { serverPublish, type PublishCommand } from '../helpers/commands.ts';

const from = (sender: string, fields: Partial<PublishCommand>): PublishCommand => ({
  ...serverPublish('env_a', 'room', 1),
  kind: 'user',
  sender: { id: sender, anon: false },
  ...fields,
});

test('mentionCandidates: each mentioned user once, in order; with `to`, only its addressees and the sender', () => {
  assert.deepEqual(mentionCandidates(from('sam', {})), []);
  assert.deepEqual(mentionCandidates(from('sam', { mentions: ['ann', 'bob', 'ann', 'sam'] })), ['ann', 'bob', 'sam']);
  // an addressed message is read by its addressees and its sender only
  assert.deepEqual(mentionCandidates(from('sam', { to: ['ann'], mentions: ['zed', 'ann', 'sam', 'bob'] })), ['ann', 'sam']);
  assert.deepEqual(mentionCandidates(from('sam', { to: ['ann'], mentions: ['zed'] })), []);
});

test('planBatch: a mention notification names its channel row, so the commit can check the recipient reads it', () => {
  const states = new Map<string, ChannelState>([
    [channelKey('env_a', 'room'), { pk: 7, lastSeq: 3 }],
    [channelKey('env_a', 'other'), { pk: 9, lastSeq: 0 }],
  ]);
  let n = 0;
  const plan = planBatch(
    [
      from('sam', { mentions: ['ann', 'ann', 'bob'] }),
      from('sam', { channelId: 'other', to: ['bob'], mentions: ['ann', 'bob'] }),
      // ephemeral: nothing stored, so nobody notified
      from('sam', { mentions: ['ann'], ephemeral: true }),
    ],
    states,
    new Map(),
    1000,
    (prefix) => `${prefix}_${++n}`,
  );
  assert.deepEqual(
    plan.notifications.map((row) => [row.channel_pk, row.user_id, JSON.parse(row.payload).seq]),
    [
      [7, 'ann', 4],
      [7, 'bob', 4],
      [9, 'bob', 1],
    ],
  );
  // the frames published after commit are the same notifications (the commit keeps those it stored)
  assert.deepEqual(
    plan.outcome.notifications.map((o) => o.frame.id),
    plan.notifications.map((row) => row.id),
  );
});
