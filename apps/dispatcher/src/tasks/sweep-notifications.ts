import type { Task } from 'graphile-worker';
import { SWEEP_NOTIFICATION_WINDOWS_SQL, type Pool } from '@rtm/db';
import type { Logger } from '@rtm/ops';

export const SWEEP_NOTIFICATIONS_TASK = 'sweep_notifications';
/** The sweep's job key and queue: one waiting job, and one sweep at a time, across every dispatcher. */
export const SWEEP_NOTIFICATIONS_JOB = { jobKey: SWEEP_NOTIFICATIONS_TASK, queueName: SWEEP_NOTIFICATIONS_TASK } as const;

const BATCH = 5_000;

/**
 * `sweep_notifications` (once at start, then every NOTIFICATION_SWEEP_MS): deletes notifications
 * older than NOTIFICATION_RETENTION, in batches, and the per-recipient counts of past minutes
 * (notification_windows). Reads filter by age too, so a late sweep never shows an expired
 * notification. graphile-worker's cron counts in minutes and the interval may be shorter, so the
 * task schedules its next run itself (`run_at`, under its job key) once this one is over, sweep or
 * no sweep; a run that cannot schedule the next one fails, and graphile-worker runs it again.
 */
export const sweepNotifications =
  (pool: Pool, config: { NOTIFICATION_RETENTION: number; NOTIFICATION_SWEEP_MS: number }, log: Logger): Task =>
  async (_payload, helpers) => {
    try {
      let deleted = 0;
      for (;;) {
        const { rowCount } = await pool.query(
          `delete from notifications where id in (
             select id from notifications where created_at < now() - $1::bigint * interval '1 millisecond' limit ${BATCH})`,
          [config.NOTIFICATION_RETENTION],
        );
        deleted += rowCount ?? 0;
        if ((rowCount ?? 0) < BATCH) break;
      }
      // the per-recipient counts of past minutes (one row per recently notified user)
      await pool.query(SWEEP_NOTIFICATION_WINDOWS_SQL);
      if (deleted > 0) log.debug({ deleted }, 'swept expired notifications');
    } catch (error) {
      log.warn({ err: error }, 'notification sweep failed');
    }
    // this job is running, so this adds the next one (graphile-worker keeps one job under the key)
    await helpers.addJob(SWEEP_NOTIFICATIONS_TASK, {}, { ...SWEEP_NOTIFICATIONS_JOB, runAt: new Date(Date.now() + config.NOTIFICATION_SWEEP_MS) });
  };
