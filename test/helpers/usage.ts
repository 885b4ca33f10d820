/**
 * Reading what the processes counted (docs/stats.md): totals over the minutes of `usage_minutes`
 * for one environment. Summed columns add; `connections_peak` and `channels_active` are the
 * largest of their minutes, as an hour's are.
 */
import type { Pool } from '@rtm/db';
import { USAGE_COLUMNS, type UsageColumn } from '@rtm/usage';

export type UsageTotals = Record<UsageColumn, number>;

const LARGEST: ReadonlySet<UsageColumn> = new Set(['connections_peak', 'channels_active']);

export async function readUsageTotals(pool: Pool, environmentId: string): Promise<UsageTotals> {
  const select = USAGE_COLUMNS.map((c) => `${LARGEST.has(c) ? 'max' : 'sum'}(${c})::float8 as ${c}`).join(', ');
  const { rows } = await pool.query<Record<UsageColumn, number | null>>(`select ${select} from usage_minutes where environment_id = $1`, [environmentId]);
  return Object.fromEntries(USAGE_COLUMNS.map((c) => [c, rows[0]?.[c] ?? 0])) as UsageTotals;
}

/** The totals' columns that `expected` names, for a deepEqual on those only. */
export function pick(totals: UsageTotals, expected: Partial<UsageTotals>): Partial<UsageTotals> {
  return Object.fromEntries(Object.keys(expected).map((c) => [c, totals[c as UsageColumn]]));
}
