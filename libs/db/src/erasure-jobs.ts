/**
 * Erasure jobs in Postgres: one row per `DELETE /v1/users/{userId}/messages` (and, `kind =
 * 'channel'`, per `DELETE /v1/channels/{channelId}`: its steps are channel-deletion.ts), created by the
 * gateway together with the graphile-worker job that runs it (`erase_user_messages`, job key
 * `erasure:<id>`, in the same transaction), and advanced in batches by the dispatcher task of
 * that job (apps/dispatcher/src/tasks/erase-user-messages.ts). The cursor is the last message
 * handled (channel_pk, seq), written after each batch, so a run that stopped (its dispatcher
 * crashed, or it handed over to a fresh job) resumes at its cursor. Retraction is idempotent, so a
 * batch repeated after a crash retracts nothing twice and emits no second webhook.
 *
 * Fencing: each run of the job writes its own `lease_token` when it takes the erasure (the
 * graphile-worker job's id and attempt number: a job run again after a crash, or a fresh job, has
 * a new one). A run can outlive its turn (a slow batch, a paused process whose job was unlocked
 * and run elsewhere), so nothing it does counts unless the token is still its own:
 * - each retraction carries the erasure id and token to the channel owner, which counts it in
 *   `retracted` in the same transaction that retracts the message, and only if the token is still
 *   the erasure's (else the message is left alone and the command fails): a message is counted
 *   exactly once, by the run that changed it;
 * - the cursor, status and last error are written only where the token still matches
 *   (`advanceErasureJob` says whether it did); a run that lost the erasure stops.
 */
import type { Pool, PoolClient } from 'pg';
import { newId } from './ids.ts';
import { withTransaction } from './transaction.ts';

/** The graphile-worker task that runs an erasure of a user's messages (the dispatcher's). */
export const ERASE_TASK = 'erase_user_messages';
/** The graphile-worker task that runs a channel deletion (the dispatcher's). */
export const DELETE_CHANNEL_TASK = 'delete_channel';

/**
 * Runs of one erasure job without progress before the erasure is `failed`: graphile-worker waits
 * e^attempt seconds between them, so about 3.5 hours of failures.
 */
export const ERASE_MAX_ATTEMPTS = 10;

/** The job key of an erasure's job: at most one waiting job per erasure; adding it again collapses. */
export const erasureJobKey = (erasureId: string): string => `erasure:${erasureId}`;

/** What handing an erasure over needs of a running job's helpers (graphile-worker's `addJob`). */
export interface JobAdder {
  addJob(task: string, payload: ErasePayload, spec: { jobKey: string; maxAttempts: number; runAt: Date }): Promise<unknown>;
}

/**
 * A fresh job for the erasure under its key, `delayMs` from now, run by `task`. The calling run's
 * job is running, so graphile-worker adds a new one (and the caller's ends when its task returns).
 */
export async function handOverErasure(helpers: JobAdder, task: string, erasureId: string, delayMs = 0): Promise<void> {
  await helpers.addJob(task, { erasureId }, { jobKey: erasureJobKey(erasureId), maxAttempts: ERASE_MAX_ATTEMPTS, runAt: new Date(Date.now() + delayMs) });
}

export interface ErasePayload {
  erasureId: string;
}

/**
 * A SQL expression that adds (or, for one not yet running, moves to `runAt`) the job of the
 * erasure whose id is the SQL expression `id` and whose kind is the SQL expression `kind`: each
 * kind has its task, both under the key `erasure:<id>`.
 */
export function eraseJobSql(id: string, kind: string, runAt = 'now()'): string {
  const task = `case ${kind} when 'channel' then '${DELETE_CHANNEL_TASK}' else '${ERASE_TASK}' end`;
  return `graphile_worker.add_job(${task}, json_build_object('erasureId', ${id}), run_at := ${runAt}, max_attempts := ${ERASE_MAX_ATTEMPTS}, job_key := 'erasure:' || ${id})`;
}

export interface ErasureJob {
  id: string;
  environmentId: string;
  kind: 'user_messages' | 'channel';
  /** The user whose messages are retracted (`user_messages`), else null. */
  userId: string | null;
  /** The channel deleted (`channel`), else null. */
  channelId: string | null;
  /** A channel deletion's counts so far (members and bans are counted in its last transaction). */
  deleted: { messages: number; members: number; bans: number };
  /** A channel deletion: null until it looked at the channel, false when there was nothing to delete. */
  channelFound: boolean | null;
  /** A channel deletion whose rows are gone and whose sockets are closed once more before it ends. */
  channelClosing: boolean;
  status: 'running' | 'done' | 'failed';
  cursor: { channelPk: number; seq: number };
  retracted: number;
  lastError: string | null;
  createdAt: Date;
  updatedAt: Date;
  finishedAt: Date | null;
  /** The token of the run that holds it (written when a run takes it). */
  leaseToken: string | null;
}

export interface JobRow {
  id: string;
  environment_id: string;
  kind: ErasureJob['kind'];
  user_id: string | null;
  channel_id: string | null;
  deleted_messages: string;
  deleted_members: string;
  deleted_bans: string;
  channel_found: boolean | null;
  channel_step: 'closing' | null;
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

export const toJob = (row: JobRow): ErasureJob => ({
  id: row.id,
  environmentId: row.environment_id,
  kind: row.kind,
  userId: row.user_id,
  channelId: row.channel_id,
  deleted: { messages: Number(row.deleted_messages), members: Number(row.deleted_members), bans: Number(row.deleted_bans) },
  channelFound: row.channel_found,
  channelClosing: row.channel_step === 'closing',
  status: row.status,
  cursor: { channelPk: Number(row.cursor_channel_pk), seq: Number(row.cursor_seq) },
  retracted: Number(row.retracted),
  lastError: row.last_error,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  finishedAt: row.finished_at,
  leaseToken: row.lease_token,
});

/** The erasure and its job, in one statement (one transaction): neither exists without the other. */
export async function createErasureJob(db: Pool | PoolClient, environmentId: string, userId: string): Promise<ErasureJob> {
  const { rows } = await db.query<JobRow & { job: unknown }>(
    `with created as (
       insert into erasure_jobs (id, environment_id, kind, user_id) values ($1, $2, 'user_messages', $3) returning *
     )
     select created.*, ${eraseJobSql('created.id', 'created.kind')} as job from created`,
    [newId('erj'), environmentId, userId],
  );
  return toJob(rows[0]!);
}

export async function getErasureJob(pool: Pool, environmentId: string, id: string): Promise<ErasureJob | null> {
  const { rows } = await pool.query<JobRow>('select * from erasure_jobs where environment_id = $1 and id = $2', [environmentId, id]);
  return rows[0] ? toJob(rows[0]) : null;
}

/**
 * `locked_until`: the lease of the release before erasures ran in the dispatcher, when gateways
 * claimed jobs by it. Runs still write it (ERASURE_LEASE_SECONDS, renewed after each batch) and
 * respect a live one taken by such a gateway, so during a rolling upgrade, or after a rollback to
 * that release, one runner at a time still holds: a gateway of that release leaves an erasure a
 * dispatcher runs alone, and takes it over when its lease lapses. Its tokens are random text,
 * never `<job id>:<attempt>`.
 */
export const ERASURE_LEASE_SECONDS = 30;

/**
 * A run takes the erasure of a user's messages (a channel deletion is taken by
 * takeChannelDeletion): writes its token (from then on, the runs before it change nothing).
 * `gone` when the erasure is no longer running (done, failed, or pruned): nothing to do; `busy`
 * while a gateway of the previous release holds a live lease on it (see ERASURE_LEASE_SECONDS).
 */
export async function takeErasureJob(pool: Pool, id: string, token: string): Promise<ErasureJob | 'gone' | 'busy'> {
  const { rows } = await pool.query<JobRow>(
    `update erasure_jobs set lease_token = $2, locked_until = now() + make_interval(secs => $3), updated_at = now()
     where id = $1 and status = 'running' and kind = 'user_messages'
       and not coalesce(locked_until > now() and position(':' in lease_token) = 0, false)
     returning *`,
    [id, token, ERASURE_LEASE_SECONDS],
  );
  if (rows[0]) return toJob(rows[0]);
  const running = await pool.query(`select 1 from erasure_jobs where id = $1 and status = 'running' and kind = 'user_messages'`, [id]);
  return running.rowCount ? 'busy' : 'gone';
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
 * Records a run's progress: the cursor, the last error (null clears it), the lease's renewal, and
 * the end: `done` (every message handled) or `failed` (the job gave up). `done`, when given, runs
 * in the transaction that ends the erasure `done`, with the erasure as it ends (its final
 * `retracted`). Written only while the erasure still
 * carries this run's token: false means another run took it (or it ended) and nothing was
 * written. The `retracted` count is not written here: the channel owner adds each retraction in
 * the transaction that makes it.
 */
export async function advanceErasureJob(
  pool: Pool,
  job: ErasureJob,
  cursor: { channelPk: number; seq: number },
  outcome: { end?: 'done' | 'failed'; error?: string },
  done?: (client: PoolClient, job: ErasureJob) => Promise<unknown>,
): Promise<boolean> {
  const parameters = [job.id, cursor.channelPk, cursor.seq, outcome.error ?? null, outcome.end ?? null, job.leaseToken, ERASURE_LEASE_SECONDS];
  const advance = `update erasure_jobs set cursor_channel_pk = $2, cursor_seq = $3, last_error = $4,
       status = coalesce($5, status),
       finished_at = case when $5::text is not null then now() else finished_at end,
       locked_until = case when $5::text is not null then null else now() + make_interval(secs => $7) end,
       updated_at = now()
     where id = $1 and status = 'running' and lease_token = $6`;
  if (outcome.end !== 'done' || !done) return ((await pool.query(advance, parameters)).rowCount ?? 0) > 0;
  // the end, and what reports it (the dispatcher's `user.messages_erased` webhook event), commit
  // together, once: only the run whose token still holds the erasure ends it
  return withTransaction(pool, async (client) => {
    const { rows } = await client.query<JobRow>(`${advance} returning *`, parameters);
    if (!rows[0]) return false;
    await done(client, toJob(rows[0]));
    return true;
  });
}

/** Finished jobs are kept for `days` (their progress stays readable), then deleted. */
export async function pruneErasureJobs(pool: Pool, days: number): Promise<number> {
  const { rowCount } = await pool.query(`delete from erasure_jobs where status <> 'running' and finished_at < now() - make_interval(days => $1)`, [days]);
  return rowCount ?? 0;
}

/**
 * Running erasures without a live job get one, and those whose job graphile-worker gave up on
 * without the task ending them (its last attempt ended in a crash) become `failed`. Erasures
 * accepted by gateways of the release before jobs moved to the dispatcher have no job: this picks
 * them up. Returns how many of each.
 */
export async function reconcileErasureJobs(pool: Pool): Promise<{ given: number; failed: number }> {
  const failed = await pool.query(
    `with gave_up as (
       update erasure_jobs e set status = 'failed', finished_at = now(), updated_at = now(),
         last_error = coalesce(e.last_error, j.last_error, 'gave up')
       from graphile_worker.jobs j
       where j.key = 'erasure:' || e.id and e.status = 'running' and j.locked_at is null and j.attempts >= j.max_attempts
       returning e.id)
     select graphile_worker.remove_job('erasure:' || id) from gave_up`,
  );
  const given = await pool.query(
    `select ${eraseJobSql('e.id', 'e.kind')} from erasure_jobs e
     where e.status = 'running' and not exists (select 1 from graphile_worker.jobs j where j.key = 'erasure:' || e.id)`,
  );
  return { given: given.rowCount ?? 0, failed: failed.rowCount ?? 0 };
}
