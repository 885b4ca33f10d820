/** GET /v1/stats's query: its schema (times, units, limits) and the defaults of its window. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatsQuery, parseStatsTime } from '../../libs/schemas/src/stats.ts';
import { statsWindow } from '../../apps/gateway/src/stats/stats-query.ts';

const t = (iso: string) => Date.parse(iso);

test('stats query: times as epoch ms, ISO 8601 with an offset, or an ISO date', () => {
  assert.equal(parseStatsTime('1700000000000'), 1_700_000_000_000);
  assert.equal(parseStatsTime('2024-02-29T10:00:00Z'), t('2024-02-29T10:00:00Z'));
  assert.equal(parseStatsTime('2024-02-29T10:00:00+02:00'), t('2024-02-29T08:00:00Z'));
  assert.equal(parseStatsTime('2024-02-29'), t('2024-02-29T00:00:00Z'));
  for (const bad of ['2023-02-29', '2024-02-29T10:00:00', 'yesterday', '-1', '1e12', '', '17000000000000000']) assert.equal(parseStatsTime(bad), null, bad);
});

test('stats query: the schema refuses bad units, directions, limits and unknown parameters', () => {
  assert.ok(StatsQuery.safeParse({ unit: 'hour', limit: '1000', direction: 'forwards', start: '0', end: '2024-01-01' }).success);
  for (const bad of [{ unit: 'week' }, { limit: '0' }, { limit: '1001' }, { limit: '2.5' }, { direction: 'sideways' }, { start: 'x' }, { other: '1' }]) {
    assert.equal(StatsQuery.safeParse(bad).success, false, JSON.stringify(bad));
  }
});

test('stats window: defaults are minutes, backwards, 100, end now, start limit units before', () => {
  const now = t('2024-05-15T12:34:56Z');
  assert.deepEqual(statsWindow({}, now), {
    unit: 'minute',
    direction: 'backwards',
    limit: 100,
    from: t('2024-05-15T10:55:00Z'),
    to: t('2024-05-15T12:35:00Z'),
  });
  const months = statsWindow({ unit: 'month', limit: 3 }, now);
  assert.equal(months.from, t('2024-03-01T00:00:00Z'));
  assert.equal(months.to, t('2024-06-01T00:00:00Z'));
  const given = statsWindow({ unit: 'day', start: '2024-01-01', end: '1704412800000', direction: 'forwards' }, now);
  assert.deepEqual([given.from, given.to, given.direction], [t('2024-01-01T00:00:00Z'), t('2024-01-06T00:00:00Z'), 'forwards']);
});

test('stats window: a start after the end is 400 invalid_request', () => {
  assert.throws(
    () => statsWindow({ start: '2024-02-01', end: '2024-01-01' }, Date.now()),
    (error: Error & { code?: string }) => error.code === 'invalid_request',
  );
  assert.throws(
    () => statsWindow({ end: '999999999999999' }, Date.now()),
    (error: Error & { code?: string }) => error.code === 'invalid_request',
  );
});
