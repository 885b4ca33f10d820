import { newId } from '@rtm/db';
import { encodeCapabilities, signToken, USER_TOKEN_AUDIENCE } from '@rtm/auth';
import { ServiceError } from '@rtm/errors';
import { TTL_DEFAULT_SECONDS, tokenOperations } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireAnonymousMinter, requireSecretKey } from '../auth/authenticate.ts';
import { environmentBan } from '../access/bans.ts';

/** Control plane: `POST /v1/tokens` and `POST /v1/tokens/anonymous`. */
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

