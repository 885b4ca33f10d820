/**
 * The intervals usage is kept in (docs/stats.md): minutes, hours, days and calendar months, all
 * in UTC. Pure arithmetic on epoch milliseconds, shared by the stats reads (libs/db), the stats
 * query (the gateway) and the dashboard's charts, which import this file alone
 * (`@rtm/rules/usage-intervals`: nothing else of the package reaches the browser).
 */

export const USAGE_UNITS = ['minute', 'hour', 'day', 'month'] as const;
export type UsageUnit = (typeof USAGE_UNITS)[number];

const FIXED_MS = { minute: 60_000, hour: 3_600_000, day: 86_400_000 } as const;

/** The start of the interval of `unit` that holds `ms`. */
export function truncateTo(unit: UsageUnit, ms: number): number {
  if (unit === 'month') {
    const date = new Date(ms);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  }
  return Math.floor(ms / FIXED_MS[unit]) * FIXED_MS[unit];
}

/** `ms` moved by `n` whole units (negative: back). A month keeps the day of the month, clamped to the month's length. */
export function addUnits(unit: UsageUnit, ms: number, n: number): number {
  if (unit !== 'month') return ms + n * FIXED_MS[unit];
  const date = new Date(ms);
  const months = date.getUTCFullYear() * 12 + date.getUTCMonth() + n;
  const year = Math.floor(months / 12);
  const month = months - year * 12;
  const day = Math.min(date.getUTCDate(), daysInMonth(year, month));
  const timeOfDay = ms - Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  return Date.UTC(year, month, day) + timeOfDay;
}

/** The first interval start at or after `ms`. */
export function ceilTo(unit: UsageUnit, ms: number): number {
  const start = truncateTo(unit, ms);
  return start === ms ? start : addUnits(unit, start, 1);
}

/** The length in seconds of the interval of `unit` that starts at `start` (a month: its days). */
export function intervalSeconds(unit: UsageUnit, start: number): number {
  if (unit !== 'month') return FIXED_MS[unit] / 1000;
  const date = new Date(start);
  return daysInMonth(date.getUTCFullYear(), date.getUTCMonth()) * 86_400;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/**
 * The child rows whose intervals of `unit` start within [start, end] (an interval is in the
 * window when its start is): those with `at` in [from, to). Any finer table's rows are selected
 * by the same bounds, since every interval of `unit` starts on a finer interval's start.
 */
export function rowBounds(unit: UsageUnit, start: number, end: number): { from: number; to: number } {
  return { from: ceilTo(unit, start), to: addUnits(unit, truncateTo(unit, end), 1) };
}
