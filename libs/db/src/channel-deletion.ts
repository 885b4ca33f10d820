/**
 * Deleting a channel (`DELETE /v1/channels/{channelId}`): an erasure of kind `channel`, run by the
 * dispatcher's `delete_channel` task (apps/dispatcher/src/tasks/delete-channel.ts), which also
 * closes the sockets. Its messages (with their idempotency keys), members and bans go, its access
 * override is reset, and its open sockets on every gateway close with 4403 `channel deleted`.
 *
 * The order, so that nothing of the old channel outlives the deletion:
 * 1. mark the channel row (`deleting_until`, a lease renewed with every batch). From this commit
 *    on, the channel's owner cannot advance the channel (its seq fence refuses a marked row), so no
 *    message commits until the end: a publish that committed before the mark is deleted below; one
 *    that arrives meanwhile is refused with 503 `unavailable` (retry);
 * 2. close the channel's sockets on every gateway (the task), while its members, bans and access
 *    are still the old ones: nobody is let in, or kept in, by rules that are about to go;
 * 3. delete the messages in batches (no long lock on a big channel), each batch's webhook
 *    deliveries redacted in its transaction (`MessagesDeleted`: the dispatcher's);
 * 4. in one transaction: the last messages, the idempotency keys, members and bans, the access
 *    override, the mark lifted and the erasure's step `closing`: a publish after this commit starts
 *    the channel anew;
 * 5. close the sockets again (the task; one opened meanwhile was let in by the old rules), then the
 *    erasure is `done`.
 *
 * Resumable and fenced like a user's erasure (erasure-jobs.ts): each run of the job writes its
 * token (`<job id>:<attempt>`) when it takes the erasure, and every step above runs in a
 * transaction that first locks the erasure row and finds that token on it. A run that outlived
 * its turn (its dispatcher was taken for dead and the job ran again elsewhere) therefore changes
 * nothing: not the mark, not a batch, not the counts, which are added in the transaction that
 * deletes what they count (each message counted once, by the run that deleted it). A run resumed
 * after a crash marks the channel again (a mark whose runner died lapses within its lease) and
 * goes on; one whose last transaction had committed only closes the sockets and ends.
 *
 * The channel's row and its `last_seq` stay: the channel's owner keeps its sequence fence, and a
 * channel re-created by a later publish continues after the last seq it ever had, so a client
 * resuming with `since` never sees a seq reused for a different message.
 */
import type { Pool, PoolClient } from 'pg';
import { newId } from './ids.ts';
import { withTransaction } from './transaction.ts';
import { eraseJobSql, toJob, type ErasureJob, type JobRow } from './erasure-jobs.ts';

/** The mark's lease: renewed with every batch; lapses by itself if the deleting dispatcher dies. */
export const DELETING_LEASE_SECONDS = 60;

/**
 * `locked_until` of a running channel deletion. Gateways of the release before erasures ran in
 * dispatchers claimed any running erasure whose `locked_until` had passed and ran it as a user's
 * erasure; a lock that never passes keeps them off a deletion they would take for one of no user.
 */
const NEVER = 'infinity';

/**
 * The deletion and its job, in one statement (one transaction): neither exists without the other.
 * A deletion of the channel already running is answered instead (one per channel: migration
 * 000011), so two requests wait on one job.
 */
export async function createChannelDeletion(db: Pool | PoolClient, environmentId: string, channelId: string): Promise<ErasureJob> {
  for (let tries = 0; ; tries++) {
    const { rows } = await db.query<JobRow>(
      `with created as (
         insert into erasure_jobs (id, environment_id, kind, channel_id, locked_until) values ($1, $2, 'channel', $3, '${NEVER}')
         on conflict (environment_id, channel_id) where kind = 'channel' and status = 'running' do nothing
         returning *
       )
       select created.*, ${eraseJobSql('created.id', 'created.kind')} as job from created`,
      [newId('erj'), environmentId, channelId],
    );
    if (rows[0]) return toJob(rows[0]);
    const running = await db.query<JobRow>(
      `select * from erasure_jobs where environment_id = $1 and channel_id = $2 and kind = 'channel' and status = 'running'`,
      [environmentId, channelId],
    );
    if (running.rows[0]) return toJob(running.rows[0]);
    // the running one ended between the two statements: start anew
    if (tries >= 2) throw new Error(`channel deletion of ${channelId}: no running deletion to join and none created`);
  }
}

/**
 * A run takes the deletion: writes its token (from then on, the runs before it change nothing).
 * `gone` when it is no longer running (done, failed, or pruned).
 */
export async function takeChannelDeletion(pool: Pool, id: string, token: string): Promise<ErasureJob | 'gone'> {
  const { rows } = await pool.query<JobRow>(
    `update erasure_jobs set lease_token = $2, updated_at = now() where id = $1 and status = 'running' and kind = 'channel' returning *`,
    [id, token],
  );
  return rows[0] ? toJob(rows[0]) : 'gone';
}

/** What a fenced step returns when the erasure is no longer this run's: it changed nothing. */
export const LOST = 'lost';

/** Rolls a fenced step's transaction back when the erasure is no longer the run's. */
class Lost extends Error {}

/**
 * Runs `step` in a transaction that first locks the erasure row carrying this run's token: a
 * newer run's take waits for the step to commit, and a step of a run that lost the erasure does
 * nothing at all.
 */
async function fenced<T>(pool: Pool, job: ErasureJob, step: (client: PoolClient) => Promise<T>): Promise<T | typeof LOST> {
  try {
    return await withTransaction(pool, async (client) => {
      const held = await client.query(`select 1 from erasure_jobs where id = $1 and status = 'running' and lease_token = $2 for update`, [
        job.id,
        job.leaseToken,
      ]);
      if (held.rowCount === 0) throw new Lost();
      return step(client);
    });
  } catch (error) {
    if (error instanceof Lost) return LOST;
    throw error;
  }
}

/**
 * Step 1, the mark: waits for a commit of the owner in flight on the channel's row, then stops the
 * next ones. Null when the environment has no such channel (no row, no member, no ban): the
 * deletion is then `done` with nothing found. Else the channel row's pk (null: members or bans
 * without a row).
 */
export async function markChannel(pool: Pool, job: ErasureJob): Promise<{ pk: number | null } | null | typeof LOST> {
  return fenced(pool, job, async (client) => {
    const marked = await client.query<{ pk: number }>(
      `update channels set deleting_until = now() + make_interval(secs => $3) where environment_id = $1 and id = $2 returning pk`,
      [job.environmentId, job.channelId, DELETING_LEASE_SECONDS],
    );
    const pk = marked.rows[0]?.pk ?? null;
    if (pk === null && !(await hasMembersOrBans(client, job.environmentId, job.channelId!))) {
      await client.query(
        `update erasure_jobs set status = 'done', channel_found = false, finished_at = now(), locked_until = null, last_error = null, updated_at = now()
         where id = $1`,
        [job.id],
      );
      return null;
    }
    await client.query(`update erasure_jobs set channel_found = true, updated_at = now() where id = $1`, [job.id]);
    return { pk };
  });
}

/**
 * Whether the environment has anything of the channel to delete (its row, a member or a ban): a
 * request for one it does not have is answered 404 at once, with no erasure and no job (the job
 * still finds nothing when the channel goes in between).
 */
export async function channelExists(db: Pool | PoolClient, environmentId: string, channelId: string): Promise<boolean> {
  const { rows } = await db.query(`select exists (select 1 from channels where environment_id = $1 and id = $2) as found`, [environmentId, channelId]);
  return rows[0].found === true || (await hasMembersOrBans(db, environmentId, channelId));
}

async function hasMembersOrBans(client: Pool | PoolClient, environmentId: string, channelId: string): Promise<boolean> {
  const { rows } = await client.query(
    `select exists (select 1 from memberships where environment_id = $1 and channel_id = $2)
         or exists (select 1 from bans where environment_id = $1 and channel_id = $2) as found`,
    [environmentId, channelId],
  );
  return rows[0].found === true;
}

/**
 * What the caller does on a step's transaction with the ids of the messages it deleted (the
 * dispatcher redacts their webhook deliveries: this library does not know webhooks), so it
 * commits with the deletion, under the same fence.
 */
/** `messageIds`: each deleted message's webhook event ids (messageEventIds: its publish's and its edits'). */
export type MessagesDeleted = (client: PoolClient, messageIds: string[]) => Promise<unknown>;

/**
 * The webhook event ids that carry a message's content: its `message.published` event's (the
 * message id) and each edit's `message.updated` (`<id>_v<version>`, versions 2 to `version`).
 * A retraction or a deletion redacts their deliveries (libs/webhooks redaction.ts).
 */
export function messageEventIds(id: string, version: number): string[] {
  const ids = [id];
  for (let v = 2; v <= version; v++) ids.push(`${id}_v${v}`);
  return ids;
}

/**
 * Step 3, one batch of messages (the oldest `limit`), counted on the erasure and the mark's lease
 * renewed in the same transaction. Returns how many it deleted: fewer than `limit` means the batches
 * are over.
 */
export async function deleteMessageBatch(pool: Pool, job: ErasureJob, pk: number, limit: number, deleted?: MessagesDeleted): Promise<number | typeof LOST> {
  return fenced(pool, job, async (client) => {
    const { rows } = await client.query<{ id: string; version: number }>(
      `delete from messages where channel_pk = $1 and seq in (select seq from messages where channel_pk = $1 order by seq limit $2) returning id, version`,
      [pk, limit],
    );
    const count = rows.length;
    if (deleted)
      await deleted(
        client,
        rows.flatMap((row) => messageEventIds(row.id, row.version)),
      );
    await client.query(`update erasure_jobs set deleted_messages = deleted_messages + $2, last_error = null, updated_at = now() where id = $1`, [
      job.id,
      count,
    ]);
    await client.query(`update channels set deleting_until = now() + make_interval(secs => $2) where pk = $1`, [pk, DELETING_LEASE_SECONDS]);
    return count;
  });
}

/**
 * Step 4, the rest at once: the last messages, idempotency keys, members, bans, the access
 * override and the mark, the channel row last (a publish waiting on it then starts the channel
 * anew); the erasure's counts are complete and its step is `closing`. `finished` runs last in
 * that transaction with the erasure as it now stands (the dispatcher records the
 * `channel.deleted` webhook event there: this library does not know webhooks), so what it writes
 * commits with the deletion, exactly once: a run that resumes after this commit skips this step.
 */
export async function finishChannelRows(
  pool: Pool,
  job: ErasureJob,
  pk: number | null,
  finished?: (client: PoolClient, job: ErasureJob) => Promise<unknown>,
  deleted?: MessagesDeleted,
): Promise<ErasureJob | typeof LOST> {
  return fenced(pool, job, async (client) => {
    let messages = 0;
    if (pk !== null) {
      const { rows } = await client.query<{ id: string; version: number }>('delete from messages where channel_pk = $1 returning id, version', [pk]);
      messages = rows.length;
      if (deleted)
        await deleted(
          client,
          rows.flatMap((row) => messageEventIds(row.id, row.version)),
        );
      await client.query('delete from idempotency_keys where channel_pk = $1', [pk]);
    }
    const members = await client.query('delete from memberships where environment_id = $1 and channel_id = $2', [job.environmentId, job.channelId]);
    const bans = await client.query('delete from bans where environment_id = $1 and channel_id = $2', [job.environmentId, job.channelId]);
    if (pk !== null) await client.query('update channels set access = null, deleting_until = null where pk = $1', [pk]);
    const { rows } = await client.query<JobRow>(
      `update erasure_jobs set deleted_messages = deleted_messages + $2, deleted_members = $3, deleted_bans = $4, channel_step = 'closing',
         last_error = null, updated_at = now()
       where id = $1 returning *`,
      [job.id, messages, members.rowCount ?? 0, bans.rowCount ?? 0],
    );
    const done = toJob(rows[0]!);
    if (finished) await finished(client, done);
    return done;
  });
}

/** Step 5 done: the deletion ends. False when another run holds it (that run ends it). */
export async function endChannelDeletion(pool: Pool, job: ErasureJob): Promise<boolean> {
  const { rowCount } = await pool.query(
    `update erasure_jobs set status = 'done', finished_at = now(), locked_until = null, updated_at = now()
     where id = $1 and status = 'running' and lease_token = $2`,
    [job.id, job.leaseToken],
  );
  return (rowCount ?? 0) > 0;
}

/**
 * A run that failed part-way lets the channel go (publishes may go on until the job runs again,
 * which marks it anew) and records why; `end: 'failed'` when the job gives up. Nothing is written
 * if another run holds the deletion: lifting its mark would let a publish in mid-deletion.
 */
export async function releaseChannelDeletion(pool: Pool, job: ErasureJob, error: string, end?: 'failed'): Promise<boolean> {
  const released = await fenced(pool, job, async (client) => {
    await client.query('update channels set deleting_until = null where environment_id = $1 and id = $2', [job.environmentId, job.channelId]);
    await client.query(
      `update erasure_jobs set last_error = $2, status = coalesce($3, status),
         finished_at = case when $3::text is not null then now() else finished_at end,
         locked_until = case when $3::text is not null then null else locked_until end, updated_at = now()
       where id = $1`,
      [job.id, error, end ?? null],
    );
    return true;
  });
  return released !== LOST;
}

/**
 * Step 5 (closing the sockets again, announcing the access change) failed, the rows being gone:
 * records why; with `end`, the last attempt, the deletion ends `done` (its counts stand) rather
 * than staying `running` until the recovery pass fails it.
 */
export async function noteClosingError(pool: Pool, job: ErasureJob, error: string, end: boolean): Promise<boolean> {
  const noted = await fenced(pool, job, async (client) => {
    await client.query(
      `update erasure_jobs set last_error = $2, status = case when $3 then 'done' else status end,
         finished_at = case when $3 then now() else finished_at end,
         locked_until = case when $3 then null else locked_until end, updated_at = now()
       where id = $1`,
      [job.id, error, end],
    );
    return true;
  });
  return noted !== LOST;
}

/** Where a channel deletion stands, as `DELETE /v1/channels/{channelId}` answers it. */
export type ChannelDeletionOutcome =
  | { state: 'running' }
  | { state: 'deleted'; deleted: ErasureJob['deleted'] }
  | { state: 'not_found' }
  | { state: 'failed'; error: string };

export function channelDeletionOutcome(job: Pick<ErasureJob, 'status' | 'channelFound' | 'deleted' | 'lastError'>): ChannelDeletionOutcome {
  if (job.status === 'running') return { state: 'running' };
  if (job.status === 'failed') return { state: 'failed', error: job.lastError ?? 'gave up' };
  return job.channelFound === false ? { state: 'not_found' } : { state: 'deleted', deleted: { ...job.deleted } };
}

/**
 * The pauses between reads of a deletion's row while a request waits for it: short at first (a
 * small channel is deleted in tens of milliseconds), growing to `maxMs`, and never past `budgetMs`
 * in total.
 */
export function pollDelays(budgetMs: number, firstMs = 25, maxMs = 500): number[] {
  const delays: number[] = [];
  let total = 0;
  for (let next = firstMs; total < budgetMs; next = Math.min(maxMs, next * 2)) {
    const delay = Math.min(next, budgetMs - total);
    delays.push(delay);
    total += delay;
  }
  return delays;
}
