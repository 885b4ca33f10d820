import { DashboardOptionalCsrfHeaders } from '../dashboard.ts';
import { EnvironmentParams, LogsTokenBody, LogsTokenResponse } from '../logs.ts';
import { ErrorBody } from '../common.ts';
import type { Operations } from './operation.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };

/** Control plane: `POST /v1/environments/{envId}/logs-token`. */
export const logsTokenOperations = {
  mintLogsToken: {
    method: 'POST',
    url: '/v1/environments/:envId/logs-token',
    schema: {
      operationId: 'mintLogsToken',
      summary: 'Mint a token for the live logs socket',
      description:
        'Secret key of that same environment: a key of another environment gets 403 `forbidden`, whether or not ' +
        '`envId` exists, so the answer reveals nothing about other environments. Or, without an Authorization ' +
        "header, a dashboard session: any member of the environment's organization (another organization's " +
        "environment: 404), with the `x-csrf-token` header and, from a browser, the dashboard's own `Origin` " +
        "(else 403). The token is a JWT (audience `logs`) signed with the environment's signing key, valid " +
        '`ttlSeconds` (60-3600, default 600), for GET /v1/environments/{envId}/logs?token=… on the realtime edge. ' +
        "It only opens the logs socket: user routes refuse it (401). A member's tokens are revoked when the member " +
        'is removed or moved to a lower role. A token minted with a dashboard session expires with the session at the ' +
        'latest (`expiresAt` says when) and is revoked when the session ends (sign-out, a new sign-in in the same ' +
        'browser, idle expiry, every session of the user ended): its logs sockets close with 4401 `token revoked`. ' +
        "Logs sockets count in the environment's socket quota.",
      tags: ['logs'],
      security: [{ secretKey: [] }, { dashboardSession: [] }],
      headers: DashboardOptionalCsrfHeaders,
      params: EnvironmentParams,
      body: LogsTokenBody.optional(),
      response: { 201: LogsTokenResponse, ...errors },
    },
  },
} as const satisfies Operations;
