import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addUnits, truncateTo as floorTo } from '@rtm/rules/usage-intervals';
import { MAX_INTERVALS, USAGE_RANGES, intervalStarts, seriesOf, statsQuery, total, type StatsEntry } from '../../apps/dashboard/src/usage-series.ts';

const at = (iso: string) => Date.parse(iso);
const range = (id: string) => USAGE_RANGES.find((r) => r.id === id)!;

test('usage series - intervals are UTC minutes, hours, days and calendar months', () => {
  const t = at('2026-03-31T22:47:13.250Z');
  assert.equal(new Date(floorTo('minute', t)).toISOString(), '2026-03-31T22:47:00.000Z');
  assert.equal(new Date(floorTo('hour', t)).toISOString(), '2026-03-31T22:00:00.000Z');
  assert.equal(new Date(floorTo('day', t)).toISOString(), '2026-03-31T00:00:00.000Z');
  assert.equal(new Date(floorTo('month', t)).toISOString(), '2026-03-01T00:00:00.000Z');
  // months differ in length: from a month's start to the next's
  assert.equal(new Date(addUnits('month', at('2026-01-01T00:00:00Z'), 1)).toISOString(), '2026-02-01T00:00:00.000Z');
  assert.equal(new Date(addUnits('month', at('2026-12-01T00:00:00Z'), 1)).toISOString(), '2027-01-01T00:00:00.000Z');
  assert.equal(new Date(addUnits('hour', at('2026-03-31T23:00:00Z'), 1)).toISOString(), '2026-04-01T00:00:00.000Z');
});

test('usage series - a range covers every interval from the one holding its start to the open one', () => {
  const now = at('2026-03-31T22:47:13Z');
  const hours = intervalStarts('hour', now - 6 * 3_600_000, now);
  assert.equal(hours.length, 7, 'six hours back reach into a seventh, partial interval');
  assert.equal(new Date(hours[0]!).toISOString(), '2026-03-31T16:00:00.000Z');
  assert.equal(new Date(hours.at(-1)!).toISOString(), '2026-03-31T22:00:00.000Z');
  const months = intervalStarts('month', at('2025-04-05T00:00:00Z'), now);
  assert.equal(months.length, 12, 'April 2025 to March 2026');
  assert.equal(new Date(months[0]!).toISOString(), '2025-04-01T00:00:00.000Z');
});

test('usage series - the query asks for exactly the intervals drawn, oldest first, or says why it cannot', () => {
  const now = at('2026-03-31T22:47:13Z');
  const query = statsQuery('minute', range('1h'), now);
  assert.ok(!('error' in query));
  assert.equal(query.limit, 61);
  assert.equal(query.direction, 'forwards');
  assert.equal(query.start, '2026-03-31T21:47:00.000Z');
  assert.equal(query.end, '2026-03-31T22:47:13.000Z');
  const tooMany = statsQuery('minute', range('24h'), now);
  assert.ok('error' in tooMany && tooMany.error.includes(String(MAX_INTERVALS)), 'a day by minute is more than one request answers');
  assert.ok(!('error' in statsQuery('hour', range('30d'), now)));
});

test('usage series - an interval the API left out draws as zero; totals add what was answered', () => {
  const starts = intervalStarts('minute', at('2026-03-31T22:00:00Z'), at('2026-03-31T22:03:30Z'));
  const entries: StatsEntry[] = [
    { start: '2026-03-31T22:01:00.000Z', unit: 'minute', messagesPublished: 5, messagesDelivered: 50 },
    { start: '2026-03-31T22:03:00.000Z', unit: 'minute', messagesPublished: 2, messagesDelivered: 7 },
  ];
  const [xs, published, delivered] = seriesOf(entries, starts, ['messagesPublished', 'messagesDelivered']);
  assert.deepEqual(
    xs,
    starts.map((s) => s / 1000),
  );
  assert.deepEqual(published, [0, 5, 0, 2]);
  assert.deepEqual(delivered, [0, 50, 0, 7]);
  assert.equal(total(entries, 'messagesPublished'), 7);
  assert.equal(total(entries, 'notACounter'), 0);
});
