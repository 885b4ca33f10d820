/**
 * The arithmetic of the usage page, apart from the DOM so that it is unit-tested: which
 * intervals a chosen unit and range cover (UTC, as the stats API counts them), the query that
 * asks for them, and the series a chart draws, with a zero for every interval the API leaves
 * out (it answers only the intervals in which something was counted).
 */
export type StatsUnit = 'minute' | 'hour' | 'day' | 'month';
export const STATS_UNITS: readonly StatsUnit[] = ['minute', 'hour', 'day', 'month'];

/** One interval of `GET /v1/dashboard/environments/{envId}/stats` (every counter is a number). */
export interface StatsEntry {
  start: string;
  unit: StatsUnit;
  [counter: string]: number | string;
}

export interface UsageRange {
  id: string;
  label: string;
  ms: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const USAGE_RANGES: readonly UsageRange[] = [
  { id: '1h', label: 'Last hour', ms: HOUR },
  { id: '6h', label: 'Last 6 hours', ms: 6 * HOUR },
  { id: '24h', label: 'Last 24 hours', ms: DAY },
  { id: '7d', label: 'Last 7 days', ms: 7 * DAY },
  { id: '30d', label: 'Last 30 days', ms: 30 * DAY },
  { id: '365d', label: 'Last 12 months', ms: 365 * DAY },
];

/** The API answers at most this many intervals at once. */
export const MAX_INTERVALS = 1000;

/** The start of the UTC interval of `unit` that holds `ms`. */
export function floorTo(unit: StatsUnit, ms: number): number {
  const date = new Date(ms);
  switch (unit) {
    case 'minute':
      return ms - (((ms % MINUTE) + MINUTE) % MINUTE);
    case 'hour':
      return ms - (((ms % HOUR) + HOUR) % HOUR);
    case 'day':
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
    case 'month':
      return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  }
}

/** The start of the interval `n` units after the one starting at `start` (months vary in length). */
export function addUnits(unit: StatsUnit, start: number, n: number): number {
  if (unit === 'month') {
    const date = new Date(start);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + n, 1);
  }
  return start + n * (unit === 'minute' ? MINUTE : unit === 'hour' ? HOUR : DAY);
}

/** The starts of every interval from the one holding `from` to the one holding `to`, oldest first. */
export function intervalStarts(unit: StatsUnit, from: number, to: number): number[] {
  const starts: number[] = [];
  for (let at = floorTo(unit, from); at <= to; at = addUnits(unit, at, 1)) starts.push(at);
  return starts;
}

export type StatsQuery = { unit: StatsUnit; start: string; end: string; limit: number; direction: 'forwards'; starts: number[] };

/**
 * The stats query for the last `range` by `unit`, ending now (the current, still open interval
 * included), or the reason it cannot be asked in one request.
 */
export function statsQuery(unit: StatsUnit, range: UsageRange, now: number): StatsQuery | { error: string } {
  const starts = intervalStarts(unit, now - range.ms, now);
  if (starts.length > MAX_INTERVALS) {
    return { error: `${range.label.toLowerCase()} by ${unit} is ${starts.length} intervals, more than ${MAX_INTERVALS}: choose a longer unit` };
  }
  return { unit, start: new Date(starts[0]!).toISOString(), end: new Date(now).toISOString(), limit: starts.length, direction: 'forwards', starts };
}

/**
 * One chart's data in the shape uPlot draws: x in seconds, then one array per counter, a zero
 * where the API answered nothing for an interval.
 */
export function seriesOf(entries: readonly StatsEntry[], starts: readonly number[], counters: readonly string[]): [number[], ...number[][]] {
  const byStart = new Map(entries.map((entry) => [Date.parse(entry.start), entry]));
  const xs = starts.map((start) => start / 1000);
  const ys = counters.map((counter) =>
    starts.map((start) => {
      const value = byStart.get(start)?.[counter];
      return typeof value === 'number' ? value : 0;
    }),
  );
  return [xs, ...ys];
}

/** The sum of `counter` over `entries` (for the totals under a chart). */
export function total(entries: readonly StatsEntry[], counter: string): number {
  let sum = 0;
  for (const entry of entries) {
    const value = entry[counter];
    if (typeof value === 'number') sum += value;
  }
  return sum;
}
