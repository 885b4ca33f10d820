import { signToken, USER_TOKEN_AUDIENCE, type SigningKey } from '@rtm/auth';
import type { Pool } from 'pg';

/**
 * Signs user tokens with an environment's own key, as the gateway would, but with any lifetime
 * (the control plane's minimum is 60 s): for tests of expiry and renewal that must not wait a minute.
 */
export async function tokenSigner(pool: Pool, environmentId: string): Promise<(userId: string, ttlSeconds: number) => Promise<string>> {
  const { rows } = await pool.query<{ id: string; secret: Buffer }>('select id, secret from signing_keys where environment_id = $1', [environmentId]);
  const key: SigningKey = { id: rows[0]!.id, environmentId, secret: rows[0]!.secret };
  return async (userId, ttlSeconds) => (await signToken(key, { issuer: 'rtm', audience: USER_TOKEN_AUDIENCE, subject: userId, ttlSeconds })).token;
}
