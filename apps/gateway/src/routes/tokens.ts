import { newId } from '@rtm/db';
import { encodeCapabilities, signToken, USER_TOKEN_AUDIENCE } from '@rtm/auth';
import { ServiceError } from '@rtm/errors';
import { CreateTokenBody, CreateAnonymousTokenBody, TokenResponse, ErrorBody, TTL_DEFAULT_SECONDS } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireAnonymousMinter, requireSecretKey } from '../auth/authenticate.ts';
import { environmentBan } from '../access/bans.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };

/** Control plane: `POST /v1/tokens` and `POST /v1/tokens/anonymous`. */
export async function tokenRoutes(app: ZodApp, deps: GatewayDeps) {
  app.post(
    '/v1/tokens',
    {
      onRequest: requireSecretKey(deps),
      schema: {
        operationId: 'mintToken',
        summary: 'Mint a user token',
        description: 'Secret key. The token is a JWT for the realtime edge. Refused (403 banned) for a user banned environment-wide. ' +
          '`capabilities` narrows what the token may do, by channel pattern (docs/permissions.md); refused with 400 ' +
          '`invalid_request` when over 64 patterns or 2 KiB serialized, or with an unknown operation or a bad pattern.',
        tags: ['tokens'],
        security: [{ secretKey: [] }],
        body: CreateTokenBody,
        response: { 201: TokenResponse, ...errors },
      },
    },
    async (request, reply) => {
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
  );

  app.post(
    '/v1/tokens/anonymous',
    {
      onRequest: requireAnonymousMinter(deps),
      schema: {
        operationId: 'mintAnonymousToken',
        summary: 'Mint an anonymous user token',
        description:
          'Secret key, or publishable key as `Authorization: Bearer pk_…` or `x-service-key: pk_…` (browser-safe). ' +
          'When the environment has allowed origins, a publishable-key request whose `Origin` is not among them is 403 ' +
          '`origin_not_allowed`; origins compare as lowercase `scheme://host[:port]` (default port dropped, no path), and ' +
          '`Origin: null` never matches. A request without `Origin` (a server or native app) is not judged by the list. ' +
          'The body may be empty. `userId` is `anon_` + a random id; the token carries `anon: true`. `capabilities` as on ' +
          'POST /v1/tokens; channel namespaces may also refuse anonymous tokens (docs/permissions.md).',
        tags: ['tokens'],
        security: [{ secretKey: [] }, { publishableKey: [] }, { publishableKeyHeader: [] }],
        body: CreateAnonymousTokenBody.optional(),
        response: { 201: TokenResponse, ...errors },
      },
    },
    async (request, reply) => {
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
  );
}

