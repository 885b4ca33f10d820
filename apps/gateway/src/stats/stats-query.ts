import type { z } from 'zod';
import { addUnits, rowBounds, type UsageUnit } from '@rtm/rules';
import { ServiceError } from '@rtm/errors';
import { parseStatsTime, type StatsQuery } from '@rtm/schemas';

export const DEFAULT_STATS_LIMIT = 100;

/** What a stats read asks for once the defaults are applied (libs/db readStats). */
export interface StatsWindow {
  unit: UsageUnit;
  direction: 'forwards' | 'backwards';
  limit: number;
  /** The rows read: `at` in [from, to), i.e. the intervals starting within [start, end]. */
  from: number;
  to: number;
}

/**
 * GET /v1/stats's query (already checked by its schema) with its defaults (docs/stats.md):
 * unit minute, direction backwards, limit 100, end now, start `end` less `limit` units. A start
 * after the end is 400 `invalid_request`.
 */
export function statsWindow(query: z.infer<typeof StatsQuery>, now: number): StatsWindow {
  const unit = query.unit ?? 'minute';
  const limit = query.limit ?? DEFAULT_STATS_LIMIT;
  const end = query.end === undefined ? now : time('end', query.end);
  const start = query.start === undefined ? addUnits(unit, end, -limit) : time('start', query.start);
  if (start > end) throw new ServiceError('invalid_request', 'querystring/start must not be after end');
  const { from, to } = rowBounds(unit, start, end);
  return { unit, direction: query.direction ?? 'backwards', limit, from, to };
}

/** The schema let only parsable times through; a time outside what a date can hold is refused too. */
function time(name: 'start' | 'end', value: string): number {
  const ms = parseStatsTime(value);
  if (ms === null || !Number.isFinite(ms) || Number.isNaN(new Date(ms).getTime()) || ms > MAX_TIME) {
    throw new ServiceError('invalid_request', `querystring/${name} must be epoch milliseconds or an ISO 8601 date-time with Z or an offset`);
  }
  return ms;
}

/** Year 9999: Postgres and ISO strings both hold it, with room for a month's arithmetic. */
const MAX_TIME = Date.UTC(9999, 11, 1);
