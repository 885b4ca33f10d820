import { z } from 'zod';
import { IsoTime } from './common.ts';

export const ErasureJobParams = z
  .object({
    jobId: z
      .string()
      .regex(/^erj_[0-9a-hjkmnp-tv-z]{26}$/, 'must be an erasure job id (erj_…)')
      .describe('The job id from DELETE /v1/users/{userId}/messages, or from a DELETE /v1/channels/{channelId} answered 202.'),
  })
  .strict();

export const ErasureJob = z
  .object({
    id: z.string(),
    kind: z.enum(['user_messages', 'channel']).describe('`user_messages`: DELETE /v1/users/{userId}/messages. `channel`: DELETE /v1/channels/{channelId}.'),
    userId: z.string().nullable().describe('The user whose messages are retracted (`user_messages`); null for a channel deletion.'),
    channelId: z.string().nullable().describe("The channel deleted (`channel`); null for a user's erasure."),
    status: z
      .enum(['running', 'done', 'failed'])
      .describe(
        '`running` until every message is retracted (or the channel deleted); then `done`. `failed`: the job gave up after ten runs in a row ' +
          'without progress (`lastError` says why); the messages it had passed stay retracted (or deleted), erasing the user (deleting the ' +
          'channel) again does the rest.',
      ),
    retracted: z.number().int().describe('Messages retracted so far (0 for a channel deletion).'),
    deleted: z
      .object({ messages: z.number().int(), members: z.number().int(), bans: z.number().int() })
      .nullable()
      .describe(
        "A channel deletion's counts: messages deleted so far, members and bans once its last step ran. Null for a user's erasure, and for " +
          'a channel deletion that found nothing to delete (no messages, members or bans: the DELETE would have answered 404).',
      ),
    lastError: z.string().nullable().describe('Why the last batch stopped (a running job is retried: seconds later, then backing off), or null.'),
    createdAt: IsoTime,
    updatedAt: IsoTime,
    finishedAt: IsoTime.nullable(),
  })
  .meta({ id: 'ErasureJob' });

export const DeletedChannel = z
  .object({
    channelId: z.string(),
    deleted: z.object({ messages: z.number().int(), members: z.number().int(), bans: z.number().int() }),
  })
  .meta({ id: 'DeletedChannel' });
