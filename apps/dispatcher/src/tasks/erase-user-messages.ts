/**
 * `erase_user_messages` {erasureId}: runs one erasure (`DELETE /v1/users/{userId}/messages`,
 * libs/db erasure-jobs.ts). Each message of the user is retracted through its channel's owner
 * (libs/owner-client), exactly as a retraction by API, so sockets get the `retract` frame and the
 * channel node enqueues the `message.retracted` webhook in the same transaction.
 *
 * - One runner at a time: the job key `erasure:<id>` keeps one job per erasure, and the job's
 *   run writes its token (`<job id>:<attempt>`) when it takes the erasure; every retraction and
 *   every cursor write carries it, so a run that outlived its turn (its dispatcher was thought
 *   dead and the job ran again elsewhere) changes nothing and counts nothing.
 * - Resumable: the cursor is written after each batch of 100; a dispatcher that dies mid-run has
 *   its job unlocked by the others' recovery pass (worker-recovery.ts) and run again at once, from
 *   the cursor.
 * - A run works for at most SLICE_MS (or until its dispatcher shuts down), then hands over to a
 *   fresh job under the same key, to run at once: a worker slot is not held for hours, erasures
 *   take turns, and a shutdown is not held up.
 * - A failed batch (an owner `unavailable`, Postgres away) records `lastError`. After progress in
 *   this run, a fresh job goes on RETRY_PAUSE_MS later; a run that made none fails, and
 *   graphile-worker runs it again after its backoff (e^attempt seconds). The run on the last of
 *   ERASE_MAX_ATTEMPTS gives up: the erasure becomes `failed`.
 * - The user's reactions go too, once their messages are retracted and before the erasure is
 *   `done`: each is taken back through its channel's owner (removeReactions), so the message's
 *   summary is made again without the user and subscribers and webhooks get the new one.
 * - The run that ends the erasure `done` records the `user.messages_erased` webhook event in that
 *   same transaction (with the erasure's final `retracted`); a failed erasure reports none.
 */
import type { JobHelpers, Task } from 'graphile-worker';
import { isServiceError } from '@rtm/errors';
import {
  advanceErasureJob,
  ERASE_TASK,
  ERASURE_LEASE_SECONDS,
  handOverErasure,
  nextErasureBatch,
  takeErasureJob,
  type ErasePayload,
  type ErasureJob,
  type ErasureTarget,
  type Pool,
  type PoolClient,
} from '@rtm/db';
import type { OwnerClient } from '@rtm/owner-client';
import type { Logger } from '@rtm/ops';
import { recordEvent } from '@rtm/webhooks';

export { ERASE_TASK };
const BATCH = 100;
const PARALLEL = 8;
/** How long one run works before it hands over to a fresh job. */
const SLICE_MS = 15_000;
/** After a failed batch that followed progress, the fresh job waits this long. */
const RETRY_PAUSE_MS = 2_000;
export const ERASURE_REASON = 'erased';

export interface EraseDeps {
  pool: Pool;
  owners: OwnerClient;
  log: Logger;
}

export const eraseUserMessages =
  (deps: EraseDeps): Task =>
  async (payload, helpers) => {
    const { erasureId } = payload as ErasePayload;
    const job = await takeErasureJob(deps.pool, erasureId, `${helpers.job.id}:${helpers.job.attempts}`);
    // done, failed or pruned meanwhile: nothing left
    if (job === 'gone') return;
    // a gateway of the previous release runs it (rolling upgrade): look again when its lease may have lapsed
    if (job === 'busy') return handOverErasure(helpers, ERASE_TASK, erasureId, ERASURE_LEASE_SECONDS * 1_000);
    await run(deps, job, helpers);
  };

async function run(deps: EraseDeps, job: ErasureJob, helpers: JobHelpers): Promise<void> {
  const until = Date.now() + SLICE_MS;
  let cursor = job.cursor;
  let progressed = false;
  for (;;) {
    if (helpers.abortSignal.aborted || Date.now() > until) return handOverErasure(helpers, ERASE_TASK, job.id);
    let batch: ErasureTarget[] = [];
    let error: string | undefined;
    try {
      batch = await nextErasureBatch(deps.pool, { ...job, cursor }, BATCH);
      const outcome = await retractAll(deps.owners, job, batch);
      error = outcome.error;
      // the cursor moves past the handled prefix only: a failed message is tried again
      const last = outcome.handled.at(-1);
      if (last) {
        cursor = { channelPk: last.channelPk, seq: last.seq };
        progressed = true;
      }
    } catch (thrown) {
      error = thrown instanceof Error ? thrown.message : String(thrown);
    }
    if (error === undefined) {
      const done = batch.length < BATCH;
      if (done) error = await removeReactions(deps, job).catch((thrown: unknown) => (thrown instanceof Error ? thrown.message : String(thrown)));
    }
    if (error === undefined) {
      const done = batch.length < BATCH;
      // false: another run holds the erasure now (its retractions refused ours); it goes on from there
      const held = await advanceErasureJob(deps.pool, job, cursor, done ? { end: 'done' } : {}, reportErased);
      if (!held) lost(job);
      if (done) return;
      continue;
    }
    const lastAttempt = helpers.job.attempts >= helpers.job.max_attempts;
    const end = !progressed && lastAttempt ? 'failed' : undefined;
    // Postgres away: this throws, and graphile-worker runs the job again after its backoff
    const held = await advanceErasureJob(deps.pool, job, cursor, { error, end });
    if (!held) lost(job);
    if (progressed) return handOverErasure(helpers, ERASE_TASK, job.id, RETRY_PAUSE_MS);
    if (end) {
      deps.log.warn({ erasureId: job.id, error }, 'erasure gave up');
      return;
    }
    // graphile-worker runs this job again after its backoff
    throw new Error(`erasure ${job.id}: ${error}`);
  }
}

/** The erasure's end, reported in the transaction that ends it. */
function reportErased(client: PoolClient, erasure: ErasureJob): Promise<string[]> {
  return recordEvent(client, {
    environmentId: erasure.environmentId,
    type: 'user.messages_erased',
    channelId: null,
    data: { userId: erasure.userId!, erasureId: erasure.id, retracted: erasure.retracted },
  });
}

/**
 * A run that finds its token replaced: a newer run of the job (its dispatcher was taken for dead)
 * goes on. This run ends by failing, not completing: completing would delete the job row the newer
 * run is running, while graphile-worker records a failure only for a row still locked by this
 * run's worker pool.
 */
function lost(job: ErasureJob): never {
  throw new Error(`erasure ${job.id} taken over by a newer run; this run (token ${job.leaseToken}) stops`);
}

/**
 * Retracts a batch, PARALLEL at a time; stops at the first failure (a retraction refused because
 * another run took the erasure over is one). The channel owner counts what it retracts.
 */
async function retractAll(owners: OwnerClient, job: ErasureJob, batch: ErasureTarget[]): Promise<{ handled: ErasureTarget[]; error?: string }> {
  const handled: ErasureTarget[] = [];
  for (let i = 0; i < batch.length; i += PARALLEL) {
    const slice = batch.slice(i, i + PARALLEL);
    const results = await Promise.allSettled(
      slice.map((target) =>
        owners.send({
          op: 'retract',
          environmentId: job.environmentId,
          channelId: target.channelId,
          messageId: target.messageId,
          reason: ERASURE_REASON,
          erasure: { jobId: job.id, leaseToken: job.leaseToken ?? '' },
        }),
      ),
    );
    for (let j = 0; j < slice.length; j++) {
      const result = results[j]!;
      // gone meanwhile (its channel was deleted): nothing left to retract
      if (result.status === 'fulfilled' || (isServiceError(result.reason) && result.reason.code === 'not_found')) {
        handled.push(slice[j]!);
        continue;
      }
      const reason = isServiceError(result.reason) ? `${result.reason.code}: ${result.reason.reason ?? ''}` : String(result.reason);
      return { handled, error: reason };
    }
  }
  return { handled };
}

/** A user's reactions, a batch at a time: environment, channel, message, type. */
const USER_REACTIONS_SQL = `select c.id as channel_id, m.id as message_id, r.type
       from message_reactions r
       join messages m on m.channel_pk = r.channel_pk and m.seq = r.seq
       join channels c on c.pk = r.channel_pk
       where r.user_id = $2 and c.environment_id = $1
       order by r.channel_pk, r.seq, r.type
       limit $3`;

/**
 * Takes back every reaction of the erased user through the channels' owners (idempotent: a
 * reaction already gone answers `reacted: false`); the first failure is the erasure's error and
 * the next run starts again. Undefined when none is left.
 */
async function removeReactions(deps: EraseDeps, job: ErasureJob): Promise<string | undefined> {
  for (;;) {
    const { rows } = await deps.pool.query<{ channel_id: string; message_id: string; type: string }>(USER_REACTIONS_SQL, [
      job.environmentId,
      job.userId,
      BATCH,
    ]);
    for (let i = 0; i < rows.length; i += PARALLEL) {
      const results = await Promise.allSettled(
        rows.slice(i, i + PARALLEL).map((row) =>
          deps.owners.send({
            op: 'react',
            environmentId: job.environmentId,
            channelId: row.channel_id,
            messageId: row.message_id,
            type: row.type,
            userId: job.userId!,
            remove: true,
          }),
        ),
      );
      const failed = results.find((r) => r.status === 'rejected' && !(isServiceError(r.reason) && r.reason.code === 'not_found'));
      if (failed?.status === 'rejected') {
        return isServiceError(failed.reason) ? `${failed.reason.code}: ${failed.reason.reason ?? ''}` : String(failed.reason);
      }
    }
    if (rows.length < BATCH) return undefined;
  }
}
