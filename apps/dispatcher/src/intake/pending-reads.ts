/**
 * The owner's reads of pending ledger rows (push-intake.ts): which of a job's
 * deliveries are still pending (to route them), those whose notice was lost (the catch-up), and
 * the due rows a dead owner left (the takeover).
 */
import type { Pool } from '@rtm/db';
import { stillPending } from '../delivery/delivery-leases.ts';

/** Which of `ids` are still pending, with their environments (a job's deliveries, to route). */
export async function pendingDeliveries(pool: Pool, ids: readonly string[]): Promise<{ id: string; environment_id: string }[]> {
  const { rows } = await pool.query<{ id: string; environment_id: string }>(
    `select id, environment_id from webhook_deliveries where id = any($1::text[]) and ${stillPending()}`,
    [ids],
  );
  return rows;
}

/**
 * Pending deliveries due for more than `graceMs` outside the environments `skip`, unleased or
 * with a lease that lapsed (a push lease whose notice was lost, a claim whose sender died),
 * oldest due first, at most `limit`. By `status = 'pending'` on purpose: this one scans by due
 * time, which is what the partial index of pending rows serves.
 */
export async function overdueUnleased(
  pool: Pool,
  query: { graceMs: number; skip: readonly string[]; limit: number },
): Promise<{ id: string; environment_id: string }[]> {
  const { rows } = await pool.query<{ id: string; environment_id: string }>(
    `select id, environment_id from webhook_deliveries
         where status = 'pending' and (locked_until is null or locked_until < now())
           and next_attempt_at < now() - $1 * interval '1 millisecond'
           and environment_id <> all($2::text[])
         order by next_attempt_at limit $3`,
    [query.graceMs, query.skip, query.limit],
  );
  return rows;
}

/**
 * Pending, due deliveries, leased or not, with their leases (null: unleased), oldest due first, at
 * most `limit`: what the new owner of a partition whose dispatcher died takes over at once
 * (the caller keeps those of its partitions). Every lease on such a row is its dead owner's: only
 * an owner sends.
 */
export async function dueDeliveries(pool: Pool, limit: number): Promise<{ id: string; environment_id: string; lease: string | null }[]> {
  const { rows } = await pool.query<{ id: string; environment_id: string; lease: string | null }>(
    `select id, environment_id, locked_until::text as lease from webhook_deliveries
         where status = 'pending' and next_attempt_at <= now()
         order by next_attempt_at limit $1`,
    [limit],
  );
  return rows;
}
