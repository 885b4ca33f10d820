import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { NoticeDelivery } from '@rtm/webhooks';
import { PushedRows, SLACK_MS } from '../../apps/dispatcher/src/pushed-rows.ts';

const delivery = (id: string, body = '{}', leaseMs = 30_000): NoticeDelivery => ({
  id,
  environmentId: 'env_a',
  pushed: {
    lease: `lease-${id}`,
    leaseMs,
    endpointId: null,
    url: 'https://h/x',
    eventType: 'message.published',
    eventId: `m-${id}`,
    body,
    secrets: null,
    rateLimit: null,
  },
});

test("a notice's rows are held until taken, their lease counted from arrival less the slack", () => {
  const rows = new PushedRows(15_000);
  rows.add([delivery('d1'), { id: 'd2', environmentId: 'env_a' }], 1_000);
  assert.equal(rows.size, 1, 'a wake-up has no row to hold');
  const held = rows.take('d1');
  assert.equal(held?.until, 1_000 + 30_000 - SLACK_MS);
  assert.equal(held?.arrived, 1_000);
  assert.equal(held?.row.lease, 'lease-d1');
  assert.equal(rows.take('d1'), undefined, 'taken once');
  rows.putBack('d1', held!);
  assert.equal(rows.take('d1')?.row.eventId, 'm-d1', 'held again after a put-back');
});

test('a row already held is not replaced by a later notice; dropped rows answer their leases', () => {
  const rows = new PushedRows(15_000);
  rows.add([delivery('d1')], 1_000);
  rows.add([{ ...delivery('d1'), pushed: { ...delivery('d1').pushed!, lease: 'other' } }], 5_000);
  assert.deepEqual(rows.drop(['d1', 'nope']), [{ id: 'd1', lease: 'lease-d1' }]);
  assert.equal(rows.size, 0);
});

test('bodies are held up to the budget; beyond it a delivery waits as an id only', () => {
  const rows = new PushedRows(15_000);
  const body = 'x'.repeat(16 * 1024 * 1024);
  rows.add([delivery('d1', body), delivery('d2', body), delivery('d3', body), delivery('d4', body), delivery('d5', body)]);
  assert.equal(rows.size, 4, '64 Mi characters of bodies at most');
  assert.equal(rows.take('d5'), undefined);
  rows.take('d1');
  rows.add([delivery('d5', body)]);
  assert.equal(rows.size, 4, 'a taken row frees its share of the budget');
});

test('a row is usable while its lease leaves a whole send lease; past that it is let go with its lease, to be released', () => {
  const rows = new PushedRows(15_000);
  rows.add([delivery('d1'), delivery('d2', '{}', 10_000)], 1_000);
  const d1 = rows.take('d1')!;
  assert.equal(rows.usable(d1, 1_000), true);
  assert.equal(rows.usable(d1, 1_000 + 30_000 - SLACK_MS - 15_000), true, 'exactly a send lease left');
  assert.equal(rows.usable(d1, 1_000 + 30_000 - SLACK_MS - 15_000 + 1), false);
  rows.putBack('d1', d1);
  assert.deepEqual(rows.expired(1_000), [{ id: 'd2', lease: 'lease-d2' }], 'a 10 s lease never leaves 15 s');
  assert.equal(rows.size, 1);
  assert.deepEqual(rows.expired(20_000), [{ id: 'd1', lease: 'lease-d1' }]);
  assert.equal(rows.size, 0);
});

test("a dead owner's leases are inherited: claimed over once, released when the delivery is let go", () => {
  const rows = new PushedRows(15_000);
  rows.inherit([
    { id: 'd1', lease: '2026-12-06 22:00:00.123456+00' },
    { id: 'd2', lease: null },
    { id: 'd3', lease: '2026-12-06 22:00:01+00' },
  ]);
  assert.equal(rows.size, 0, 'no body is held for them');
  assert.equal(rows.inherited('d1'), '2026-12-06 22:00:00.123456+00');
  assert.equal(rows.inherited('d1'), undefined, 'given once: a second claim of it is an ordinary one');
  assert.equal(rows.inherited('d2'), undefined, 'an unleased row needs none');
  assert.deepEqual(rows.drop(['d3']), [{ id: 'd3', lease: '2026-12-06 22:00:01+00' }], 'handed back: released, so the next owner claims it at once');
  assert.equal(rows.inherited('d3'), undefined);
});
