/**
 * Rolling usage up and pruning it (docs/stats.md, "Retention"): the SQL of the dispatcher's
 * `usage_rollup` and `prune_usage` jobs. Every rollup statement recomputes whole intervals from
 * their children (`insert … on conflict do update set col = excluded.col`), so running one again
 * changes nothing, and a minute flushed late is taken in by the next run.
 */
import type pg from 'pg';
import { withTransaction } from './transaction.ts';
import { addUnits, truncateTo, type UsageUnit } from '@rtm/rules';

/** The table of each unit: finer units come first in USAGE_UNITS, as their tables roll up in that order. */
export const USAGE_TABLES: Readonly<Record<UsageUnit, string>> = {
  minute: 'usage_minutes',
  hour: 'usage_hours',
  day: 'usage_days',
  month: 'usage_months',
};

/** Columns added across minutes (a sum over the interval). */
export const USAGE_SUM_COLUMNS = [
  'messages_published_socket',
  'messages_published_http',
  'messages_published_batch',
  'messages_delivered',
  'bytes_delivered',
  'connection_seconds',
  'presence_events',
  'history_reads',
  'api_requests_control',
  'api_requests_realtime',
  'webhook_events',
  'webhook_deliveries',
  'webhook_failed_attempts',
  'webhook_dropped',
  'notifications',
] as const;
/** Columns whose interval is the largest of its children (a peak, not an amount). */
export const USAGE_MAX_COLUMNS = ['connections_peak', 'channels_active'] as const;
export const USAGE_COLUMNS = [...USAGE_SUM_COLUMNS, ...USAGE_MAX_COLUMNS] as const;
export type UsageColumn = (typeof USAGE_COLUMNS)[number];

/** `sum(col)::bigint as col, …, max(col) as col` over child rows: how children make a parent. */
export const aggregateColumnsSql = (prefix = ''): string =>
  [...USAGE_SUM_COLUMNS.map((c) => `sum(${prefix}${c})::bigint as ${c}`), ...USAGE_MAX_COLUMNS.map((c) => `max(${prefix}${c})::bigint as ${c}`)].join(', ');

/**
 * Recomputes every `parent` interval that has `child` rows at or after $1 (a timestamptz on a
 * `parent` boundary, so each interval touched is recomputed whole). Rows whose values did not
 * change are not rewritten.
 */
export function rollupSql(child: UsageUnit, parent: UsageUnit): string {
  const columns = USAGE_COLUMNS.join(', ');
  return `insert into ${USAGE_TABLES[parent]} as p (environment_id, at, ${columns})
  select environment_id, date_trunc('${parent}', at, 'UTC'), ${aggregateColumnsSql()}
  from ${USAGE_TABLES[child]} where at >= $1
  group by 1, 2
  on conflict (environment_id, at) do update set ${USAGE_COLUMNS.map((c) => `${c} = excluded.${c}`).join(', ')}
  where (${USAGE_COLUMNS.map((c) => `p.${c}`).join(', ')}) is distinct from (${USAGE_COLUMNS.map((c) => `excluded.${c}`).join(', ')})`;
}

/**
 * How long after its end a minute may still be flushed (USAGE_FLUSH_MS plus a commit's time,
 * with room to spare): a run settles the minutes before its start less this.
 */
export const SETTLE_MS = 120_000;

/** What one rollup run recomputes: the hours, days and months from these starts on. */
export interface RollupPlan {
  hoursFrom: number;
  daysFrom: number;
  monthsFrom: number;
  /** The run's new `settled_before`. */
  settledBefore: number;
}

/**
 * A run at `now`, the last one having settled the minutes before `settled` (null: no run yet,
 * so every minute kept is rolled): it recomputes the current and previous hour, day and month,
 * and every interval since the last settled minute (a rollup held up for hours catches up).
 */
export function rollupPlan(now: number, settled: number | null): RollupPlan {
  const since = settled === null ? Number.NEGATIVE_INFINITY : Math.min(settled, now);
  const hoursFrom = Math.min(truncateTo('hour', addUnits('hour', now, -1)), floor('hour', since));
  const daysFrom = Math.min(truncateTo('day', addUnits('day', now, -1)), floor('day', hoursFrom));
  const monthsFrom = Math.min(truncateTo('month', addUnits('month', now, -1)), floor('month', daysFrom));
  return { hoursFrom, daysFrom, monthsFrom, settledBefore: now - SETTLE_MS };
}

const floor = (unit: UsageUnit, ms: number) => (Number.isFinite(ms) ? truncateTo(unit, ms) : ms);
const timestamp = (ms: number) => (Number.isFinite(ms) ? new Date(ms).toISOString() : '-infinity');

/**
 * One `usage_rollup` run, in one transaction holding the state row's lock (another run waits,
 * then recomputes from what this one settled): minutes into hours, hours into days, days into
 * months, then `settled_before` moves on. Uses the database's clock, as the flushes' `now()` does.
 */
export async function rollUpUsage(pool: pg.Pool): Promise<RollupPlan> {
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<{ now: Date; settled: Date | null }>(
      'select now() as now, settled_before as settled from usage_rollup_state for update',
    );
    const state = rows[0]!;
    const plan = rollupPlan(state.now.getTime(), state.settled?.getTime() ?? null);
    await client.query(rollupSql('minute', 'hour'), [timestamp(plan.hoursFrom)]);
    await client.query(rollupSql('hour', 'day'), [timestamp(plan.daysFrom)]);
    await client.query(rollupSql('day', 'month'), [timestamp(plan.monthsFrom)]);
    await client.query('update usage_rollup_state set settled_before = greatest(settled_before, $1::timestamptz)', [timestamp(plan.settledBefore)]);
    return plan;
  });
}

/** How long each table keeps its rows (docs/stats.md, "Retention"). */
export const USAGE_RETENTION = {
  minute: { hours: 48 },
  hour: { days: 90 },
  day: { years: 2 },
  month: { years: 2 },
} as const;

/**
 * The cutoffs of one prune at `now` (rows with `at` before them go), each on a boundary of the
 * parent unit, so a parent is never recomputed from part of its children; and never past what the
 * rollup has settled (a child not yet rolled up is kept until it is).
 */
export function pruneCutoffs(now: number, settled: number | null): Record<UsageUnit, number> {
  const month = truncateTo('month', addUnits('month', now, -12 * USAGE_RETENTION.month.years));
  const byAge = {
    minute: truncateTo('hour', now - USAGE_RETENTION.minute.hours * 3_600_000),
    hour: truncateTo('day', now - USAGE_RETENTION.hour.days * 86_400_000),
    day: truncateTo('month', addUnits('month', now, -12 * USAGE_RETENTION.day.years)),
  };
  // no run yet: nothing finer than a month has been rolled up
  if (settled === null) return { minute: Number.NEGATIVE_INFINITY, hour: Number.NEGATIVE_INFINITY, day: Number.NEGATIVE_INFINITY, month };
  return {
    minute: Math.min(byAge.minute, truncateTo('hour', addUnits('hour', settled, -1))),
    hour: Math.min(byAge.hour, truncateTo('day', addUnits('day', settled, -1))),
    day: Math.min(byAge.day, truncateTo('month', addUnits('month', settled, -1))),
    month,
  };
}

const PRUNE_BATCH = 10_000;

/**
 * One `prune_usage` run: deletes, in batches of short transactions, the rows past their cutoff
 * (pruneCutoffs), and the flush records older than the minutes' retention (a flush is repeated
 * within seconds, never days). Returns the rows deleted per table.
 */
export async function pruneUsage(pool: pg.Pool): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ now: Date; settled: Date | null }>('select now() as now, settled_before as settled from usage_rollup_state');
  const state = rows[0]!;
  const now = state.now.getTime();
  const cutoffs = pruneCutoffs(now, state.settled?.getTime() ?? null);
  const deleted: Record<string, number> = {};
  for (const unit of Object.keys(cutoffs) as UsageUnit[]) {
    if (!Number.isFinite(cutoffs[unit])) continue;
    const table = USAGE_TABLES[unit];
    deleted[table] = await deleteBatches(pool, `delete from ${table} where ctid = any(array(select ctid from ${table} where at < $1 limit ${PRUNE_BATCH}))`, [
      new Date(cutoffs[unit]).toISOString(),
    ]);
  }
  deleted.usage_flushes = await deleteBatches(
    pool,
    `delete from usage_flushes where ctid = any(array(select ctid from usage_flushes where created_at < $1 limit ${PRUNE_BATCH}))`,
    [new Date(now - USAGE_RETENTION.minute.hours * 3_600_000).toISOString()],
  );
  return deleted;
}

async function deleteBatches(pool: pg.Pool, sql: string, params: unknown[]): Promise<number> {
  let total = 0;
  for (;;) {
    const { rowCount } = await pool.query(sql, params);
    total += rowCount ?? 0;
    if ((rowCount ?? 0) < PRUNE_BATCH) return total;
  }
}
