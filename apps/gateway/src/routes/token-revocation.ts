import { RevokeTokenBody, RevokedToken, RevokedUserTokens, UserParams, ErrorBody } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey } from '../auth/authenticate.ts';
import { publishRevocation } from '../auth/revoke.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };
const iso = (ms: number) => new Date(ms).toISOString();

/** Control plane: revoke one user token by its `jti`, or every token of a user issued before now. */
export async function tokenRevocationRoutes(app: ZodApp, deps: GatewayDeps) {
  app.post(
    '/v1/tokens/revoke',
    {
      onRequest: requireSecretKey(deps),
      schema: {
        operationId: 'revokeToken',
        summary: 'Revoke one user token',
        description:
          'Secret key. The token with this `jti` (minted here or signed by the environment\'s own keys) is refused from now on ' +
          'on every gateway: HTTP with 401 `unauthorized`, and its open sockets (channel socket, inbox, `/v1/connect`) close ' +
          'with 4401 `token revoked`. Idempotent. The revocation is kept until no token can still be unexpired (the longest ' +
          'token lifetime, 24 h, and a minute), then forgotten.',
        tags: ['tokens'],
        security: [{ secretKey: [] }],
        body: RevokeTokenBody,
        response: { 200: RevokedToken, ...errors },
      },
    },
    async (request) => {
      const { environmentId } = keyAuth(request);
      const revocation = await deps.revocations.revokeToken(environmentId, request.body.jti);
      await publishRevocation(deps, revocation);
      return { jti: request.body.jti, revoked: true as const, rememberedUntil: iso(revocation.expiresAtMs) };
    },
  );

  app.delete(
    '/v1/users/:userId/tokens',
    {
      onRequest: requireSecretKey(deps),
      schema: {
        operationId: 'revokeUserTokens',
        summary: "Revoke every token of a user",
        description:
          'Secret key. Every token of the user issued before now is refused on every gateway (401; open sockets close with ' +
          '4401). Tokens minted afterwards work, even within the same second: minted tokens carry their issue time in ' +
          'milliseconds (`iat_ms`). A tenant-signed token without `iat_ms` is judged by `iat` (seconds), so one issued in ' +
          'the same second as the revocation is refused too.',
        tags: ['tokens'],
        security: [{ secretKey: [] }],
        params: UserParams,
        response: { 200: RevokedUserTokens, ...errors },
      },
    },
    async (request) => {
      const { environmentId } = keyAuth(request);
      const revocation = await deps.revocations.revokeUser(environmentId, request.params.userId);
      await publishRevocation(deps, revocation);
      const validAfterMs = 'validAfterMs' in revocation ? revocation.validAfterMs : Date.now();
      return { userId: request.params.userId, validAfter: iso(validAfterMs), rememberedUntil: iso(revocation.expiresAtMs) };
    },
  );
}
