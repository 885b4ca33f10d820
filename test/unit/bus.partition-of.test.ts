/**
 * partitionOf routes a channel to the owner of its partition, in every process of a cluster and
 * across releases (a rolling upgrade runs two releases at once). So its values are pinned here:
 * a change to the hash, its seed, the separator or the encoding of ids moves channels between
 * owners and must fail this test. Plus properties: an integer in [0, partitions), and the
 * partition for p is the partition for any multiple of p, modulo p (a plain hash mod p).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { partitionOf } from '@rtm/bus';

/** [environmentId, channelId, partitions, partition], computed once from the implementation and frozen. */
const PINNED: [string, string, number, number][] = [
  ['env_a', 'room', 32, 19],
  ['env_a', 'room', 1, 0],
  ['env_a', 'room', 7, 2],
  ['env_b', 'room', 32, 12],
  ['env_a', '', 32, 16],
  ['', '', 32, 31],
  ['env_prod', 'general', 32, 24],
  ['env_prod', 'a.b*c>', 32, 30],
  ['env_prod', 'héllo ✓', 32, 29],
  ['env_prod', 'room-42', 4096, 3752],
  ['env_x', 'dm:alice:bob', 64, 37],
  ['env_x', 'x', 3, 2],
];

test('partitionOf - pinned vectors: channels keep their partition across releases', () => {
  for (const [environmentId, channelId, partitions, expected] of PINNED) {
    assert.equal(partitionOf(environmentId, channelId, partitions), expected, `${environmentId}/${channelId} of ${partitions}`);
  }
});

test('partitionOf - always an integer in [0, partitions), the same for the same input', () => {
  fc.assert(
    fc.property(fc.string(), fc.string({ unit: 'grapheme' }), fc.integer({ min: 1, max: 4096 }), (environmentId, channelId, partitions) => {
      const p = partitionOf(environmentId, channelId, partitions);
      assert.ok(Number.isInteger(p) && p >= 0 && p < partitions, `${p} of ${partitions}`);
      assert.equal(partitionOf(environmentId, channelId, partitions), p);
    }),
    { numRuns: 2_000 },
  );
});

test('partitionOf - one hash for every partition count: the partition of p is that of k·p, mod p', () => {
  fc.assert(
    fc.property(fc.string(), fc.string(), fc.integer({ min: 1, max: 512 }), fc.integer({ min: 1, max: 8 }), (environmentId, channelId, p, k) => {
      assert.equal(partitionOf(environmentId, channelId, k * p) % p, partitionOf(environmentId, channelId, p));
    }),
    { numRuns: 1_000 },
  );
});
