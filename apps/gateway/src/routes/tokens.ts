import { newId } from '@rtm/db';
import { signToken, USER_TOKEN_AUDIENCE } from '@rtm/auth';
import { encodeCapabilities } from '@rtm/rules';
import { ServiceError } from '@rtm/errors';
import { TTL_DEFAULT_SECONDS, tokenOperations } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { environmentBan, keyAuth, requireAnonymousMinter, requireSecretKey } from '@rtm/edge';
import { publishRevocation } from '../auth/revoke.ts';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Control plane: user tokens, minted (`POST /v1/tokens`) and revoked (one by its `jti`, or every
 * token of a user issued before now).
 */
export async function tokenRoutes(app: ZodApp, deps: GatewayDeps) {
  app.route({
    ...tokenOperations.mintToken,
    onRequest: requireSecretKey(deps),
    handler: async (request, reply) => {
      const { environmentId } = keyAuth(request);
      const { userId, ttlSeconds, claims, capabilities } = request.body;
      const ban = await environmentBan(deps.pool, environmentId, userId);
      if (ban) throw new ServiceError('banned', ban.reason ?? 'the user is banned from this environment');
      const key = await deps.credentials.activeSigningKey(environmentId);
      const { token, expiresAt } = await signToken(key, {
        issuer: deps.config.TOKEN_ISSUER,
        audience: USER_TOKEN_AUDIENCE,
        subject: userId,
        ttlSeconds: ttlSeconds ?? TTL_DEFAULT_SECONDS,
        ext: claims,
        cap: capabilities && encodeCapabilities(capabilities),
      });
      return reply.code(201).send({ token, userId, expiresAt: expiresAt.toISOString() });
    },
  });

  app.route({
    ...tokenOperations.revokeToken,
    onRequest: requireSecretKey(deps),
    handler: async (request) => {
      const { environmentId } = keyAuth(request);
      const revocation = await deps.revocations.revokeToken(environmentId, request.body.jti);
      await publishRevocation(deps, revocation);
      return { jti: request.body.jti, revoked: true as const, rememberedUntil: iso(revocation.expiresAtMs) };
    },
  });

  app.route({
    ...tokenOperations.revokeUserTokens,
    onRequest: requireSecretKey(deps),
    handler: async (request) => {
      const { environmentId } = keyAuth(request);
      const revocation = await deps.revocations.revokeUser(environmentId, request.params.userId);
      await publishRevocation(deps, revocation);
      const validAfterMs = 'validAfterMs' in revocation ? revocation.validAfterMs : Date.now();
      return { userId: request.params.userId, validAfter: iso(validAfterMs), rememberedUntil: iso(revocation.expiresAtMs) };
    },
  });
}

/**
 * Both hosts: `POST /v1/tokens/anonymous`, a secret key or a publishable key (browsers call it on
 * the realtime edge, where they then connect; CORS and allowed origins as on the control plane).
 */
export async function anonymousTokenRoutes(app: ZodApp, deps: GatewayDeps) {
  app.route({
    ...tokenOperations.mintAnonymousToken,
    onRequest: requireAnonymousMinter(deps),
    handler: async (request, reply) => {
      const { environmentId } = keyAuth(request);
      const userId = newId('anon');
      const key = await deps.credentials.activeSigningKey(environmentId);
      const { token, expiresAt } = await signToken(key, {
        issuer: deps.config.TOKEN_ISSUER,
        audience: USER_TOKEN_AUDIENCE,
        subject: userId,
        ttlSeconds: request.body?.ttlSeconds ?? TTL_DEFAULT_SECONDS,
        anon: true,
        cap: request.body?.capabilities && encodeCapabilities(request.body.capabilities),
      });
      return reply.code(201).send({ token, userId, expiresAt: expiresAt.toISOString() });
    },
  });
}
