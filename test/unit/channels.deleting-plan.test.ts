import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChannelCommand } from '@rtm/schemas';
import { CHANNEL_DELETING_REPLY, channelKey, planBatch, type ChannelState } from '../../apps/channel-node/src/batch-plan.ts';
import { serverPublish } from '../helpers/commands.ts';

test('channels plan - a persisted publish on a channel being deleted is refused, writes nothing, and the channel is not cached', () => {
  const doomed = channelKey('env_1', 'doomed');
  const kept = channelKey('env_1', 'kept');
  const states = new Map<string, ChannelState>([
    [doomed, { pk: 1, lastSeq: 7 }],
    [kept, { pk: 2, lastSeq: 3 }],
  ]);
  const ephemeral: ChannelCommand = { ...serverPublish('env_1', 'doomed', 9), ephemeral: true };
  const commands: ChannelCommand[] = [
    serverPublish('env_1', 'doomed', 1),
    serverPublish('env_1', 'kept', 2),
    serverPublish('env_1', 'doomed', 3, 'key-1'),
    ephemeral,
  ];
  let ids = 0;
  const plan = planBatch(commands, states, new Map(), 1, (prefix) => `${prefix}_${++ids}`, new Set([doomed]));
  assert.deepEqual(plan.outcome.replies[0], CHANNEL_DELETING_REPLY);
  assert.deepEqual(plan.outcome.replies[2], CHANNEL_DELETING_REPLY);
  assert.equal(CHANNEL_DELETING_REPLY.ok, false);
  assert.deepEqual(plan.outcome.replies[1], { ok: true, result: { id: plan.messages[0]!.id, seq: 4, timestamp: 1 } });
  // an ephemeral publish is never stored: it still goes out
  assert.equal(plan.outcome.replies[3]!.ok, true);
  assert.deepEqual(
    plan.messages.map((m) => m.channel_pk),
    [2],
  );
  assert.equal(plan.keys.length, 0);
  assert.deepEqual(plan.advanced, [{ pk: 2, expected: 3, next: 4 }]);
  assert.ok(!plan.outcome.states.has(doomed), 'read again next time');
  assert.deepEqual(plan.outcome.states.get(kept), { pk: 2, lastSeq: 4 });
  assert.deepEqual(states.get(doomed), { pk: 1, lastSeq: 7 }, 'the input is not modified');

  // without the set nothing changes
  const normal = planBatch(commands, states, new Map(), 1, (prefix) => `${prefix}_${++ids}`);
  assert.equal(normal.messages.length, 3);
  assert.ok(normal.outcome.states.has(doomed));
});
