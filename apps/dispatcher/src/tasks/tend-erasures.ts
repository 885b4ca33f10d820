import type { Task } from 'graphile-worker';
import { pruneErasureJobs, reconcileErasureJobs, type Pool } from '@rtm/db';
import type { Logger } from '@rtm/ops';

export const TEND_ERASURES_TASK = 'tend_erasures';
/** How long a finished erasure's progress stays readable (`GET /v1/erasures/{id}`). */
export const ERASURE_KEEP_DAYS = 30;

/**
 * `tend_erasures` (cron every minute, and once at start): deletes erasures finished more than 30
 * days ago, gives a job to a running erasure that has none (one accepted by a gateway of the
 * previous release, or whose job was lost), and marks `failed` one whose job graphile-worker gave
 * up on without the task ending it (libs/db erasure-jobs.ts, reconcileErasureJobs).
 */
export const tendErasures =
  (pool: Pool, log: Logger): Task =>
  async () => {
    const pruned = await pruneErasureJobs(pool, ERASURE_KEEP_DAYS);
    const { given, failed } = await reconcileErasureJobs(pool);
    if (pruned > 0) log.info({ pruned }, 'pruned finished erasure jobs');
    if (given > 0) log.warn({ erasures: given }, 'gave running erasures without a job a new one');
    if (failed > 0) log.warn({ erasures: failed }, 'erasures whose job gave up marked failed');
  };
