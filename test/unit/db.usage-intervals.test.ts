/**
 * The arithmetic of usage intervals (UTC minutes, hours, days, calendar months), the rollup's plan
 * (what a run recomputes), the prune cutoffs and the statements' shapes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { addUnits, ceilTo, intervalSeconds, rowBounds, truncateTo, USAGE_UNITS } from '@rtm/rules';
import { pruneCutoffs, rollupPlan, rollupSql, SETTLE_MS, USAGE_MAX_COLUMNS } from '../../libs/db/src/usage-rollup.ts';
import { statsSql } from '../../libs/db/src/usage-stats.ts';

const t = (iso: string) => Date.parse(iso);

test('usage intervals: truncation, ceiling and lengths in UTC', () => {
  const at = t('2024-02-29T13:45:30.500Z');
  assert.equal(truncateTo('minute', at), t('2024-02-29T13:45:00Z'));
  assert.equal(truncateTo('hour', at), t('2024-02-29T13:00:00Z'));
  assert.equal(truncateTo('day', at), t('2024-02-29T00:00:00Z'));
  assert.equal(truncateTo('month', at), t('2024-02-01T00:00:00Z'));
  assert.equal(ceilTo('hour', at), t('2024-02-29T14:00:00Z'));
  assert.equal(ceilTo('month', at), t('2024-03-01T00:00:00Z'));
  assert.equal(ceilTo('day', t('2024-02-29T00:00:00Z')), t('2024-02-29T00:00:00Z'));
  assert.equal(intervalSeconds('month', t('2024-02-01T00:00:00Z')), 29 * 86_400);
  assert.equal(intervalSeconds('month', t('2023-02-01T00:00:00Z')), 28 * 86_400);
  assert.equal(intervalSeconds('month', t('2024-12-01T00:00:00Z')), 31 * 86_400);
  assert.equal(intervalSeconds('hour', 0), 3600);
});

test('usage intervals: months move by the calendar, the day clamped to the month', () => {
  assert.equal(addUnits('month', t('2024-01-31T10:00:00Z'), 1), t('2024-02-29T10:00:00Z'));
  assert.equal(addUnits('month', t('2024-03-31T10:00:00Z'), -1), t('2024-02-29T10:00:00Z'));
  assert.equal(addUnits('month', t('2024-01-15T00:00:00Z'), -100), t('2015-09-15T00:00:00Z'));
  assert.equal(addUnits('month', t('2024-11-30T23:59:59Z'), 2), t('2025-01-30T23:59:59Z'));
  assert.equal(addUnits('day', t('2024-03-01T00:00:00Z'), -1), t('2024-02-29T00:00:00Z'));
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 4e12 }), fc.constantFrom(...USAGE_UNITS), (ms, unit) => {
      const start = truncateTo(unit, ms);
      assert.ok(start <= ms && ms < addUnits(unit, start, 1));
      assert.equal(truncateTo(unit, start), start);
      assert.ok(ceilTo(unit, ms) >= ms && ceilTo(unit, ms) - start <= intervalSeconds(unit, start) * 1000);
    }),
  );
});

test('usage intervals: the rows of intervals starting within [start, end]', () => {
  // an hour that starts after `start` is in, the one holding `start` is not; the one holding `end` is
  assert.deepEqual(rowBounds('hour', t('2024-05-01T10:30:00Z'), t('2024-05-01T13:10:00Z')), {
    from: t('2024-05-01T11:00:00Z'),
    to: t('2024-05-01T14:00:00Z'),
  });
  assert.deepEqual(rowBounds('month', t('2024-01-01T00:00:00Z'), t('2024-03-05T00:00:00Z')), {
    from: t('2024-01-01T00:00:00Z'),
    to: t('2024-04-01T00:00:00Z'),
  });
});

test('rollup plan: the current and previous hour, day and month, and everything since the last settled run', () => {
  const now = t('2024-03-01T00:30:00Z');
  const plan = rollupPlan(now, now - 60_000);
  assert.equal(plan.hoursFrom, t('2024-02-29T23:00:00Z'));
  assert.equal(plan.daysFrom, t('2024-02-29T00:00:00Z'));
  assert.equal(plan.monthsFrom, t('2024-02-01T00:00:00Z'));
  assert.equal(plan.settledBefore, now - SETTLE_MS);
  // held up for five hours: every hour since is recomputed
  assert.equal(rollupPlan(now, now - 5 * 3_600_000).hoursFrom, t('2024-02-29T19:00:00Z'));
  // held up across a month: the days of that month too
  assert.equal(rollupPlan(now, t('2024-01-31T23:59:00Z')).daysFrom, t('2024-01-31T00:00:00Z'));
  assert.equal(rollupPlan(now, t('2024-01-31T23:59:00Z')).monthsFrom, t('2024-01-01T00:00:00Z'));
  // no run yet: everything kept
  assert.equal(rollupPlan(now, null).hoursFrom, Number.NEGATIVE_INFINITY);
  assert.equal(rollupPlan(now, null).monthsFrom, Number.NEGATIVE_INFINITY);
});

test('prune cutoffs: 48 hours, 90 days, 2 years, on whole parent intervals, never past the rollup', () => {
  const now = t('2024-05-15T12:34:00Z');
  const settled = now - SETTLE_MS;
  assert.deepEqual(pruneCutoffs(now, settled), {
    minute: t('2024-05-13T12:00:00Z'),
    hour: t('2024-02-15T00:00:00Z'),
    day: t('2022-05-01T00:00:00Z'),
    month: t('2022-05-01T00:00:00Z'),
  });
  // the rollup held up: minutes and hours it has not rolled stay
  const behind = pruneCutoffs(now, t('2024-05-10T08:00:00Z'));
  assert.equal(behind.minute, t('2024-05-10T07:00:00Z'));
  // never rolled: only months go
  const never = pruneCutoffs(now, null);
  assert.equal(never.minute, Number.NEGATIVE_INFINITY);
  assert.equal(never.day, Number.NEGATIVE_INFINITY);
  assert.equal(never.month, t('2022-05-01T00:00:00Z'));
});

test('rollup and stats statements: recompute whole intervals, max for the peaks, finer tables for the unsettled part', () => {
  const sql = rollupSql('minute', 'hour');
  assert.match(sql, /insert into usage_hours as p/);
  assert.match(sql, /from usage_minutes where at >= \$1/);
  assert.match(sql, /date_trunc\('hour', at, 'UTC'\)/);
  for (const column of USAGE_MAX_COLUMNS) assert.match(sql, new RegExp(`max\\(${column}\\)`));
  assert.match(sql, /sum\(messages_published_socket\)/);
  assert.match(sql, /on conflict \(environment_id, at\) do update set messages_published_socket = excluded\.messages_published_socket/);
  assert.equal(statsSql('minute', 'backwards').match(/from usage_(minutes|hours|days|months)/g)?.length, 1);
  const month = statsSql('month', 'forwards');
  assert.deepEqual(month.match(/from usage_(minutes|hours|days|months)/g), ['from usage_months', 'from usage_days', 'from usage_hours', 'from usage_minutes']);
  assert.match(month, /order by 1 asc limit \$4/);
  assert.match(statsSql('day', 'backwards'), /order by 1 desc/);
});
