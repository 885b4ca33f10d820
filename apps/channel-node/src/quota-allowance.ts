/**
 * What the committer does when a commit would pass a monthly message quota (quota-sql.ts): the
 * statement failed and nothing of the batch was written; it reads what each environment of the
 * batch may still store and plans the batch again with that allowance, the messages past it
 * refused with `quota_exceeded`. Another commit may take the allowance meanwhile: the check in
 * the statement still holds, and the committer reads again.
 */
import type { Queryable } from '@rtm/db';
import { quotaPeriod } from '@rtm/rules';
import type { QuotaAllowance } from './batch-plan.ts';
import { QUOTA_LEFT_SQL } from './quota-sql.ts';

/** A commit would have passed a monthly message quota: roll back, read the allowance, plan again. */
export class QuotaError extends Error {
  override name = 'QuotaError';
}

/** Commits of one part that may meet a spent quota before it is refused as `unavailable` (another writer keeps taking it). */
export const QUOTA_RETRIES = 8;

/** The allowance of every limited environment of `environments` (an unlimited one has none). */
export async function readAllowance(db: Queryable, environments: readonly string[]): Promise<Map<string, QuotaAllowance>> {
  const { rows } = await db.query<{ environment_id: string; lim: string | null; used: string; period_start: string }>(QUOTA_LEFT_SQL, [environments]);
  const allowance = new Map<string, QuotaAllowance>();
  for (const row of rows) {
    if (row.lim === null) continue;
    const limit = Number(row.lim);
    const used = Number(row.used);
    const resetsAt = quotaPeriod(Date.parse(`${row.period_start}T00:00:00Z`)).resetsAt.toISOString();
    allowance.set(row.environment_id, { left: Math.max(0, limit - used), limit, used, resetsAt });
  }
  return allowance;
}
