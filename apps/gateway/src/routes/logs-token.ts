import { signToken, LOGS_TOKEN_AUDIENCE } from '@rtm/auth';
import { publishLog } from '@rtm/bus';
import { ServiceError } from '@rtm/errors';
import { EnvironmentParams, LogsTokenBody, LogsTokenResponse, LOGS_TOKEN_TTL_DEFAULT_SECONDS, ErrorBody } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey } from '../auth/authenticate.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };

/** Control plane: `POST /v1/environments/{envId}/logs-token`. */
export async function logsTokenRoutes(app: ZodApp, deps: GatewayDeps) {
  app.post(
    '/v1/environments/:envId/logs-token',
    {
      onRequest: requireSecretKey(deps),
      schema: {
        operationId: 'mintLogsToken',
        summary: 'Mint a token for the live logs socket',
        description:
          'Secret key of that same environment (dashboard sessions are outside this API). A key of another ' +
          'environment gets 403 `forbidden`, whether or not `envId` exists, so the answer reveals nothing about other ' +
          'environments. The token is a JWT (audience `logs`) signed with the environment\'s signing key, valid ' +
          '`ttlSeconds` (60-3600, default 600), for GET /v1/environments/{envId}/logs?token=… on the realtime edge. ' +
          'It only opens the logs socket: user routes refuse it (401).',
        tags: ['logs'],
        security: [{ secretKey: [] }],
        params: EnvironmentParams,
        body: LogsTokenBody.optional(),
        response: { 201: LogsTokenResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { environmentId, keyId } = keyAuth(request);
      if (request.params.envId !== environmentId) {
        throw new ServiceError('forbidden', 'the key belongs to another environment');
      }
      const key = await deps.credentials.activeSigningKey(environmentId);
      const { token, expiresAt } = await signToken(key, {
        issuer: deps.config.TOKEN_ISSUER,
        audience: LOGS_TOKEN_AUDIENCE,
        subject: `key:${keyId}`,
        ttlSeconds: request.body?.ttlSeconds ?? LOGS_TOKEN_TTL_DEFAULT_SECONDS,
      });
      publishLog(deps.nc, deps.subjects, environmentId, 'info', 'logs.token_issued', { keyId });
      return reply.code(201).send({ token, expiresAt: expiresAt.toISOString() });
    },
  );
}
