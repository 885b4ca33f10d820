import { z } from 'zod';
import { capabilitiesProblem, CAPABILITY_OPS, MAX_CAPABILITY_BYTES, MAX_CAPABILITY_PATTERNS } from '@rtm/auth';
import { UserId, IsoTime, jsonSize } from './common.ts';

export const TTL_DEFAULT_SECONDS = 3600;

const TtlSeconds = z.number().int().min(60).max(86_400);

/** `{pattern: ops[]}`; checked as a whole so the reason names the pattern at fault. */
export const Capabilities = z
  .record(z.string(), z.array(z.enum(CAPABILITY_OPS)))
  .superRefine((value, ctx) => {
    const problem = capabilitiesProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({
    id: 'Capabilities',
    description:
      'What the token may do, by channel pattern: an exact channel id, a prefix ending in `*`, or `*` for every channel, ' +
      `to a non-empty list of ${CAPABILITY_OPS.map((op) => `\`${op}\``).join(', ')}. A channel gets the operations of every ` +
      `pattern it matches. At most ${MAX_CAPABILITY_PATTERNS} patterns and ${MAX_CAPABILITY_BYTES} bytes serialized. ` +
      'Omitted: every operation on every channel the user may otherwise use. Carried in the token as the `cap` claim ' +
      '(docs/permissions.md).',
  });

export const CreateTokenBody = z
  .object({
    userId: UserId,
    ttlSeconds: TtlSeconds.optional(),
    claims: z
      .record(z.string(), z.unknown())
      .refine((claims) => jsonSize(claims) <= 2048, 'must be at most 2 KiB serialized')
      .optional()
      .describe('Echoed to the user as the `ext` claim.'),
    capabilities: Capabilities.optional(),
  })
  .strict();

export const CreateAnonymousTokenBody = z.object({ ttlSeconds: TtlSeconds.optional(), capabilities: Capabilities.optional() }).strict();

export const TokenResponse = z
  .object({ token: z.string(), userId: z.string(), expiresAt: IsoTime })
  .meta({ id: 'UserToken' });
