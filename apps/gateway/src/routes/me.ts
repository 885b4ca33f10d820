import { meOperations } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { requireUser, userAuth } from '@rtm/edge';

/** Realtime edge: `GET /v1/me`, the identity a user token carries (a client's token check). */
export async function meRoutes(app: ZodApp, deps: GatewayDeps) {
  app.route({
    ...meOperations.getMe,
    onRequest: requireUser(deps),
    handler: async (request) => {
      const auth = userAuth(request);
      return {
        userId: auth.userId,
        environmentId: auth.environmentId,
        anon: auth.anon,
        expiresAt: auth.claims.expiresAt.toISOString(),
        ...(auth.claims.ext ? { ext: auth.claims.ext } : {}),
      };
    },
  });
}
