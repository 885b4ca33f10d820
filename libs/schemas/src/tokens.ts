import { z } from 'zod';
import { UserId, IsoTime, jsonSize } from './common.ts';

export const TTL_DEFAULT_SECONDS = 3600;

const TtlSeconds = z.number().int().min(60).max(86_400);

export const CreateTokenBody = z
  .object({
    userId: UserId,
    ttlSeconds: TtlSeconds.optional(),
    claims: z
      .record(z.string(), z.unknown())
      .refine((claims) => jsonSize(claims) <= 2048, 'must be at most 2 KiB serialized')
      .optional()
      .describe('Echoed to the user as the `ext` claim.'),
  })
  .strict();

export const CreateAnonymousTokenBody = z.object({ ttlSeconds: TtlSeconds.optional() }).strict();

export const TokenResponse = z
  .object({ token: z.string(), userId: z.string(), expiresAt: IsoTime })
  .meta({ id: 'UserToken' });
