import { publishLog } from '@rtm/bus';
import { ServiceError } from '@rtm/errors';
import { ChannelParams, DeletedChannel, ErasureJob, ErasureJobParams, ErrorBody, UserParams } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey } from '../auth/authenticate.ts';
import { channelDeletionOutcome, createChannelDeletion, createErasureJob, getErasureJob, pollDelays, type ErasureJob as Job } from '@rtm/db';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };
const security = [{ secretKey: [] }];

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
  app.delete(
    '/v1/users/:userId/messages',
    {
      onRequest: requireSecretKey(deps),
      schema: {
        operationId: 'eraseUserMessages',
        summary: "Retract every message of a user",
        description:
          'Secret key. Starts a job that retracts every message the user published in the environment (every channel), in ' +
          'batches, as `DELETE /v1/channels/{channelId}/messages/{messageId}` would: sockets get `retract` frames (reason ' +
          '`erased`) and each message gets a `message.retracted` webhook. Answers 202 with the job at once; follow it with ' +
          '`GET /v1/erasures/{jobId}` (also in `Location`). The job runs on a dispatcher and survives its crash: another ' +
          'dispatcher resumes it where it stopped. Messages the user publishes after the job has passed their channel are not retracted: revoke ' +
          'the user\'s tokens first (`DELETE /v1/users/{userId}/tokens`).',
        tags: ['erasure'],
        security,
        params: UserParams,
        response: { 202: ErasureJob, ...errors },
      },
    },
    async (request, reply) => {
      const { environmentId } = keyAuth(request);
      // the erasure and the dispatcher's job that runs it, in one statement
      const job = await createErasureJob(deps.pool, environmentId, request.params.userId);
      publishLog(deps.nc, deps.subjects, environmentId, 'info', 'erasure.started', { jobId: job.id, userId: job.userId });
      return reply.code(202).header('location', `/v1/erasures/${job.id}`).send(jobJson(job));
    },
  );

  app.get(
    '/v1/erasures/:jobId',
    {
      onRequest: requireSecretKey(deps),
      schema: {
        operationId: 'getErasureJob',
        summary: 'An erasure job\'s progress',
        description: 'Secret key. A job of another environment, or an unknown one: 404. A finished job stays readable for 30 days.',
        tags: ['erasure'],
        security,
        params: ErasureJobParams,
        response: { 200: ErasureJob, ...errors },
      },
    },
    async (request) => {
      const job = await getErasureJob(deps.pool, keyAuth(request).environmentId, request.params.jobId);
      if (!job) throw new ServiceError('not_found', 'no such erasure job');
      return jobJson(job);
    },
  );

  app.delete(
    '/v1/channels/:channelId',
    {
      onRequest: requireSecretKey(deps),
      schema: {
        operationId: 'deleteChannel',
        summary: 'Delete a channel',
        description:
          'Secret key. Deletes the channel\'s messages, members and bans and resets its access to the environment\'s default; ' +
          'its open sockets close with 4403 `channel deleted` on every gateway (a `/v1/connect` subscription ends with ' +
          '`unsubscribed {code:"forbidden"}`). No webhook is sent for the deleted messages. A later publish re-creates the ' +
          'channel and its seq continues after the last seq it had (seqs are never reused, so a client resuming with `since` ' +
          'gets only new messages). While the deletion runs, a publish to the channel is refused with 503 `unavailable` ' +
          '(retry: after the deletion it starts the channel anew), so no message published during it survives it; its ' +
          'sockets close before its members, bans and access change. A channel with no messages, members or bans: 404. ' +
          'The deletion runs as a job on a dispatcher and survives its crash (another dispatcher resumes it); this request ' +
          'waits for it, up to 30 seconds. A deletion still running then is answered 202 with its job (also in `Location`): ' +
          'follow it with `GET /v1/erasures/{jobId}`, whose `deleted` holds the counts once `status` is `done`.',
        tags: ['erasure'],
        security,
        params: ChannelParams,
        response: { 200: DeletedChannel, 202: ErasureJob, ...errors },
      },
    },
    async (request, reply) => {
      const { environmentId } = keyAuth(request);
      const { channelId } = request.params;
      // the deletion and the dispatcher's job that runs it, in one statement (libs/db channel-deletion.ts)
      let job = await createChannelDeletion(deps.pool, environmentId, channelId);
      // Polling the row by its key: a few cheap reads for a rare call, where LISTEN would hold a
      // connection of the pool per waiting request (or need a listener of its own in every gateway).
      for (const delay of pollDelays(CHANNEL_DELETION_WAIT_MS)) {
        await new Promise((resolve) => setTimeout(resolve, delay));
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
  );
}
