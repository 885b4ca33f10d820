/**
 * Erasure jobs in Postgres: one row per `DELETE /v1/users/{userId}/messages`, advanced in batches
 * by whichever gateway holds its lease (`locked_until`). The cursor is the last message handled
 * (channel_pk, seq), written after each batch, so a job whose gateway crashed is taken over when
 * its lease runs out and resumes at its cursor. Retraction is idempotent, so a batch repeated after
 * a crash retracts nothing twice and emits no second webhook.
 *
 * Fencing: each claim writes a fresh `lease_token`. A runner can outlive its lease (a slow batch,
 * a paused process) while another gateway claims the job; so nothing it does counts unless it
 * still holds the token:
 * - each retraction carries the job id and token to the channel owner, which counts it in
 *   `retracted` in the same transaction that retracts the message, and only if the token is still
 *   the job's (else the message is left alone and the command fails): a message is counted
 *   exactly once, by the runner that changed it;
 * - the cursor, status and lease renewal are written only where the token still matches
 *   (`advanceErasureJob` says whether it did); a runner that lost the lease stops.
 */
import { randomBytes } from 'node:crypto';
import { newId, type Pool } from '@rtm/db';

export const ERASURE_LEASE_SECONDS = 30;

export interface ErasureJob {
  id: string;
  environmentId: string;
  kind: 'user_messages';
  userId: string;
  status: 'running' | 'done' | 'failed';
  cursor: { channelPk: number; seq: number };
  retracted: number;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
  /** The holder's token (set by a claim). */
  leaseToken: string | null;
}

interface JobRow {
  id: string;
  environment_id: string;
  kind: 'user_messages';
  user_id: string;
  status: ErasureJob['status'];
  cursor_channel_pk: string;
  cursor_seq: string;
  retracted: string;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
  lease_token: string | null;
}

const toJob = (row: JobRow): ErasureJob => ({
  id: row.id,
  environmentId: row.environment_id,
  kind: row.kind,
  userId: row.user_id,
  status: row.status,
  cursor: { channelPk: Number(row.cursor_channel_pk), seq: Number(row.cursor_seq) },
  retracted: Number(row.retracted),
  lastError: row.last_error,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  finishedAt: row.finished_at,
  leaseToken: row.lease_token,
});

export async function createErasureJob(pool: Pool, environmentId: string, userId: string): Promise<ErasureJob> {
  const { rows } = await pool.query<JobRow>(
    `insert into erasure_jobs (id, environment_id, kind, user_id) values ($1, $2, 'user_messages', $3) returning *`,
    [newId('erj'), environmentId, userId],
  );
  return toJob(rows[0]!);
}

export async function getErasureJob(pool: Pool, environmentId: string, id: string): Promise<ErasureJob | null> {
  const { rows } = await pool.query<JobRow>('select * from erasure_jobs where environment_id = $1 and id = $2', [environmentId, id]);
  return rows[0] ? toJob(rows[0]) : null;
}

/** Takes the lease of one running job nobody holds (or whose holder's lease ran out), with a fresh token. */
export async function claimErasureJob(pool: Pool): Promise<ErasureJob | null> {
  const { rows } = await pool.query<JobRow>(
    `update erasure_jobs set locked_until = now() + make_interval(secs => $1), updated_at = now(), lease_token = $2
     where id = (select id from erasure_jobs where status = 'running' and (locked_until is null or locked_until < now())
                 order by id limit 1 for update skip locked)
     returning *`,
    [ERASURE_LEASE_SECONDS, randomBytes(16).toString('base64url')],
  );
  return rows[0] ? toJob(rows[0]) : null;
}

export interface ErasureTarget {
  channelPk: number;
  seq: number;
  messageId: string;
  channelId: string;
}

/** The next `limit` messages of the job's user after its cursor that are not yet retracted. */
export async function nextErasureBatch(pool: Pool, job: ErasureJob, limit: number): Promise<ErasureTarget[]> {
  const { rows } = await pool.query<{ channel_pk: string; seq: string; id: string; channel_id: string }>(
    `select m.channel_pk, m.seq, m.id, c.id as channel_id
     from messages m join channels c on c.pk = m.channel_pk
     where m.sender_id = $2 and m.kind = 'user' and c.environment_id = $1 and m.retracted_at is null
       and (m.channel_pk, m.seq) > ($3, $4)
     order by m.channel_pk, m.seq limit $5`,
    [job.environmentId, job.userId, job.cursor.channelPk, job.cursor.seq, limit],
  );
  return rows.map((row) => ({ channelPk: Number(row.channel_pk), seq: Number(row.seq), messageId: row.id, channelId: row.channel_id }));
}

/**
 * Records a batch's progress and renews the lease; `done` finishes the job. Written only while
 * the job still carries this runner's token: false means the lease was taken over (or the job
 * ended) and nothing was written. The `retracted` count is not written here: the channel owner
 * adds each retraction in the transaction that makes it.
 */
export async function advanceErasureJob(
  pool: Pool,
  job: ErasureJob,
  cursor: { channelPk: number; seq: number },
  outcome: { done: boolean; error?: string },
): Promise<boolean> {
  const { rowCount } = await pool.query(
    `update erasure_jobs set cursor_channel_pk = $2, cursor_seq = $3, last_error = $4,
       status = case when $5 then 'done' else status end,
       finished_at = case when $5 then now() else finished_at end,
       -- an error hands the job back after a short pause; progress renews the lease
       locked_until = case when $5 then null when $4::text is not null then now() + interval '2 seconds'
                           else now() + make_interval(secs => $6) end,
       updated_at = now()
     where id = $1 and status = 'running' and lease_token = $7`,
    [job.id, cursor.channelPk, cursor.seq, outcome.error ?? null, outcome.done, ERASURE_LEASE_SECONDS, job.leaseToken],
  );
  return (rowCount ?? 0) > 0;
}

/** Finished jobs are kept for `days` (their progress stays readable), then deleted. */
export async function pruneErasureJobs(pool: Pool, days: number): Promise<number> {
  const { rowCount } = await pool.query(
    `delete from erasure_jobs where status <> 'running' and finished_at < now() - make_interval(days => $1)`,
    [days],
  );
  return rowCount ?? 0;
}
