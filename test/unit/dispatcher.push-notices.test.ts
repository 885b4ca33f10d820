import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byPartition, noticeDeliveries } from '../../apps/dispatcher/src/push-notices.ts';

test("a notice's deliveries are its [id, environmentId] pairs; anything else is left out", () => {
  assert.deepEqual(
    noticeDeliveries([['d1', 'e1'], ['d2'], [3, 'e1'], 'd4', null, { id: 'd5' }, ['d6', 'e2', 'extra']]),
    [['d1', 'e1'], ['d6', 'e2', 'extra']],
  );
  for (const body of [{ deliveries: [['d1', 'e1']] }, 'd1', null, 7]) assert.deepEqual(noticeDeliveries(body), []);
});

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
  assert.deepEqual([...groups], [
    [1, [['d1', 'e1'], ['d3', 'e3']]],
    [2, [['d2', 'e2']]],
  ]);
  assert.equal(byPartition([], partitionOf).size, 0);
});
