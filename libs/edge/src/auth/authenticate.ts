/**
 * Credential rules, in one place, the same on both hosts:
 * - control plane: `Authorization: Bearer sk_…`; a request that also carries `Origin` is refused
 *   (403 origin_forbidden): secret keys are server-only.
 * - `POST /v1/tokens/anonymous` (on both hosts) also takes a publishable key, as Bearer or
 *   `x-service-key`, checked against the environment's allowed origins when any are set (403
 *   origin_not_allowed).
 * - realtime edge: a user JWT (`Authorization: Bearer` or, for sockets, `?token=`).
 * - a missing, malformed, unknown, revoked or expired credential: 401 unauthorized; a valid
 *   credential of a kind the route does not take: 403 forbidden, one wording per kind and route
 *   (`wrongCredential`), whichever host it came to.
 * The environment always comes from the credential, never from the URL.
 */
import type { FastifyRequest } from 'fastify';
import { ServiceError } from '@rtm/errors';
import { keyKindOf, verifyToken, verifyTenantToken, isTenantAlg, TokenError, USER_TOKEN_AUDIENCE, MAX_TOKEN_BYTES, type UserClaims } from '@rtm/auth';
import { normaliseOrigin } from '@rtm/accounts';
import { decodeProtectedHeader } from 'jose';
import type { EdgeDeps } from '../edge-deps.ts';

/** What checking a credential reads: API keys, signing and tenant keys, revocations, the issuer. */
export type AuthDeps = Pick<EdgeDeps, 'config' | 'credentials' | 'revocations' | 'tenantKeys'>;

export type KeyAuth = { kind: 'secret' | 'publishable'; environmentId: string; keyId: string };
export type UserAuth = { kind: 'user'; environmentId: string; userId: string; anon: boolean; claims: UserClaims };
export type Auth = KeyAuth | UserAuth;

function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new ServiceError('unauthorized', 'Authorization must be "Bearer <credential>"');
  return match[1];
}

async function apiKey(deps: AuthDeps, credential: string): Promise<KeyAuth> {
  const record = await deps.credentials.apiKey(credential);
  if (!record) throw new ServiceError('unauthorized', 'unknown or revoked key');
  return { kind: record.kind, environmentId: record.environmentId, keyId: record.keyId };
}

/** A credential checked for what it is: an API key or a user token (401 when it is neither valid). */
async function anyCredential(deps: AuthDeps, credential: string): Promise<Auth> {
  return keyKindOf(credential) === null ? verifyUserToken(deps, credential) : apiKey(deps, credential);
}

/** What each kind of route takes, as its refusals name it. */
const TAKES = {
  secretKey: 'a secret key (Authorization: Bearer sk_…)',
  minter: 'a secret key, or a publishable key as Authorization: Bearer pk_… or x-service-key',
  user: 'a user token (Authorization: Bearer <JWT>, or ?token= on sockets)',
} as const;
const KIND = { secret: 'a secret key', publishable: 'a publishable key', user: 'a user token' } as const;

/** A valid credential this route does not take: 403, the same words on either host. */
function wrongCredential(kind: Auth['kind'], takes: keyof typeof TAKES): ServiceError {
  const where = kind === 'publishable' ? ' (publishable keys are for POST /v1/tokens/anonymous only)' : '';
  return new ServiceError('forbidden', `${KIND[kind]} is not accepted here${where}: this route takes ${TAKES[takes]}`);
}

/**
 * No credential where the route looks for one: 401, unless a valid key sits in `x-service-key`
 * (where only the anonymous mint reads it), a known credential in the wrong place: 403.
 */
async function missingCredential(deps: AuthDeps, request: FastifyRequest, takes: 'secretKey' | 'user'): Promise<never> {
  const serviceKey = request.headers['x-service-key'];
  const key = typeof serviceKey === 'string' && keyKindOf(serviceKey.trim()) !== null ? await deps.credentials.apiKey(serviceKey.trim()) : null;
  if (key) throw new ServiceError('forbidden', `x-service-key is read only by POST /v1/tokens/anonymous: this route takes ${TAKES[takes]}`);
  throw new ServiceError('unauthorized', `a credential is required: this route takes ${TAKES[takes]}`);
}

/** Control-plane routes: a secret key, never from a browser. */
export async function authenticateSecretKey(deps: AuthDeps, request: FastifyRequest): Promise<KeyAuth> {
  const credential = bearer(request);
  if (!credential) return missingCredential(deps, request, 'secretKey');
  const auth = await anyCredential(deps, credential);
  if (auth.kind !== 'secret') throw wrongCredential(auth.kind, 'secretKey');
  if (request.headers.origin !== undefined) throw new ServiceError('origin_forbidden');
  return auth;
}

/** `POST /v1/tokens/anonymous`: a secret key, or a publishable key from an allowed origin. */
export async function authenticateAnonymousMinter(deps: AuthDeps, request: FastifyRequest): Promise<KeyAuth> {
  const serviceKey = request.headers['x-service-key'];
  const credential = bearer(request) ?? (typeof serviceKey === 'string' ? serviceKey.trim() : undefined);
  if (!credential) throw new ServiceError('unauthorized', `a credential is required: this route takes ${TAKES.minter}`);
  const auth = await anyCredential(deps, credential);
  if (auth.kind === 'user') throw wrongCredential(auth.kind, 'minter');
  const origin = request.headers.origin;
  if (auth.kind === 'secret') {
    if (origin !== undefined) throw new ServiceError('origin_forbidden');
    return auth;
  }
  if (origin !== undefined) {
    const allowed = await deps.credentials.allowedOrigins(auth.environmentId);
    if (allowed.size > 0 && !allowed.has(normaliseOrigin(origin))) throw new ServiceError('origin_not_allowed');
  }
  return auth;
}

/** Realtime edge: a user JWT from the header or, for sockets, `?token=`. */
export async function authenticateUser(deps: AuthDeps, request: FastifyRequest): Promise<UserAuth> {
  const query = request.query as Record<string, unknown> | undefined;
  const credential = bearer(request) ?? (typeof query?.token === 'string' ? query.token : undefined);
  if (!credential) return missingCredential(deps, request, 'user');
  const auth = await anyCredential(deps, credential);
  if (auth.kind !== 'user') throw wrongCredential(auth.kind, 'user');
  return auth;
}

/**
 * A user token: minted here (HS256, our signing keys) or signed by the environment's own backend
 * (RS256/ES256/EdDSA with a key it registered; see verifyTenantToken). The header's `alg` picks
 * the verifier; either way a revoked token is refused.
 */
export async function verifyUserToken(deps: AuthDeps, token: string): Promise<UserAuth> {
  try {
    if (token.length > MAX_TOKEN_BYTES) throw new TokenError(`token over ${MAX_TOKEN_BYTES} bytes`);
    const claims = isTenantAlg(headerAlg(token))
      ? await verifyTenantToken(token, (environmentId, kid) => deps.tenantKeys.find(environmentId, kid), { audience: USER_TOKEN_AUDIENCE })
      : await verifyToken(token, (kid) => deps.credentials.signingKey(kid), {
          issuer: deps.config.TOKEN_ISSUER,
          audience: USER_TOKEN_AUDIENCE,
        });
    if (await deps.revocations.isRevoked(claims)) throw new TokenError('token revoked');
    return { kind: 'user', environmentId: claims.environmentId, userId: claims.userId, anon: claims.anon, claims };
  } catch (error) {
    if (error instanceof TokenError) throw new ServiceError('unauthorized', error.message);
    throw error;
  }
}

function headerAlg(token: string): unknown {
  try {
    return decodeProtectedHeader(token).alg;
  } catch {
    return undefined;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: Auth | null;
  }
}

/** `onRequest` hooks, so a missing credential is answered before the body is even read. */
export const requireSecretKey = (deps: AuthDeps) => async (request: FastifyRequest) => {
  request.auth = await authenticateSecretKey(deps, request);
};
export const requireAnonymousMinter = (deps: AuthDeps) => async (request: FastifyRequest) => {
  request.auth = await authenticateAnonymousMinter(deps, request);
};
export const requireUser = (deps: AuthDeps) => async (request: FastifyRequest) => {
  request.auth = await authenticateUser(deps, request);
};

/** The authenticated key of a route behind requireSecretKey or requireAnonymousMinter. */
export function keyAuth(request: FastifyRequest): KeyAuth {
  const auth = request.auth;
  if (!auth || auth.kind === 'user') throw new Error('route is not behind a key hook');
  return auth;
}

/** The authenticated user of a route behind requireUser. */
export function userAuth(request: FastifyRequest): UserAuth {
  const auth = request.auth;
  if (auth?.kind !== 'user') throw new Error('route is not behind requireUser');
  return auth;
}
