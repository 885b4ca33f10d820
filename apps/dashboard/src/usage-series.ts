/**
 * The arithmetic of the usage page, apart from the DOM so that it is unit-tested: which
 * intervals a chosen unit and range cover (UTC, by the service's own interval arithmetic), the query that
 * asks for them, and the series a chart draws, with a zero for every interval the API leaves
 * out (it answers only the intervals in which something was counted).
 */
import { USAGE_UNITS, addUnits, truncateTo, type UsageUnit } from '@rtm/rules/usage-intervals';

export type StatsUnit = UsageUnit;
export const STATS_UNITS: readonly StatsUnit[] = USAGE_UNITS;

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

/** The starts of every interval from the one holding `from` to the one holding `to`, oldest first. */
export function intervalStarts(unit: StatsUnit, from: number, to: number): number[] {
  const starts: number[] = [];
  for (let at = truncateTo(unit, from); at <= to; at = addUnits(unit, at, 1)) starts.push(at);
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
