import { z } from 'zod';
import { IsoTime } from './common.ts';

export const ErasureJobParams = z
  .object({ jobId: z.string().regex(/^erj_[0-9a-hjkmnp-tv-z]{26}$/, 'must be an erasure job id (erj_…)').describe('The job id from DELETE /v1/users/{userId}/messages.') })
  .strict();

export const ErasureJob = z
  .object({
    id: z.string(),
    kind: z.literal('user_messages'),
    userId: z.string(),
    status: z
      .enum(['running', 'done', 'failed'])
      .describe(
        '`running` until every message is retracted; then `done`. `failed`: the job gave up after ten runs in a row without progress ' +
          '(`lastError` says why); the messages it had passed stay retracted, erasing the user again retracts the rest.',
      ),
    retracted: z.number().int().describe('Messages retracted so far.'),
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
