import { z } from 'zod';
import { IsoTime } from './common.ts';

export const LOGS_TOKEN_TTL_DEFAULT_SECONDS = 600;

export const EnvironmentParams = z.object({ envId: z.string().min(1).max(64) }).strict();

export const LogsTokenBody = z
  .object({
    ttlSeconds: z.number().int().min(60).max(3600).optional().describe('60-3600, default 600.'),
  })
  .strict();

export const LogsTokenResponse = z.object({ token: z.string(), expiresAt: IsoTime }).meta({ id: 'LogsToken' });

export const LogsSocketQuery = z.object({ token: z.string().optional() }).strict();
