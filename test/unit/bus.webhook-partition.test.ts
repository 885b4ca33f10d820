/**
 * webhookPartitionOf names the dispatcher that owns an environment's endpoint, in channel-nodes
 * (where the post-commit notice goes) and dispatchers (which partitions they serve) of every
 * release running at once. Its values are pinned: a change to the hash or to WEBHOOK_PARTITIONS
 * would send notices to a dispatcher that does not own the endpoint and must fail here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { WEBHOOK_PARTITIONS, webhookPartitionOf } from '@rtm/bus';

/** [environmentId, partition], computed once from the implementation and frozen. */
const PINNED: [string, number][] = [
  ['env_a', 0],
  ['env_b', 9],
  ['', 5],
  ['env_prod', 0],
  ['env_01HZX3', 1],
  ['é✓', 5],
];

test('webhookPartitionOf - pinned vectors and 16 partitions: endpoints keep their owner across releases', () => {
  assert.equal(WEBHOOK_PARTITIONS, 16);
  for (const [environmentId, expected] of PINNED) assert.equal(webhookPartitionOf(environmentId), expected, environmentId);
});

test('webhookPartitionOf - an integer in [0, WEBHOOK_PARTITIONS), the same every time', () => {
  fc.assert(
    fc.property(fc.string(), (environmentId) => {
      const partition = webhookPartitionOf(environmentId);
      assert.ok(Number.isInteger(partition) && partition >= 0 && partition < WEBHOOK_PARTITIONS);
      assert.equal(webhookPartitionOf(environmentId), partition);
    }),
  );
});
