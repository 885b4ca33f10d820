import type { Task } from 'graphile-worker';
import { pruneUsage, type Pool } from '@rtm/db';
import type { Logger } from '@rtm/ops';

export const PRUNE_USAGE_TASK = 'prune_usage';
/** One waiting job and one run at a time across every dispatcher (cron adds one every 15 minutes). */
export const PRUNE_USAGE_JOB = { jobKey: PRUNE_USAGE_TASK, queueName: PRUNE_USAGE_TASK } as const;

/**
 * `prune_usage` (cron every 15 minutes, and once at start): usage minutes older than 48 hours (and
 * the flush records with them), hours older than 90 days, days and months older than 2 years
 * (docs/stats.md, "Retention"), whole hours, days and months at a time and never a row the rollup
 * has not yet rolled up (libs/db pruneCutoffs). Deletes in batches of short transactions; a
 * failed run is retried by graphile-worker.
 */
export const pruneUsageTask =
  (pool: Pool, log: Logger): Task =>
  async () => {
    const deleted = await pruneUsage(pool);
    const total = Object.values(deleted).reduce((sum, n) => sum + n, 0);
    if (total > 0) log.info({ deleted }, 'pruned usage past its retention');
  };
