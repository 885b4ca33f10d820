import { z } from 'zod';

const ISO_DATE_TIME = z.iso.datetime({ offset: true });
const ISO_DATE = z.iso.date();
const EPOCH_MS = /^\d{1,15}$/;

/**
 * A time as GET /v1/stats takes it: epoch milliseconds, an ISO 8601 date-time with `Z` or an
 * offset, or an ISO date (its midnight UTC). Null for anything else (a date-time without an
 * offset is ambiguous, so refused).
 */
export function parseStatsTime(value: string): number | null {
  if (EPOCH_MS.test(value)) return Number(value);
  if (ISO_DATE_TIME.safeParse(value).success) return Date.parse(value);
  if (ISO_DATE.safeParse(value).success) return Date.parse(`${value}T00:00:00Z`);
  return null;
}

const StatsTime = z
  .string()
  .max(40)
  .refine((value) => parseStatsTime(value) !== null, 'must be epoch milliseconds or an ISO 8601 date-time with Z or an offset');

export const StatsUnit = z.enum(['minute', 'hour', 'day', 'month']);

export const StatsQuery = z
  .object({
    unit: StatsUnit.optional().describe('The interval of each entry (UTC; a month is a calendar month). Default `minute`.'),
    start: StatsTime.optional().describe('Epoch milliseconds or ISO 8601. Intervals that start at or after it. Default: `end` less `limit` units.'),
    end: StatsTime.optional().describe('Epoch milliseconds or ISO 8601. Intervals that start at or before it. Default: now.'),
    direction: z.enum(['forwards', 'backwards']).optional().describe('`backwards` (default): newest first; `forwards`: oldest first.'),
    limit: z.coerce.number().int().min(1).max(1000).optional().describe('Entries at most. Default 100, maximum 1000.'),
  })
  .strict();

const Count = z.number().int();

export const StatsEntry = z
  .object({
    start: z.string().describe("The interval's start, ISO 8601 UTC."),
    unit: StatsUnit,
    messagesPublished: Count.describe('Messages published by every route: the sum of the three below.'),
    messagesPublishedSocket: Count,
    messagesPublishedHttp: Count,
    messagesPublishedBatch: Count,
    messagesDelivered: Count,
    bytesDelivered: Count,
    connectionsPeak: Count.describe('Over an hour, day or month: the highest of its minutes.'),
    connectionsAverage: z.number().describe("Connection-seconds over the interval's seconds (the whole interval, the current one included), 2 decimals."),
    connectionMinutes: z.number().describe('Connection-seconds / 60, 2 decimals.'),
    channelsActive: Count.describe('Over an hour, day or month: the highest of its minutes.'),
    presenceEvents: Count,
    historyReads: Count,
    apiRequestsControl: Count,
    apiRequestsRealtime: Count,
    webhookEvents: Count,
    webhookDeliveries: Count,
    webhookFailedAttempts: Count,
    webhookDropped: Count,
    notifications: Count,
  })
  .meta({ id: 'StatsEntry', description: "One interval of an environment's usage; the meaning of each counter is in docs/stats.md." });

export const StatsList = z
  .object({ data: z.array(StatsEntry).describe('One entry per interval with usage, in `direction` order; an interval with none is left out.') })
  .meta({ id: 'StatsList' });
