import { publishLog } from '@rtm/bus';
import { ServiceError } from '@rtm/errors';
import { erasureOperations } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey } from '@rtm/edge';
import { channelDeletionOutcome, channelExists, createChannelDeletion, createErasureJob, getErasureJob, pollDelays, type ErasureJob as Job } from '@rtm/db';

/**
 * How long `DELETE /v1/channels/{channelId}` waits for its deletion (run by a dispatcher) before
 * answering 202 with the erasure instead.
 */
const CHANNEL_DELETION_WAIT_MS = 30_000;

const jobJson = (job: Job) => ({
  id: job.id,
  kind: job.kind,
  userId: job.userId,
  channelId: job.channelId,
  status: job.status,
  retracted: job.retracted,
  deleted: job.kind === 'channel' && job.channelFound !== false ? job.deleted : null,
  lastError: job.lastError,
  createdAt: job.createdAt.toISOString(),
  updatedAt: job.updatedAt.toISOString(),
  finishedAt: job.finishedAt?.toISOString() ?? null,
});

/** Control plane: erasing a user's messages (a job) and deleting a channel. */
export async function erasureRoutes(app: ZodApp, deps: GatewayDeps) {
  app.route({
    ...erasureOperations.eraseUserMessages,
    onRequest: requireSecretKey(deps),
    handler: async (request, reply) => {
      const { environmentId } = keyAuth(request);
      // the erasure and the dispatcher's job that runs it, in one statement
      const job = await createErasureJob(deps.pool, environmentId, request.params.userId);
      publishLog(deps.nc, deps.subjects, environmentId, 'info', 'erasure.started', { jobId: job.id, userId: job.userId });
      return reply.code(202).header('location', `/v1/erasures/${job.id}`).send(jobJson(job));
    },
  });

  app.route({
    ...erasureOperations.getErasureJob,
    onRequest: requireSecretKey(deps),
    handler: async (request) => {
      const job = await getErasureJob(deps.pool, keyAuth(request).environmentId, request.params.jobId);
      if (!job) throw new ServiceError('not_found', 'no such erasure job');
      return jobJson(job);
    },
  });

  app.route({
    ...erasureOperations.deleteChannel,
    onRequest: requireSecretKey(deps),
    handler: async (request, reply) => {
      const { environmentId } = keyAuth(request);
      const { channelId } = request.params;
      // nothing to delete: no erasure and no job (a flood of unknown ids costs one read each)
      if (!(await channelExists(deps.pool, environmentId, channelId))) throw new ServiceError('not_found', 'no such channel');
      // the deletion and the dispatcher's job that runs it, in one statement (libs/db channel-deletion.ts)
      let job = await createChannelDeletion(deps.pool, environmentId, channelId);
      // Polling the row by its key: a few cheap reads for a rare call, where LISTEN would hold a
      // connection of the pool per waiting request (or need a listener of its own in every gateway).
      for (const delay of pollDelays(CHANNEL_DELETION_WAIT_MS)) {
        await new Promise((resolve) => setTimeout(resolve, delay));
        // the client is gone (or this gateway closed its connection): the job goes on without it
        if (request.raw.socket?.destroyed) break;
        job = (await getErasureJob(deps.pool, environmentId, job.id)) ?? job;
        const outcome = channelDeletionOutcome(job);
        if (outcome.state === 'running') continue;
        // the job has closed the sockets, announced the access change and logged `channel.deleted` (delete-channel.ts)
        if (outcome.state === 'deleted') return reply.code(200).send({ channelId, deleted: outcome.deleted });
        if (outcome.state === 'not_found') throw new ServiceError('not_found', 'no such channel');
        throw new ServiceError('unavailable', `the channel deletion failed (${outcome.error}); delete it again`);
      }
      return reply.code(202).header('location', `/v1/erasures/${job.id}`).send(jobJson(job));
    },
  });
}
