import { SignJWT, decodeProtectedHeader } from 'jose';
import { JwtRefused, verifyHs256 } from './hs256.ts';
import { newId } from '@rtm/db';
import { decodeCapabilities, type CapabilityClaim } from '@rtm/rules';

/** The one algorithm user tokens are signed with; anything else is refused. */
export const USER_TOKEN_ALG = 'HS256';
export const USER_TOKEN_AUDIENCE = 'realtime';
export const LOGS_TOKEN_AUDIENCE = 'logs';
/** Signing key ids: a short prefix, `_`, 26 base32 characters (see newId). */
export const KEY_ID_PATTERN = /^[a-z]{1,8}_[0-9a-hjkmnp-tv-z]{26}$/;

export interface UserClaims {
  userId: string;
  environmentId: string;
  anon: boolean;
  ext?: Record<string, unknown>;
  /** The `cap` claim (docs/permissions.md); undefined: the token has every operation. */
  capabilities?: CapabilityClaim;
  expiresAt: Date;
  tokenId: string;
  /**
   * When the token was issued, in milliseconds: the `iat_ms` claim when the token carries one that
   * agrees with `iat`, else the start of the `iat` second. Revocations compare against it.
   */
  issuedAtMs: number;
  /** The `kid` the token was verified with, so retiring a key can close the sockets of its tokens. */
  keyId?: string;
}

/** The longest lifetime of a user token (minted or tenant-signed), in seconds. */
export const MAX_TOKEN_LIFETIME_SECONDS = 86_400;

/** The issue time of a verified payload in ms (see UserClaims.issuedAtMs). */
export function issuedAtMsOf(payload: { iat?: unknown; iat_ms?: unknown }): number {
  const iat = typeof payload.iat === 'number' ? payload.iat : 0;
  const ms = payload.iat_ms;
  if (typeof ms === 'number' && Number.isInteger(ms) && Math.floor(ms / 1000) === iat) return ms;
  return iat * 1000;
}

export interface SigningKey {
  id: string;
  environmentId: string;
  secret: Uint8Array;
}

export async function signToken(
  key: SigningKey,
  options: { issuer: string; audience: string; subject: string; ttlSeconds: number; anon?: boolean; ext?: unknown; cap?: CapabilityClaim },
): Promise<{ token: string; expiresAt: Date; tokenId: string }> {
  const nowMs = Date.now();
  const now = Math.floor(nowMs / 1000);
  const exp = now + options.ttlSeconds;
  // iat_ms: a revocation of all a user's tokens refuses those issued before it to the millisecond,
  // so a token minted in the same second after the revocation works
  const payload: Record<string, unknown> = { env: key.environmentId, anon: options.anon ?? false, iat_ms: nowMs };
  const tokenId = newId('jti');
  if (options.ext !== undefined) payload.ext = options.ext;
  if (options.cap !== undefined) payload.cap = options.cap;
  const token = await new SignJWT(payload)
    .setProtectedHeader({ alg: USER_TOKEN_ALG, kid: key.id, typ: 'JWT' })
    .setIssuer(options.issuer)
    .setAudience(options.audience)
    .setSubject(options.subject)
    .setIssuedAt(now)
    .setExpirationTime(exp)
    .setJti(tokenId)
    .sign(key.secret);
  return { token, expiresAt: new Date(exp * 1000), tokenId };
}

/**
 * The optional claims every user token may carry, minted or tenant-signed: `ext` (an object) and
 * `cap` (capabilities, docs/permissions.md). Anything else in them is ignored.
 */
export function withOptionalClaims(claims: UserClaims, payload: Record<string, unknown>): UserClaims {
  if (payload.ext && typeof payload.ext === 'object' && !Array.isArray(payload.ext)) claims.ext = payload.ext as Record<string, unknown>;
  const capabilities = decodeCapabilities(payload.cap);
  if (capabilities !== undefined) claims.capabilities = capabilities;
  return claims;
}

/** Why a token was refused; never shown in detail beyond the reason text. */
export class TokenError extends Error {
  override name = 'TokenError';
}

/**
 * Verifies a token: header `kid` picks the key (looked up by `findKey`), the algorithm is pinned,
 * audience and issuer must match, and the `env` claim must name the key's own environment, so a
 * token signed with environment A's key can never act in B.
 */
export async function verifyToken(
  token: string,
  findKey: (kid: string) => Promise<SigningKey | null>,
  options: { issuer: string; audience: string },
): Promise<UserClaims> {
  let kid: string | undefined;
  try {
    const header = decodeProtectedHeader(token);
    if (header.alg !== USER_TOKEN_ALG) throw new TokenError('unsupported token algorithm');
    kid = header.kid;
  } catch (error) {
    if (error instanceof TokenError) throw error;
    throw new TokenError('malformed token');
  }
  if (!kid) throw new TokenError('token has no key id');
  // checked before any lookup: a key id is ours (`sgk_…`-like) or the token is not
  if (!KEY_ID_PATTERN.test(kid)) throw new TokenError('malformed token key id');
  const key = await findKey(kid);
  if (!key) throw new TokenError('unknown signing key');
  try {
    // jose's checks, synchronously (hs256.ts): WebCrypto's HMAC is a thread-pool job per token
    const payload = verifyHs256(token, key.secret, {
      audience: options.audience,
      issuer: options.issuer,
      requiredClaims: ['sub', 'exp', 'iat', 'jti'],
    });
    if (payload.env !== key.environmentId) throw new TokenError('token environment does not match its key');
    if (typeof payload.sub !== 'string' || payload.sub.length === 0) throw new TokenError('token has no subject');
    const claims: UserClaims = {
      userId: payload.sub,
      environmentId: key.environmentId,
      anon: payload.anon === true,
      expiresAt: new Date((payload.exp as number) * 1000),
      tokenId: String(payload.jti),
      issuedAtMs: issuedAtMsOf(payload),
      keyId: key.id,
    };
    return withOptionalClaims(claims, payload);
  } catch (error) {
    if (error instanceof TokenError) throw error;
    if (error instanceof JwtRefused) throw new TokenError(error.code === 'ERR_JWT_EXPIRED' ? 'token expired' : `token refused: ${error.code}`);
    throw error;
  }
}
