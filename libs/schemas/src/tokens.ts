import { z } from 'zod';
import { capabilitiesProblem, CAPABILITY_OPS, MAX_CAPABILITY_BYTES, MAX_CAPABILITY_PATTERNS } from '@rtm/rules';
import { UserId, IsoTime, jsonSize, storableText } from './common.ts';

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

export const TokenResponse = z.object({ token: z.string(), userId: z.string(), expiresAt: IsoTime }).meta({ id: 'UserToken' });

export const RevokeTokenBody = z
  .object({
    jti: storableText(256).describe("The token's `jti` claim."),
  })
  .strict();

export const RevokedToken = z
  .object({
    jti: z.string(),
    revoked: z.literal(true),
    rememberedUntil: IsoTime.describe('When the revocation is forgotten: no token it refuses can be unexpired by then.'),
  })
  .meta({ id: 'RevokedToken' });

export const RevokedUserTokens = z
  .object({
    userId: z.string(),
    validAfter: IsoTime.describe('Tokens of the user issued before this moment (to the millisecond) are refused.'),
    rememberedUntil: IsoTime,
  })
  .meta({ id: 'RevokedUserTokens' });

export const SigningKeyInfo = z
  .object({
    id: z.string().describe('The `kid` of the tokens it signs.'),
    createdAt: IsoTime,
    retiresAt: IsoTime.nullable().describe('null: not retired. In the future: in its grace period (verifies, no longer signs). Past: its tokens are refused.'),
    state: z.enum(['active', 'grace', 'retired']),
  })
  .meta({ id: 'SigningKey' });

export const SigningKeyList = z.object({ keys: z.array(SigningKeyInfo) }).meta({ id: 'SigningKeyList' });

export const RotateSigningKeyBody = z
  .object({
    graceSeconds: z
      .number()
      .int()
      .min(0)
      .max(7 * 86_400)
      .optional()
      .describe('How long tokens signed by the keys rotated out still verify (default 86400: 24 h; 0: refused at once).'),
  })
  .strict();

export const RotatedSigningKey = z
  .object({ id: z.string(), retired: z.array(z.object({ id: z.string(), retiresAt: IsoTime })) })
  .meta({ id: 'RotatedSigningKey' });

export const TokenKeyParams = z
  .object({
    kid: z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,128}$/, 'must be 1-128 of [A-Za-z0-9._-]')
      .describe('The `kid` tokens signed with this key carry.'),
  })
  .strict();

export const PutTokenKeyBody = z
  .object({
    alg: z.enum(['RS256', 'ES256', 'EdDSA']),
    jwk: z
      .record(z.string(), z.unknown())
      .refine((jwk) => jsonSize(jwk) <= 4096, 'must be at most 4 KiB serialized')
      .describe('The public key as a JWK (RSA ≥ 2048 bits for RS256, EC P-256 for ES256, OKP Ed25519 for EdDSA). A private key is refused.'),
  })
  .strict();

export const TokenKey = z
  .object({ kid: z.string(), alg: z.enum(['RS256', 'ES256', 'EdDSA']), jwk: z.record(z.string(), z.unknown()), createdAt: IsoTime })
  .meta({ id: 'TokenKey' });

export const TokenKeyList = z.object({ keys: z.array(TokenKey), jwksUrl: z.string().nullable() }).meta({ id: 'TokenKeyList' });

export const PutJwksBody = z.object({ url: z.string().min(1).max(2048) }).strict();
export const JwksSetting = z.object({ url: z.string() }).meta({ id: 'TokenJwks' });
