import { z } from 'zod';
import { IsoTime } from './common.ts';

const QuotaState = (unit: string) =>
  z.object({
    limit: z.number().int().nullable().describe(`The monthly limit in ${unit}; null: unlimited.`),
    used: z.number().int().describe(`Used this month, in ${unit}.`),
    remaining: z.number().int().nullable().describe('limit − used, never below 0; null when unlimited.'),
  });

/** GET /v1/quota: the environment's monthly quotas, this month (docs/quotas.md). */
export const QuotaResponse = z
  .object({
    period: z.object({
      start: IsoTime.describe('The first instant of this calendar month (UTC).'),
      resetsAt: IsoTime.describe('The first instant of the next month: every count starts again from 0.'),
    }),
    quotas: z.object({
      messages: QuotaState('messages').describe('`limits.monthlyMessages`: messages stored (publishes on every route and edits).'),
      connectionMinutes: QuotaState('whole minutes').describe(
        '`limits.monthlyConnectionMinutes`: minutes of realtime connections, summed over every socket (flushed by each gateway every QUOTA_FLUSH_MS).',
      ),
    }),
  })
  .meta({ id: 'Quota', description: 'The monthly quotas of the environment and what it used of them this month.' });
