/**
 * graphile-worker task names and payloads, declared once so every `add_job` call site (the
 * publish transaction, the dispatcher's retries, the manual retry route) agrees with the tasks.
 *
 * - `deliver_webhooks` {ids}: one job per publish batch, enqueued in the publishing transaction.
 * - `deliver_webhook` {id}: one delivery; its retries are scheduled with `run_at` and the job key
 *   `webhook:<id>` (so a delivery has at most one waiting retry job).
 * - `prune_webhooks`: the retention cron task.
 */
export const DELIVER_BATCH_TASK = 'deliver_webhooks';
export const DELIVER_ONE_TASK = 'deliver_webhook';
export const PRUNE_TASK = 'prune_webhooks';

export interface DeliverBatchPayload {
  ids: string[];
}

export interface DeliverOnePayload {
  id: string;
}

export const deliveryJobKey = (deliveryId: string): string => `webhook:${deliveryId}`;
