import { signToken, LOGS_TOKEN_AUDIENCE } from '@rtm/auth';
import { publishLog } from '@rtm/bus';
import { ServiceError } from '@rtm/errors';
import { LOGS_TOKEN_TTL_DEFAULT_SECONDS, logsTokenOperations } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import type { FastifyRequest } from 'fastify';
import { LOGS_RIGHT, judgeOrigin } from '@rtm/accounts';
import { logsSubjectOf } from '../auth/logs-access.ts';
import { keyAuth, requireSecretKey } from '@rtm/edge';
import { dashboardActor, requestOrigin, requireDashboardSession, sessionToken } from '../dashboard/session-auth.ts';

/** Control plane: `POST /v1/environments/{envId}/logs-token`. */
export async function logsTokenRoutes(app: ZodApp, deps: GatewayDeps) {
  const secretKey = requireSecretKey(deps);
  const session = requireDashboardSession(deps);
  // a request with an Authorization header is judged by its key; otherwise, with the session
  // cookie, by the session, its CSRF token and (as on every dashboard change) its Origin
  const eitherCredential = async (request: FastifyRequest) => {
    if (request.headers.authorization !== undefined || sessionToken(request) === undefined) return secretKey(request);
    if (judgeOrigin(requestOrigin(request), request.headers.origin, request.headers.referer) === 'foreign') {
      throw new ServiceError('forbidden', "cross-site request refused: Origin must be the dashboard's own");
    }
    return session(request);
  };

  app.route({
    ...logsTokenOperations.mintLogsToken,
    onRequest: eitherCredential,
    handler: async (request, reply) => {
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
      let ttlSeconds = request.body?.ttlSeconds ?? LOGS_TOKEN_TTL_DEFAULT_SECONDS;
      // a session's token ends with the session at the latest (sooner when the session ends sooner)
      if (request.dashboard) ttlSeconds = Math.max(1, Math.min(ttlSeconds, Math.floor((request.dashboard.expiresAt.getTime() - Date.now()) / 1000)));
      const { token, expiresAt, tokenId } = await signToken(key, { issuer: deps.config.TOKEN_ISSUER, audience: LOGS_TOKEN_AUDIENCE, subject, ttlSeconds });
      // recorded before it is handed out: when the session ends, the token is revoked
      const minter = sessionToken(request);
      if (request.dashboard && minter) await deps.dashboard.sessionLogs.record(minter, { jti: tokenId, environmentId, expiresAt });
      publishLog(deps.nc, deps.subjects, environmentId, 'info', 'logs.token_issued', by);
      // a credential: never kept by a cache, whichever way it was asked for
      reply.header('cache-control', 'no-store');
      const origin = deps.realtimeEndpoint.wsOriginFor(request);
      const socketUrl = origin === null ? null : `${origin}/v1/environments/${encodeURIComponent(environmentId)}/logs`;
      return reply.code(201).send({ token, expiresAt: expiresAt.toISOString(), socketUrl });
    },
  });
}
