import { z } from 'zod';
import { IsoTime } from './common.ts';

export const LOGS_TOKEN_TTL_DEFAULT_SECONDS = 600;

export const EnvironmentParams = z
  .object({
    envId: z
      .string()
      .regex(/^[A-Za-z0-9_]{1,64}$/, 'must be an environment id (env_…)')
      .describe('The environment id (`env_…`) of the secret key.'),
  })
  .strict();

export const LogsTokenBody = z
  .object({
    ttlSeconds: z.number().int().min(60).max(3600).optional().describe('60-3600, default 600.'),
  })
  .strict();

export const LogsTokenResponse = z
  .object({
    token: z.string(),
    expiresAt: IsoTime,
    socketUrl: z
      .string()
      .nullable()
      .describe(
        'The logs socket of this environment on the realtime edge (`ws://` or `wss://`, without the token): open ' +
          '`socketUrl + "?token=" + token`. From REALTIME_PUBLIC_URL when the gateway has it, else the host name of ' +
          "this request with the realtime port; null when the request's Host header is unusable.",
      ),
  })
  .meta({ id: 'LogsToken' });

export const LogsSocketQuery = z.object({ token: z.string().optional() }).strict();
