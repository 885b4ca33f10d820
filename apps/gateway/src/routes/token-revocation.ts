import { tokenRevocationOperations } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey } from '../auth/authenticate.ts';
import { publishRevocation } from '../auth/revoke.ts';
const iso = (ms: number) => new Date(ms).toISOString();

/** Control plane: revoke one user token by its `jti`, or every token of a user issued before now. */
export async function tokenRevocationRoutes(app: ZodApp, deps: GatewayDeps) {
  app.route({
    ...tokenRevocationOperations.revokeToken,
    onRequest: requireSecretKey(deps),
    handler: async (request) => {
      const { environmentId } = keyAuth(request);
      const revocation = await deps.revocations.revokeToken(environmentId, request.body.jti);
      await publishRevocation(deps, revocation);
      return { jti: request.body.jti, revoked: true as const, rememberedUntil: iso(revocation.expiresAtMs) };
    },
  });

  app.route({
    ...tokenRevocationOperations.revokeUserTokens,
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
