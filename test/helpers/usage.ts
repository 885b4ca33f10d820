/**
 * Usage rows for the stats tests: seeded by SQL (as the meters' flushes would write them), the
 * entries GET /v1/stats should answer for them (computed here, apart from the service's code),
 * and the dispatcher's usage jobs run on demand.
 */
import type { Pool } from 'pg';
import { eventually } from './eventually.ts';

export const COUNTERS = [
  'messages_published_socket',
  'messages_published_http',
  'messages_published_batch',
  'messages_delivered',
  'bytes_delivered',
  'connections_peak',
  'connection_seconds',
  'channels_active',
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
export type Counter = (typeof COUNTERS)[number];
export type UsageRow = { at: number } & Record<Counter, number>;
export type Unit = 'minute' | 'hour' | 'day' | 'month';

const PEAKS = new Set<Counter>(['connections_peak', 'channels_active']);

/** A row at `at` whose counters all differ from each other and from other seeds' (`seed` distinct per row). */
export function usageRow(at: number, seed: number): UsageRow {
  const row = { at } as UsageRow;
  COUNTERS.forEach((counter, i) => {
    row[counter] = counter === 'connection_seconds' ? seed * 37 : seed * (i + 1) + (PEAKS.has(counter) ? (seed * 7) % 11 : 0);
  });
  return row;
}

export async function insertUsage(pool: Pool, table: string, environmentId: string, rows: UsageRow[]): Promise<void> {
  for (const row of rows) {
    await pool.query(`insert into ${table} (environment_id, at, ${COUNTERS.join(', ')}) values ($1, $2, ${COUNTERS.map((_, i) => `$${i + 3}`).join(', ')})`, [
      environmentId,
      new Date(row.at).toISOString(),
      ...COUNTERS.map((c) => row[c]),
    ]);
  }
}

/** UTC interval starts, written here on purpose rather than taken from the service. */
export function startOf(unit: Unit, ms: number): number {
  const d = new Date(ms);
  if (unit === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  if (unit === 'day') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
  if (unit === 'hour') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours());
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes());
}

function seconds(unit: Unit, start: number): number {
  if (unit === 'minute') return 60;
  if (unit === 'hour') return 3600;
  if (unit === 'day') return 86_400;
  const d = new Date(start);
  return (Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - start) / 1000;
}

/** Rows grouped into intervals of `unit`: sums, and the largest for the two peaks. */
export function rollUp(unit: Unit, rows: UsageRow[]): UsageRow[] {
  const groups = new Map<number, UsageRow>();
  for (const row of rows) {
    const at = startOf(unit, row.at);
    const group = groups.get(at);
    if (!group) {
      groups.set(at, { ...row, at });
      continue;
    }
    for (const c of COUNTERS) group[c] = PEAKS.has(c) ? Math.max(group[c], row[c]) : group[c] + row[c];
  }
  return [...groups.values()].sort((a, b) => b.at - a.at);
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The entries GET /v1/stats answers for these rows, newest first. */
export function expectedEntries(unit: Unit, rows: UsageRow[]) {
  return rollUp(unit, rows).map((r) => ({
    start: new Date(r.at).toISOString(),
    unit,
    messagesPublished: r.messages_published_socket + r.messages_published_http + r.messages_published_batch,
    messagesPublishedSocket: r.messages_published_socket,
    messagesPublishedHttp: r.messages_published_http,
    messagesPublishedBatch: r.messages_published_batch,
    messagesDelivered: r.messages_delivered,
    bytesDelivered: r.bytes_delivered,
    connectionsPeak: r.connections_peak,
    connectionsAverage: round2(r.connection_seconds / seconds(unit, r.at)),
    connectionMinutes: round2(r.connection_seconds / 60),
    channelsActive: r.channels_active,
    presenceEvents: r.presence_events,
    historyReads: r.history_reads,
    apiRequestsControl: r.api_requests_control,
    apiRequestsRealtime: r.api_requests_realtime,
    webhookEvents: r.webhook_events,
    webhookDeliveries: r.webhook_deliveries,
    webhookFailedAttempts: r.webhook_failed_attempts,
    webhookDropped: r.webhook_dropped,
    notifications: r.notifications,
  }));
}

/** An environment's rows of one usage table, newest first. */
export async function storedUsage(pool: Pool, table: string, environmentId: string): Promise<UsageRow[]> {
  const { rows } = await pool.query(`select at, ${COUNTERS.join(', ')} from ${table} where environment_id = $1 order by at desc`, [environmentId]);
  return rows.map((row) => {
    const out = { at: (row.at as Date).getTime() } as UsageRow;
    for (const c of COUNTERS) out[c] = Number(row[c]);
    return out;
  });
}

/** The rollup's settled point (null before its first run). */
export async function settledBefore(pool: Pool): Promise<number | null> {
  const { rows } = await pool.query<{ settled: Date | null }>('select settled_before as settled from usage_rollup_state');
  return rows[0]!.settled?.getTime() ?? null;
}

/** Asks the dispatchers for a `usage_rollup` run now (the waiting job moves to now) and waits until one has run. */
export async function runRollup(pool: Pool): Promise<void> {
  const before = await settledBefore(pool);
  await pool.query(`select graphile_worker.add_job('usage_rollup', '{}'::json, queue_name := 'usage_rollup', job_key := 'usage_rollup')`);
  await eventually(
    'a usage rollup run',
    async () => {
      const after = await settledBefore(pool);
      return after !== null && (before === null || after > before);
    },
    60_000,
  );
}

/** Asks the dispatchers for a `prune_usage` run now. */
export async function requestPrune(pool: Pool): Promise<void> {
  await pool.query(`select graphile_worker.add_job('prune_usage', '{}'::json, queue_name := 'prune_usage', job_key := 'prune_usage')`);
}

/** What the processes counted for one environment, over every minute of `usage_minutes`. */
export type UsageTotals = Record<Counter, number>;

/**
 * Totals over the minutes of `usage_minutes` for one environment: summed columns add;
 * `connections_peak` and `channels_active` are the largest of their minutes, as an hour's are.
 */
export async function readUsageTotals(pool: Pool, environmentId: string): Promise<UsageTotals> {
  const select = COUNTERS.map((c) => `${PEAKS.has(c) ? 'max' : 'sum'}(${c})::float8 as ${c}`).join(', ');
  const { rows } = await pool.query<Record<Counter, number | null>>(`select ${select} from usage_minutes where environment_id = $1`, [environmentId]);
  return Object.fromEntries(COUNTERS.map((c) => [c, rows[0]?.[c] ?? 0])) as UsageTotals;
}

/** The totals' columns that `expected` names, for a deepEqual on those only. */
export function pick(totals: UsageTotals, expected: Partial<UsageTotals>): Partial<UsageTotals> {
  return Object.fromEntries(Object.keys(expected).map((c) => [c, totals[c as Counter]]));
}

const camel = (counter: Counter) => counter.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * The same totals read through `GET /v1/stats` by `unit` (every entry of the last `limit`
 * intervals): entries add, but `connectionsPeak` and `channelsActive` are the largest entry's.
 * Answers them under the table's column names, for comparing with `readUsageTotals`.
 */
export async function statsTotals(get: (path: string) => Promise<{ status: number; body: any }>, unit: Unit, limit = 10): Promise<Partial<UsageTotals>> {
  const res = await get(`/v1/stats?unit=${unit}&limit=${limit}`);
  if (res.status !== 200) throw new Error(`GET /v1/stats: ${res.status} ${JSON.stringify(res.body)}`);
  const totals: Partial<UsageTotals> = {};
  for (const counter of COUNTERS) {
    if (counter === 'connection_seconds') continue;
    const values = (res.body.data as Record<string, number>[]).map((entry) => entry[camel(counter)] ?? 0);
    totals[counter] = PEAKS.has(counter) ? Math.max(0, ...values) : values.reduce((a, b) => a + b, 0);
  }
  return totals;
}
