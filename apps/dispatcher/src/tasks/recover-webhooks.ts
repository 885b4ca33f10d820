import type { Task } from 'graphile-worker';
import type { Pool } from '@rtm/db';
import { failWebhookTask, runRecovery, RECOVER_TASK } from '@rtm/webhooks';
import type { Logger } from '@rtm/ops';

export { RECOVER_TASK };
/** Attempts of a recovery job before its task is marked failed. */
export const RECOVER_MAX_ATTEMPTS = 5;

/**
 * `recover_webhooks` {taskId}: queues an endpoint's dropped deliveries again (webhook-tasks.ts in
 * @rtm/webhooks), resuming after the task's cursor when an earlier run died. The last attempt
 * that fails marks the task failed, so GET /v1/webhook-tasks/{taskId} never shows `running` for
 * a task nobody runs.
 */
export const recoverWebhooks =
  (pool: Pool, log: Logger): Task =>
  async (payload, helpers) => {
    const { taskId } = payload as { taskId?: unknown };
    if (typeof taskId !== 'string') throw new Error('recover_webhooks: payload.taskId must be a string');
    try {
      const queued = await runRecovery(pool, taskId);
      log.info({ taskId, queued }, 'webhook recovery finished');
    } catch (error) {
      if (helpers.job.attempts >= Math.min(helpers.job.max_attempts, RECOVER_MAX_ATTEMPTS)) {
        log.error({ err: error, taskId }, 'webhook recovery failed for good');
        await failWebhookTask(pool, taskId, 'the recovery could not be completed; start another one');
        return;
      }
      throw error;
    }
  };
