/**
 * Webhook tasks: the recovery of an endpoint's dropped deliveries. The route records the task and
 * its `recover_webhooks` job in one transaction; a dispatcher runs it (`runRecovery`) in batches,
 * each batch one transaction that queues its deliveries again (status `pending`, due now, one
 * `deliver_webhooks` job) and moves the task's cursor past them, so a dispatcher that dies
 * mid-task leaves a job that resumes after the last batch, and nothing is queued twice.
 */
import { newId, withTransaction, type Pool, type PoolClient } from '@rtm/db';
import { ServiceError } from '@rtm/errors';
import type { WebhookTask } from '@rtm/schemas';
import type { z } from 'zod';
import { deliverBatchJobSql } from './jobs.ts';
import { getEndpoint, type EndpointView } from './endpoints.ts';

export const RECOVER_TASK = 'recover_webhooks';
/** Deliveries queued again per transaction (and per `deliver_webhooks` job). */
const RECOVER_BATCH = 64;

interface TaskRecord {
  id: string;
  endpoint_id: string;
  kind: 'recover';
  since: Date;
  until: Date;
  status: 'running' | 'completed' | 'failed';
  recovered: number;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
}

function toView(record: TaskRecord): z.infer<typeof WebhookTask> {
  return {
    id: record.id,
    kind: record.kind,
    endpointId: record.endpoint_id,
    since: record.since.toISOString(),
    until: record.until.toISOString(),
    status: record.status,
    recovered: record.recovered,
    ...(record.error !== null && { error: record.error }),
    createdAt: record.created_at.toISOString(),
    ...(record.finished_at !== null && { finishedAt: record.finished_at.toISOString() }),
  };
}

/**
 * Records a recovery of the endpoint's deliveries dropped in [since, until) (until: now) and its
 * job; 404 for an unknown endpoint, 400 for a window that ends before it starts.
 */
export async function startRecovery(
  pool: Pool,
  environmentId: string,
  endpointId: string,
  window: { since: string; until?: string | undefined },
  audit: (client: PoolClient, endpoint: EndpointView, taskId: string) => Promise<void> = async () => {},
): Promise<string> {
  const id = newId('wtk');
  await withTransaction(pool, async (client) => {
    const endpoint = await getEndpoint(client, environmentId, endpointId);
    const { rows } = await client.query<{ ok: boolean }>('select coalesce($2::timestamptz, now()) > $1::timestamptz as ok', [
      window.since,
      window.until ?? null,
    ]);
    if (!rows[0]!.ok) throw new ServiceError('invalid_request', 'body.until: must be after since');
    await client.query(
      `insert into webhook_tasks (id, environment_id, endpoint_id, kind, since, until) values ($1, $2, $3, 'recover', $4, coalesce($5::timestamptz, now()))`,
      [id, environmentId, endpointId, window.since, window.until ?? null],
    );
    await client.query(`select graphile_worker.add_job($1, json_build_object('taskId', $2::text), job_key := 'webhook_task:' || $2)`, [RECOVER_TASK, id]);
    await audit(client, endpoint, id);
  });
  return id;
}

export async function getWebhookTask(pool: Pool, environmentId: string, taskId: string): Promise<z.infer<typeof WebhookTask>> {
  const { rows } = await pool.query<TaskRecord>(
    `select id, endpoint_id, kind, since, until, status, recovered, error, created_at, finished_at
     from webhook_tasks where id = $1 and environment_id = $2`,
    [taskId, environmentId],
  );
  if (!rows[0]) throw new ServiceError('not_found', 'no such webhook task');
  return toView(rows[0]);
}

/**
 * Runs a recovery to its end (the dispatcher's `recover_webhooks` task): batch after batch, in id
 * order after the task's cursor. Returns how many deliveries it queued again in this run.
 */
export async function runRecovery(pool: Pool, taskId: string): Promise<number> {
  let total = 0;
  for (;;) {
    const queued = await withTransaction(pool, async (client) => {
      const { rows } = await client.query<{ ids: string[] | null; running: boolean }>(
        `with task as (select * from webhook_tasks where id = $1 for update),
         picked as (
           select d.id from webhook_deliveries d, task t
           where t.status = 'running' and d.endpoint_id = t.endpoint_id and d.status = 'dropped'
             and d.created_at >= t.since and d.created_at < t.until and (t.cursor is null or d.id > t.cursor)
           order by d.id limit ${RECOVER_BATCH}
           for update of d skip locked),
         requeued as (
           update webhook_deliveries d set status = 'pending', next_attempt_at = now(), locked_until = null, updated_at = now()
           from picked where d.id = picked.id returning d.id)
         select array(select id from requeued order by id) as ids, exists (select 1 from task where status = 'running') as running`,
        [taskId],
      );
      const ids = rows[0]?.ids ?? [];
      if (!rows[0]?.running) return null;
      if (ids.length === 0) {
        await client.query(`update webhook_tasks set status = 'completed', finished_at = now(), updated_at = now() where id = $1`, [taskId]);
        return null;
      }
      await client.query(`select ${deliverBatchJobSql('$1::text[]')}`, [ids]);
      await client.query(`update webhook_tasks set recovered = recovered + $2, cursor = $3, updated_at = now() where id = $1`, [
        taskId,
        ids.length,
        ids[ids.length - 1],
      ]);
      return ids.length;
    });
    if (queued === null) return total;
    total += queued;
  }
}

/** A task that cannot go on (graphile-worker gave up on it): failed, with the reason. */
export async function failWebhookTask(pool: Pool, taskId: string, error: string): Promise<void> {
  await pool.query(`update webhook_tasks set status = 'failed', error = $2, finished_at = now(), updated_at = now() where id = $1 and status = 'running'`, [
    taskId,
    error.slice(0, 1024),
  ]);
}
