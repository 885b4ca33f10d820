/**
 * Tenant-signed user tokens: an environment's own backend signs them with a private key whose
 * public half the environment registered (a JWK, or a JWKS URL). Rules:
 * - header: `alg` RS256, ES256 or EdDSA (anything else, `none` and every HS* included, is not a
 *   tenant token); `kid` names the key;
 * - claims: `iss` is the environment id (it names the environment, so the key is looked up among
 *   that environment's keys only), `aud` "realtime", `sub`, `iat`, `exp`, `jti`; `env`, when
 *   present, must equal `iss`; `anon` and `ext` mean what they mean in minted tokens;
 * - a lifetime (`exp` − `iat`) over MAX_TOKEN_LIFETIME_SECONDS, an `iat` more than
 *   MAX_IAT_AHEAD_SECONDS ahead of the gateway's clock or a token over MAX_TOKEN_BYTES is refused.
 *   A user-wide revocation refuses the tokens issued (by `iat`) before it, so an `iat` far ahead
 *   would let a token signed before the revocation outlive it; the bound keeps that to seconds.
 */
import { compactVerify, decodeJwt, decodeProtectedHeader, errors as joseErrors, importJWK, jwtVerify, type JWK } from 'jose';
import { MAX_TOKEN_LIFETIME_SECONDS, TokenError, issuedAtMsOf, withOptionalClaims, type UserClaims } from './user-token.ts';

export const TENANT_TOKEN_ALGS = ['RS256', 'ES256', 'EdDSA'] as const;
export type TenantTokenAlg = (typeof TENANT_TOKEN_ALGS)[number];
/** The longest token the edge reads (minted ones are far shorter). */
export const MAX_TOKEN_BYTES = 8192;
const ENVIRONMENT_ID = /^env_[0-9a-hjkmnp-tv-z]{26}$/;
/** How far ahead of the gateway's clock a tenant-signed token's `iat` may be (clock skew). */
export const MAX_IAT_AHEAD_SECONDS = 5;
/** The user ids the control plane accepts (`UserId`), so a tenant token names a user the API can. */
const USER_ID = /^[A-Za-z0-9_.:@-]{1,128}$/;

export const isTenantAlg = (alg: unknown): alg is TenantTokenAlg => (TENANT_TOKEN_ALGS as readonly unknown[]).includes(alg);

/** A registered or fetched public key as the verifier needs it. */
export interface TenantKey {
  kid: string;
  environmentId: string;
  alg: TenantTokenAlg;
  jwk: JWK;
}

/** Finds the public key `kid` of an environment, or null (unknown, or another environment's). */
export type FindTenantKey = (environmentId: string, kid: string) => Promise<TenantKey | null>;

const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'k', 'oth'];

/**
 * Why a JWK cannot be registered (or used from a JWKS) for `alg`, or null when it can: it must be
 * a public key of the algorithm's type (RSA ≥ 2048 bits, EC P-256, OKP Ed25519) with no private part.
 */
export async function jwkRefusal(jwk: Record<string, unknown>, alg: string): Promise<string | null> {
  if (!isTenantAlg(alg)) return 'alg must be RS256, ES256 or EdDSA';
  if (PRIVATE_MEMBERS.some((member) => member in jwk)) return 'the JWK holds a private key: register the public key only';
  if (jwk.alg !== undefined && jwk.alg !== alg) return `the JWK's alg (${String(jwk.alg)}) is not ${alg}`;
  if (jwk.use !== undefined && jwk.use !== 'sig') return 'the JWK must be for signatures (use "sig")';
  const expected = { RS256: 'RSA', ES256: 'EC', EdDSA: 'OKP' }[alg];
  if (jwk.kty !== expected) return `${alg} needs a JWK of kty ${expected}`;
  if (alg === 'ES256' && jwk.crv !== 'P-256') return 'ES256 needs crv P-256';
  if (alg === 'EdDSA' && jwk.crv !== 'Ed25519') return 'EdDSA needs crv Ed25519';
  if (alg === 'RS256' && (typeof jwk.n !== 'string' || Buffer.from(jwk.n, 'base64url').length * 8 < 2048)) {
    return 'RS256 needs a modulus of at least 2048 bits';
  }
  try {
    await importJWK({ ...(jwk as JWK), alg }, alg);
  } catch {
    return 'the JWK is not a valid public key';
  }
  return null;
}

export async function verifyTenantToken(token: string, findKey: FindTenantKey, options: { audience: string }): Promise<UserClaims> {
  if (token.length > MAX_TOKEN_BYTES) throw new TokenError(`token over ${MAX_TOKEN_BYTES} bytes`);
  let alg: TenantTokenAlg;
  let kid: string;
  let environmentId: string;
  try {
    const header = decodeProtectedHeader(token);
    if (!isTenantAlg(header.alg)) throw new TokenError('unsupported token algorithm');
    if (typeof header.kid !== 'string' || header.kid.length === 0 || header.kid.length > 128) throw new TokenError('token has no key id');
    alg = header.alg;
    kid = header.kid;
    const unverified = decodeJwt(token);
    if (typeof unverified.iss !== 'string' || !ENVIRONMENT_ID.test(unverified.iss)) {
      throw new TokenError('a tenant-signed token needs iss: the environment id');
    }
    environmentId = unverified.iss;
  } catch (error) {
    if (error instanceof TokenError) throw error;
    throw new TokenError('malformed token');
  }
  const key = await findKey(environmentId, kid);
  if (!key || key.environmentId !== environmentId) throw new TokenError('unknown signing key');
  if (key.alg !== alg) throw new TokenError('token algorithm does not match its key');
  try {
    const publicKey = await importJWK({ ...key.jwk, alg }, alg);
    // the signature first (compactVerify), so no claim of a forged token is ever judged
    await compactVerify(token, publicKey, { algorithms: [alg] });
    const { payload } = await jwtVerify(token, publicKey, {
      algorithms: [alg],
      audience: options.audience,
      issuer: environmentId,
      requiredClaims: ['sub', 'exp', 'iat', 'jti'],
      clockTolerance: 0,
    });
    const iat = payload.iat as number;
    const exp = payload.exp as number;
    if (iat > Date.now() / 1000 + MAX_IAT_AHEAD_SECONDS) throw new TokenError(`token issued in the future (iat more than ${MAX_IAT_AHEAD_SECONDS} s ahead)`);
    if (exp - iat > MAX_TOKEN_LIFETIME_SECONDS) throw new TokenError(`token lifetime over ${MAX_TOKEN_LIFETIME_SECONDS} s`);
    if (payload.env !== undefined && payload.env !== environmentId) throw new TokenError('token environment does not match its issuer');
    if (typeof payload.sub !== 'string' || !USER_ID.test(payload.sub)) throw new TokenError('sub must be 1-128 of [A-Za-z0-9_.:@-]');
    if (typeof payload.jti !== 'string' || payload.jti.length === 0 || payload.jti.length > 256) throw new TokenError('token has no valid jti');
    const claims: UserClaims = {
      userId: payload.sub,
      environmentId,
      anon: payload.anon === true,
      expiresAt: new Date(exp * 1000),
      tokenId: payload.jti,
      issuedAtMs: issuedAtMsOf(payload),
      keyId: kid,
    };
    // the same optional claims as minted tokens, capabilities included
    return withOptionalClaims(claims, payload);
  } catch (error) {
    if (error instanceof TokenError) throw error;
    if (error instanceof joseErrors.JWTExpired) throw new TokenError('token expired');
    if (error instanceof joseErrors.JOSEError) throw new TokenError(`token refused: ${error.code}`);
    throw new TokenError('token refused');
  }
}
