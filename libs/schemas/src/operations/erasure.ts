import { ChannelParams, UserParams } from '../members.ts';
import { DeletedChannel, ErasureJob, ErasureJobParams } from '../erasure.ts';
import { ErrorBody } from '../common.ts';
import type { Operations } from './operation.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };
const security = [{ secretKey: [] }];

/** Control plane: erasing a user's messages (a job) and deleting a channel (a job the request waits for). */
export const erasureOperations = {
  eraseUserMessages: {
    method: 'DELETE',
    url: '/v1/users/:userId/messages',
    schema: {
      operationId: 'eraseUserMessages',
      summary: 'Retract every message of a user',
      description:
        'Secret key. Starts a job that retracts every message the user published in the environment (every channel), in ' +
        'batches, as `DELETE /v1/channels/{channelId}/messages/{messageId}` would: sockets get `retract` frames (reason ' +
        '`erased`) and each message gets a `message.retracted` webhook. Answers 202 with the job at once; follow it with ' +
        '`GET /v1/erasures/{jobId}` (also in `Location`). The job runs on a dispatcher and survives its crash: another ' +
        'dispatcher resumes it where it stopped. Messages the user publishes after the job has passed their channel are not retracted: revoke ' +
        "the user's tokens first (`DELETE /v1/users/{userId}/tokens`).",
      tags: ['erasure'],
      security,
      params: UserParams,
      response: { 202: ErasureJob, ...errors },
    },
  },
  getErasureJob: {
    method: 'GET',
    url: '/v1/erasures/:jobId',
    schema: {
      operationId: 'getErasureJob',
      summary: "An erasure job's progress",
      description: 'Secret key. A job of another environment, or an unknown one: 404. A finished job stays readable for 30 days.',
      tags: ['erasure'],
      security,
      params: ErasureJobParams,
      response: { 200: ErasureJob, ...errors },
    },
  },
  deleteChannel: {
    method: 'DELETE',
    url: '/v1/channels/:channelId',
    schema: {
      operationId: 'deleteChannel',
      summary: 'Delete a channel',
      description:
        "Secret key. Deletes the channel's messages, members and bans and resets its access to the environment's default; " +
        'its open sockets close with 4403 `channel deleted` on every gateway (a `/v1/connect` subscription ends with ' +
        '`unsubscribed {code:"forbidden"}`). No webhook is sent for the deleted messages. A later publish re-creates the ' +
        'channel and its seq continues after the last seq it had (seqs are never reused, so a client resuming with `since` ' +
        'gets only new messages). While the deletion runs, a publish to the channel is refused with 503 `unavailable` ' +
        '(retry: after the deletion it starts the channel anew), so no message published during it survives it; its ' +
        'sockets close before its members, bans and access change. A channel with no messages, members or bans: 404. ' +
        'The deletion runs as a job on a dispatcher and survives its crash (another dispatcher resumes it); this request ' +
        'waits for it, up to 30 seconds. A deletion still running then is answered 202 with its job (also in `Location`): ' +
        'follow it with `GET /v1/erasures/{jobId}`, whose `deleted` holds the counts once `status` is `done`. ' +
        'A second request for the channel while its deletion runs waits on that same deletion.',
      tags: ['erasure'],
      security,
      params: ChannelParams,
      response: { 200: DeletedChannel, 202: ErasureJob, ...errors },
    },
  },
} as const satisfies Operations;
