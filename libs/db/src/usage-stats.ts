/**
 * Reading usage by interval (GET /v1/stats, docs/stats.md "Reading stats"). An interval the
 * rollup has settled is read from its own table; a newer one (the current hour, day or month, and
 * the previous one until the rollup's next run) is computed from the finer tables at read time:
 * a month from its settled days, then the hours of the current day, then the minutes of the
 * current hour. Each finer table covers only the part of the interval its coarser one has not
 * settled, so nothing is counted twice and the newest interval is never missing or stale.
 */
import type { Queryable } from './reads.ts';
import { aggregateColumnsSql, USAGE_COLUMNS, type UsageColumn } from './usage-rollup.ts';
import { intervalSeconds, USAGE_UNITS, type UsageUnit } from '@rtm/rules';
import { USAGE_TABLES } from './usage-rollup.ts';

/** The rollup's settled point (-infinity before its first run: everything from minutes). */
const SETTLED = `(select coalesce(settled_before, '-infinity') from usage_rollup_state)`;

/**
 * The statement reading the intervals of `unit` whose rows lie in [$2, $3) for environment $1,
 * at most $4 of them, newest first (`backwards`) or oldest first. The rows of the unit's own
 * table count for the intervals before the settled point's interval; each finer table adds its
 * rows from the settled point's next-coarser interval up to its own (the minutes: to the end).
 */
export function statsSql(unit: UsageUnit, direction: 'forwards' | 'backwards'): string {
  const level = USAGE_UNITS.indexOf(unit);
  const columns = USAGE_COLUMNS.join(', ');
  const parts: string[] = [];
  for (let k = level; k >= 0; k--) {
    const table = USAGE_TABLES[USAGE_UNITS[k]!];
    const conditions = ['environment_id = $1', 'at >= $2', 'at < $3'];
    // below its settled interval a unit reads itself; the finer tables fill in from there
    if (k > 0) conditions.push(`at < date_trunc('${USAGE_UNITS[k]}', s.t, 'UTC')`);
    if (k < level) conditions.push(`at >= date_trunc('${USAGE_UNITS[k + 1]}', s.t, 'UTC')`);
    parts.push(`select at, ${columns} from ${table}, settled s where ${conditions.join(' and ')}`);
  }
  return `with settled as (select ${SETTLED} as t),
  rows as (${parts.join('\n    union all ')})
  select date_trunc('${unit}', at, 'UTC') as start, ${aggregateColumnsSql()}
  from rows group by 1 order by 1 ${direction === 'backwards' ? 'desc' : 'asc'} limit $4`;
}

export type StatsRow = { start: Date } & Record<UsageColumn, number>;

/** One interval as GET /v1/stats answers it (libs/schemas StatsEntry). */
export interface StatsEntry {
  start: string;
  unit: UsageUnit;
  messagesPublished: number;
  messagesPublishedSocket: number;
  messagesPublishedHttp: number;
  messagesPublishedBatch: number;
  messagesDelivered: number;
  bytesDelivered: number;
  connectionsPeak: number;
  connectionsAverage: number;
  connectionMinutes: number;
  channelsActive: number;
  presenceEvents: number;
  historyReads: number;
  apiRequestsControl: number;
  apiRequestsRealtime: number;
  webhookEvents: number;
  webhookDeliveries: number;
  webhookFailedAttempts: number;
  webhookDropped: number;
  notifications: number;
}

const twoDecimals = (value: number) => Math.round(value * 100) / 100;

/** A row as its entry: the published total, and connection time as an average and in minutes. */
export function statsEntry(unit: UsageUnit, row: StatsRow): StatsEntry {
  const start = row.start.getTime();
  return {
    start: row.start.toISOString(),
    unit,
    messagesPublished: row.messages_published_socket + row.messages_published_http + row.messages_published_batch,
    messagesPublishedSocket: row.messages_published_socket,
    messagesPublishedHttp: row.messages_published_http,
    messagesPublishedBatch: row.messages_published_batch,
    messagesDelivered: row.messages_delivered,
    bytesDelivered: row.bytes_delivered,
    connectionsPeak: row.connections_peak,
    // over the whole interval, the current one included (so it grows until the interval ends)
    connectionsAverage: twoDecimals(row.connection_seconds / intervalSeconds(unit, start)),
    connectionMinutes: twoDecimals(row.connection_seconds / 60),
    channelsActive: row.channels_active,
    presenceEvents: row.presence_events,
    historyReads: row.history_reads,
    apiRequestsControl: row.api_requests_control,
    apiRequestsRealtime: row.api_requests_realtime,
    webhookEvents: row.webhook_events,
    webhookDeliveries: row.webhook_deliveries,
    webhookFailedAttempts: row.webhook_failed_attempts,
    webhookDropped: row.webhook_dropped,
    notifications: row.notifications,
  };
}

/** The intervals of an environment's usage (only those with rows: the answer is sparse). */
export async function readStats(
  db: Queryable,
  environmentId: string,
  query: { unit: UsageUnit; direction: 'forwards' | 'backwards'; from: number; to: number; limit: number },
): Promise<StatsEntry[]> {
  const { rows } = await db.query<StatsRow>(statsSql(query.unit, query.direction), [
    environmentId,
    new Date(query.from).toISOString(),
    new Date(query.to).toISOString(),
    query.limit,
  ]);
  return rows.map((row) => statsEntry(query.unit, row));
}
