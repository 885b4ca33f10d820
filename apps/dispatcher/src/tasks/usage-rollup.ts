import type { Task } from 'graphile-worker';
import { rollUpUsage, type Pool } from '@rtm/db';
import type { Logger } from '@rtm/ops';

export const USAGE_ROLLUP_TASK = 'usage_rollup';
/** The rollup's job key and queue: one waiting job, and one run at a time, across every dispatcher. */
export const USAGE_ROLLUP_JOB = { jobKey: USAGE_ROLLUP_TASK, queueName: USAGE_ROLLUP_TASK } as const;

/** A run every minute, a few seconds into it (after the processes' flushes of the minute that ended). */
export const USAGE_ROLLUP_EVERY_MS = 60_000;
const INTO_THE_MINUTE_MS = 15_000;

/** When the run after one at `now` is due: the next minute's start plus INTO_THE_MINUTE_MS, at least 10 s away. */
export function nextRollupAt(now: number): number {
  const next = Math.floor(now / USAGE_ROLLUP_EVERY_MS) * USAGE_ROLLUP_EVERY_MS + USAGE_ROLLUP_EVERY_MS + INTO_THE_MINUTE_MS;
  return next - now < 10_000 ? next + USAGE_ROLLUP_EVERY_MS : next;
}

/**
 * `usage_rollup` (once at start, then every minute): minutes into hours, hours into days, days
 * into months (libs/db usage-rollup.ts; sums, and the largest minute for `connections_peak` and
 * `channels_active`), recomputing the current and previous hour, day and month and anything since
 * the last settled run, so running again is harmless and a late minute is taken in. The task
 * schedules its next run itself (`run_at`, under its job key) once this one is over, as the
 * notification sweep does; a dispatcher killed mid-run leaves its job locked until recovery
 * unlocks it (worker-recovery.ts), and the run's transaction never committed, so it runs again
 * whole.
 */
export const usageRollup =
  (pool: Pool, log: Logger): Task =>
  async (_payload, helpers) => {
    try {
      const plan = await rollUpUsage(pool);
      log.debug({ hoursFrom: plan.hoursFrom, settledBefore: plan.settledBefore }, 'rolled usage up');
    } catch (error) {
      log.warn({ err: error }, 'usage rollup failed');
    }
    // this job is running, so this adds the next one (graphile-worker keeps one job under the key)
    await helpers.addJob(USAGE_ROLLUP_TASK, {}, { ...USAGE_ROLLUP_JOB, runAt: new Date(nextRollupAt(Date.now())) });
  };
