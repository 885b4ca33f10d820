import { signToken, LOGS_TOKEN_AUDIENCE } from '@rtm/auth';
import { publishLog } from '@rtm/bus';
import { ServiceError } from '@rtm/errors';
import { EnvironmentParams, LogsTokenBody, LogsTokenResponse, LOGS_TOKEN_TTL_DEFAULT_SECONDS, ErrorBody, DashboardOptionalCsrfHeaders } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import type { FastifyRequest } from 'fastify';
import { LOGS_RIGHT, judgeOrigin } from '@rtm/accounts';
import { logsSubjectOf } from '../auth/logs-access.ts';
import { keyAuth, requireSecretKey } from '../auth/authenticate.ts';
import { dashboardActor, requestOrigin, requireDashboardSession, sessionToken } from '../dashboard/session-auth.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };

/** Control plane: `POST /v1/environments/{envId}/logs-token`. */
export async function logsTokenRoutes(app: ZodApp, deps: GatewayDeps) {
  const secretKey = requireSecretKey(deps);
  const session = requireDashboardSession(deps);
  // a request with an Authorization header is judged by its key; otherwise, with the session
  // cookie, by the session, its CSRF token and (as on every dashboard change) its Origin
  const eitherCredential = async (request: FastifyRequest) => {
    if (request.headers.authorization !== undefined || sessionToken(request) === undefined) return secretKey(request);
    if (judgeOrigin(requestOrigin(request), request.headers.origin, request.headers.referer) === 'foreign') {
      throw new ServiceError('forbidden', 'cross-site request refused: Origin must be the dashboard\'s own');
    }
    return session(request);
  };

  app.post(
    '/v1/environments/:envId/logs-token',
    {
      onRequest: eitherCredential,
      schema: {
        operationId: 'mintLogsToken',
        summary: 'Mint a token for the live logs socket',
        description:
          'Secret key of that same environment: a key of another environment gets 403 `forbidden`, whether or not ' +
          '`envId` exists, so the answer reveals nothing about other environments. Or, without an Authorization ' +
          'header, a dashboard session: any member of the environment\'s organization (another organization\'s ' +
          'environment: 404), with the `x-csrf-token` header and, from a browser, the dashboard\'s own `Origin` ' +
          '(else 403). The token is a JWT (audience `logs`) signed with the environment\'s signing key, valid ' +
          '`ttlSeconds` (60-3600, default 600), for GET /v1/environments/{envId}/logs?token=… on the realtime edge. ' +
          'It only opens the logs socket: user routes refuse it (401). A member\'s tokens are revoked when the member ' +
          'is removed or moved to a lower role; logs sockets count in the environment\'s socket quota.',
        tags: ['logs'],
        security: [{ secretKey: [] }, { dashboardSession: [] }],
        headers: DashboardOptionalCsrfHeaders,
        params: EnvironmentParams,
        body: LogsTokenBody.optional(),
        response: { 201: LogsTokenResponse, ...errors },
      },
    },
    async (request, reply) => {
      let environmentId: string;
      let subject: string;
      let by: Record<string, string>;
      if (request.dashboard) {
        ({ environmentId } = await deps.dashboard.accounts.access.environmentAccess(dashboardActor(request), request.params.envId, LOGS_RIGHT));
        subject = logsSubjectOf(request.dashboard.userId);
        by = { userId: request.dashboard.userId };
      } else {
        const auth = keyAuth(request);
        if (request.params.envId !== auth.environmentId) {
          throw new ServiceError('forbidden', 'the key belongs to another environment');
        }
        environmentId = auth.environmentId;
        subject = `key:${auth.keyId}`;
        by = { keyId: auth.keyId };
      }
      const key = await deps.credentials.activeSigningKey(environmentId);
      const { token, expiresAt } = await signToken(key, {
        issuer: deps.config.TOKEN_ISSUER,
        audience: LOGS_TOKEN_AUDIENCE,
        subject,
        ttlSeconds: request.body?.ttlSeconds ?? LOGS_TOKEN_TTL_DEFAULT_SECONDS,
      });
      publishLog(deps.nc, deps.subjects, environmentId, 'info', 'logs.token_issued', by);
      // a credential: never kept by a cache, whichever way it was asked for
      reply.header('cache-control', 'no-store');
      const origin = deps.realtimeEndpoint.wsOriginFor(request);
      const socketUrl = origin === null ? null : `${origin}/v1/environments/${encodeURIComponent(environmentId)}/logs`;
      return reply.code(201).send({ token, expiresAt: expiresAt.toISOString(), socketUrl });
    },
  );
}
