/**
 * HS256 JWT verification, synchronous, for the user tokens signed with an environment's signing
 * secret (user-token.ts): the same checks, in the same order and with the same error codes, as
 * jose's `jwtVerify` with `algorithms: ['HS256']`, `issuer`, `audience` and `requiredClaims`, and
 * no clock tolerance. Why not jose itself: jose verifies through WebCrypto, where an HMAC is an
 * asynchronous job on the thread pool, ~11-33 µs of CPU per token against ~3 µs for `createHmac`,
 * and a socket storm checks one token per socket. `test/unit/auth.hs256.test.ts` holds it to jose's
 * answers, token by token.
 */
import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

/** A refusal, with jose's error code (`ERR_JWT_EXPIRED` for an expired token). */
export class JwtRefused extends Error {
  override name = 'JwtRefused';
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** One KeyObject per secret: held while the secret is (the credential cache's entry). */
const keys = new WeakMap<Uint8Array, KeyObject>();
function keyOf(secret: Uint8Array): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    key = createSecretKey(secret);
    keys.set(secret, key);
  }
  return key;
}

/** The characters jose's base64url decoding takes (it maps `-_` to `+/` first, then `atob`). */
const SEGMENT = /^[A-Za-z0-9_\-+/]*={0,2}$/;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** What `atob` takes after jose's mapping: the alphabet, and no length of 4n + 1 without padding. */
function isBase64url(segment: string): boolean {
  return SEGMENT.test(segment) && segment.replace(/=+$/, '').length % 4 !== 1;
}

function decodeObject(segment: string, code: string, what: string): Record<string, unknown> {
  if (!isBase64url(segment)) throw new JwtRefused(code, `${what} is not base64url`);
  let value: unknown;
  try {
    value = JSON.parse(strictUtf8.decode(Buffer.from(segment.replace(/-/g, '+').replace(/_/g, '/'), 'base64')));
  } catch {
    throw new JwtRefused(code, `${what} is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new JwtRefused(code, `${what} must be a JSON object`);
  return value as Record<string, unknown>;
}

/**
 * The `crit` header as jose's verification judges it: an array of non-empty strings naming extensions
 * it knows, of which it knows `b64` alone; `b64: true` changes nothing, an unencoded payload
 * (`b64: false`) is not taken here (a user token never has one).
 */
function checkCrit(header: Record<string, unknown>): void {
  const crit = header.crit;
  if (crit === undefined) return;
  if (!Array.isArray(crit) || crit.length === 0 || crit.some((name) => typeof name !== 'string' || name.length === 0)) {
    throw new JwtRefused('ERR_JWS_INVALID', '"crit" (Critical) Header Parameter MUST be an array of non-empty strings when present');
  }
  for (const name of crit as string[]) {
    if (name !== 'b64') throw new JwtRefused('ERR_JOSE_NOT_SUPPORTED', `Extension Header Parameter "${name}" is not recognized`);
    if (typeof header.b64 !== 'boolean') throw new JwtRefused('ERR_JWS_INVALID', 'The "b64" (base64url-encode payload) Header Parameter must be a boolean');
    if (!header.b64) throw new JwtRefused('ERR_JOSE_NOT_SUPPORTED', 'an unencoded payload is not supported');
  }
}

const claimFailed = (message: string) => new JwtRefused('ERR_JWT_CLAIM_VALIDATION_FAILED', message);

/**
 * The verified claims of an HS256 compact JWT signed with `secret`, or a JwtRefused. `nowSeconds`
 * is the time the claims are judged at (default: now).
 */
export function verifyHs256(
  token: string,
  secret: Uint8Array,
  options: { issuer: string; audience: string; requiredClaims: readonly string[]; nowSeconds?: number },
): Record<string, unknown> {
  const parts = token.split('.');
  if (parts.length !== 3) throw new JwtRefused('ERR_JWS_INVALID', 'Invalid Compact JWS');
  const [protectedHeader, payload, signature] = parts as [string, string, string];
  const header = decodeObject(protectedHeader, 'ERR_JWS_INVALID', 'the protected header');
  checkCrit(header);
  if (header.alg !== 'HS256') throw new JwtRefused('ERR_JOSE_ALG_NOT_ALLOWED', '"alg" (Algorithm) Header Parameter value not allowed');
  if (!isBase64url(signature)) throw new JwtRefused('ERR_JWS_INVALID', 'the signature is not base64url');
  const expected = Buffer.from(createHmac('sha256', keyOf(secret)).update(`${protectedHeader}.${payload}`).digest('base64url'));
  const given = Buffer.from(signature.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_'));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new JwtRefused('ERR_JWS_SIGNATURE_VERIFICATION_FAILED', 'signature verification failed');
  }
  const claims = decodeObject(payload, 'ERR_JWT_INVALID', 'the JWT Claims Set');
  for (const claim of ['iss', 'aud', ...[...options.requiredClaims].reverse()]) {
    if (!Object.hasOwn(claims, claim)) throw claimFailed(`missing required "${claim}" claim`);
  }
  if (claims.iss !== options.issuer) throw claimFailed('unexpected "iss" claim value');
  const aud = claims.aud;
  if (!(aud === options.audience || (Array.isArray(aud) && aud.includes(options.audience)))) throw claimFailed('unexpected "aud" claim value');
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (claims.iat !== undefined && typeof claims.iat !== 'number') throw claimFailed('"iat" claim must be a number');
  if (claims.nbf !== undefined) {
    if (typeof claims.nbf !== 'number') throw claimFailed('"nbf" claim must be a number');
    if (claims.nbf > now) throw claimFailed('"nbf" claim timestamp check failed');
  }
  if (claims.exp !== undefined) {
    if (typeof claims.exp !== 'number') throw claimFailed('"exp" claim must be a number');
    if (claims.exp <= now) throw new JwtRefused('ERR_JWT_EXPIRED', '"exp" claim timestamp check failed');
  }
  return claims;
}
