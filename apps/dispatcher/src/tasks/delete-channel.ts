/**
 * `delete_channel` {erasureId}: runs one channel deletion (`DELETE /v1/channels/{channelId}`), in
 * the order of libs/db channel-deletion.ts: mark, close the sockets, messages in batches, the rest
 * in one transaction, close the sockets again; then tells every gateway that access in the
 * environment changed and logs `channel.deleted`, before the deletion is `done` (so the route,
 * which answers when it sees `done`, answers after both). The `channel.deleted` webhook event is
 * recorded in the transaction of step 4, the one that deletes the channel's last rows and makes
 * the counts final: it commits with the deletion, once. Each step that deletes messages cancels
 * their undelivered `message.published` deliveries and redacts every stored body of them in its
 * own transaction (libs/webhooks redaction.ts).
 *
 * - One runner at a time: the job key `erasure:<id>` keeps one job per deletion, and the job's run
 *   writes its token (`<job id>:<attempt>`) when it takes it; every step runs in a transaction that
 *   finds that token first, so a run that outlived its turn changes nothing.
 * - Resumable: a dispatcher that dies mid-deletion has its job unlocked by the others' recovery
 *   pass (worker-recovery.ts) and run again at once: the new run marks the channel again, closes
 *   its sockets and goes on with the batches; the counts are on the erasure row.
 * - A shutdown hands over to a fresh job under the same key at once, the mark left in place (its
 *   lease covers the hop); a run is otherwise not sliced: batches are plain deletes.
 * - A failed step lifts the mark (publishes go on meanwhile), records `lastError` and fails the
 *   run: graphile-worker runs it again after its backoff, and the run on the last of
 *   ERASE_MAX_ATTEMPTS gives up (the deletion becomes `failed`).
 */
import type { JobHelpers, Task } from 'graphile-worker';
import { encodeJson, publishLog, webhookPartitionOf, type NatsConnection, type Subjects } from '@rtm/bus';
import {
  DELETE_CHANNEL_TASK,
  deleteMessageBatch,
  endChannelDeletion,
  noteClosingError,
  handOverErasure,
  finishChannelRows,
  LOST,
  markChannel,
  releaseChannelDeletion,
  takeChannelDeletion,
  type ErasePayload,
  type ErasureJob,
  type MessagesDeleted,
  type Pool,
} from '@rtm/db';
import type { Logger } from '@rtm/ops';
import { pushNotices, recordEvent, redactMessageDeliveries, withdrawnEntries, type WithdrawnDelivery } from '@rtm/webhooks';

export { DELETE_CHANNEL_TASK };

export interface DeleteChannelDeps {
  pool: Pool;
  nc: NatsConnection;
  subjects: Subjects;
  log: Logger;
  /** Messages per batch (CHANNEL_DELETION_BATCH). */
  batch: number;
}

export const deleteChannel =
  (deps: DeleteChannelDeps): Task =>
  async (payload, helpers) => {
    const { erasureId } = payload as ErasePayload;
    const taken = await takeChannelDeletion(deps.pool, erasureId, `${helpers.job.id}:${helpers.job.attempts}`);
    // done, failed or pruned meanwhile: nothing left
    if (taken === 'gone') return;
    let job = taken;
    if (!job.channelClosing) {
      try {
        const rows = await deleteRows(deps, job, helpers);
        if (rows === 'nothing' || rows === 'handed over') return;
        job = rows;
      } catch (thrown) {
        // the newer run holds the channel's mark: nothing of ours to let go
        if (thrown instanceof TakenOver) throw thrown;
        const error = thrown instanceof Error ? thrown.message : String(thrown);
        const lastAttempt = helpers.job.attempts >= helpers.job.max_attempts;
        // Postgres away: this throws too; the mark then lapses by its lease
        await releaseChannelDeletion(deps.pool, job, error, lastAttempt ? 'failed' : undefined);
        if (lastAttempt) deps.log.warn({ erasureId, error }, 'channel deletion gave up');
        throw thrown;
      }
    }
    // 5. a socket opened meanwhile was admitted by the old members, bans or access
    try {
      await closeChannelSockets(deps, job);
      deps.nc.publish(deps.subjects.accessChanged, encodeJson({ environmentId: job.environmentId }));
      await deps.nc.flush();
    } catch (thrown) {
      // the rows are gone: a retry only closes and announces again; the last attempt ends the deletion
      const error = `the channel's rows are deleted; closing its sockets again failed: ${thrown instanceof Error ? thrown.message : String(thrown)}`;
      const lastAttempt = helpers.job.attempts >= helpers.job.max_attempts;
      if (!(await noteClosingError(deps.pool, job, error, lastAttempt))) lost(job);
      if (lastAttempt) {
        deps.log.warn({ erasureId, error }, 'channel deletion ended without its last socket close');
        return;
      }
      throw thrown;
    }
    publishLog(deps.nc, deps.subjects, job.environmentId, 'info', 'channel.deleted', { channelId: job.channelId, ...job.deleted });
    if (!(await endChannelDeletion(deps.pool, job))) lost(job);
  };

/**
 * Steps 1-4. `nothing`: the environment has no such channel (the deletion ended); `handed over`:
 * the dispatcher is shutting down and a fresh job goes on. Else the deletion with its final counts.
 */
async function deleteRows(deps: DeleteChannelDeps, job: ErasureJob, helpers: JobHelpers): Promise<ErasureJob | 'nothing' | 'handed over'> {
  const marked = await markChannel(deps.pool, job);
  if (marked === LOST) lost(job);
  if (marked === null) return 'nothing';
  // 2. no socket watches while the channel is taken apart
  await closeChannelSockets(deps, job);
  if (marked.pk !== null) {
    for (;;) {
      if (helpers.abortSignal.aborted) {
        await handOverErasure(helpers, DELETE_CHANNEL_TASK, job.id);
        return 'handed over';
      }
      const redaction = redactor(job);
      const deleted = await deleteMessageBatch(deps.pool, job, marked.pk, deps.batch, redaction.deleted);
      if (deleted === LOST) lost(job);
      withdraw(deps, redaction.withdrawn);
      if (deleted < deps.batch) break;
    }
  }
  const redaction = redactor(job);
  const finished = await finishChannelRows(
    deps.pool,
    job,
    marked.pk,
    (client, done) =>
      recordEvent(client, {
        environmentId: done.environmentId,
        type: 'channel.deleted',
        channelId: done.channelId,
        data: { channelId: done.channelId!, messages: done.deleted.messages },
      }),
    redaction.deleted,
  );
  if (finished === LOST) lost(job);
  withdraw(deps, redaction.withdrawn);
  return finished;
}

/**
 * What a step does with the messages it deletes, in its transaction: their webhook deliveries
 * cancelled and their bodies redacted (libs/webhooks redaction.ts); `withdrawn` collects those
 * that were leased, for the notice after commit.
 */
function redactor(job: ErasureJob): { deleted: MessagesDeleted; withdrawn: WithdrawnDelivery[] } {
  const withdrawn: WithdrawnDelivery[] = [];
  return {
    withdrawn,
    deleted: async (client, messageIds) => {
      withdrawn.push(...(await redactMessageDeliveries(client, job.environmentId, messageIds)));
    },
  };
}

/**
 * After a step's commit: the owner of each cancelled delivery that was leased lets go of the body
 * it holds (a pushed first attempt not yet sent), as after a retraction (push-notice.ts). A lost
 * notice loses nothing: the row is cancelled, and a claim never takes it.
 */
function withdraw(deps: DeleteChannelDeps, withdrawn: readonly WithdrawnDelivery[]): void {
  if (withdrawn.length === 0) return;
  for (const { partition, entries } of pushNotices(withdrawnEntries(withdrawn), webhookPartitionOf)) {
    deps.nc.publish(deps.subjects.webhookNotices(partition), encodeJson(entries));
  }
}

/** Every gateway closes its sockets on the channel (its KickListener handles `{op:'deleted'}`). */
async function closeChannelSockets(deps: DeleteChannelDeps, job: ErasureJob): Promise<void> {
  deps.nc.publish(deps.subjects.channelControl(job.environmentId, job.channelId!), encodeJson({ op: 'deleted' }));
  await deps.nc.flush();
}

/**
 * A run that finds its token replaced: a newer run of the job goes on. This run ends by failing,
 * not completing (completing would delete the job row the newer run is running), as in
 * erase-user-messages.ts.
 */
function lost(job: ErasureJob): never {
  throw new TakenOver(`channel deletion ${job.id} taken over by a newer run; this run (token ${job.leaseToken}) stops`);
}

class TakenOver extends Error {
  override name = 'TakenOver';
}
