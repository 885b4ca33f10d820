/**
 * graphile-worker task names, payloads and the SQL that enqueues them, declared once so every
 * place that adds a job (the publish statement, the dispatcher's retries and recovery, the
 * manual retry route) agrees with the tasks. Jobs are added in SQL, inside the caller's
 * statement or transaction, so a job commits (or rolls back) with the rows it is about.
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

const JOB_KEY_PREFIX = 'webhook:';

/**
 * A SQL expression that adds (or moves, by its job key) the `deliver_webhook` job of the delivery
 * whose id is the SQL expression `id`, to run at `runAt` (default: now). Use it in a select over
 * the delivery rows: `select ${deliverOneJobSql('id', 'next_attempt_at')} from …`.
 */
export function deliverOneJobSql(id: string, runAt?: string): string {
  const when = runAt ? `, run_at := ${runAt}` : '';
  return `graphile_worker.add_job('${DELIVER_ONE_TASK}', json_build_object('id', ${id})${when}, job_key := '${JOB_KEY_PREFIX}' || ${id})`;
}

/** A SQL expression that adds one `deliver_webhooks` job for the text[] SQL expression `ids`, to run at `runAt` (default: now). */
export function deliverBatchJobSql(ids: string, runAt?: string): string {
  const when = runAt ? `, run_at := ${runAt}` : '';
  return `graphile_worker.add_job('${DELIVER_BATCH_TASK}', json_build_object('ids', ${ids})${when})`;
}
