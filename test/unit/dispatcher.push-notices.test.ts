import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byPartition } from '../../apps/dispatcher/src/push-notices.ts';

test('rows are grouped by the partition of their environment, in their order', () => {
  const partitionOf = (environmentId: string) => (environmentId === 'e2' ? 2 : 1);
  const groups = byPartition(
    [
      { id: 'd1', environment_id: 'e1' },
      { id: 'd2', environment_id: 'e2' },
      { id: 'd3', environment_id: 'e3' },
    ],
    partitionOf,
  );
  assert.deepEqual(
    [...groups],
    [
      [
        1,
        [
          ['d1', 'e1'],
          ['d3', 'e3'],
        ],
      ],
      [2, [['d2', 'e2']]],
    ],
  );
  assert.equal(byPartition([], partitionOf).size, 0);
});
