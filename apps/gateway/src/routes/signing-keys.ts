import { DEFAULT_SIGNING_KEY_GRACE_SECONDS, listSigningKeys, rotateSigningKey } from '@rtm/auth';
import { publishLog } from '@rtm/bus';
import { encodeInvalidation } from '@rtm/limits';
import { signingKeyOperations } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey } from '../auth/authenticate.ts';
import { closeSocketsOfKeys } from '../auth/revoke.ts';

/** Control plane: the environment's token signing keys (`/v1/signing-keys`), listed and rotated. */
export async function signingKeyRoutes(app: ZodApp, deps: GatewayDeps) {
  app.route({
    ...signingKeyOperations.listSigningKeys,
    onRequest: requireSecretKey(deps),
    handler: async (request) => {
      const keys = await listSigningKeys(deps.pool, keyAuth(request).environmentId);
      return {
        keys: keys.map((key) => ({ ...key, createdAt: key.createdAt.toISOString(), retiresAt: key.retiresAt?.toISOString() ?? null })),
      };
    },
  });

  app.route({
    ...signingKeyOperations.rotateSigningKey,
    onRequest: requireSecretKey(deps),
    handler: async (request) => {
      const { environmentId } = keyAuth(request);
      const grace = request.body?.graceSeconds ?? DEFAULT_SIGNING_KEY_GRACE_SECONDS;
      const { id, retired } = await rotateSigningKey(deps.pool, environmentId, grace);
      // this gateway at once, every other one over the bus: the new key signs, the old one's grace is known
      deps.credentials.invalidate(environmentId);
      deps.nc.publish(deps.subjects.invalidate, encodeInvalidation(environmentId));
      await deps.nc.flush();
      publishLog(deps.nc, deps.subjects, environmentId, 'info', 'signing_key.rotated', { id, retired, graceSeconds: grace });
      // without grace the old tokens are refused now: their open sockets close too
      if (grace === 0) await closeSocketsOfKeys(deps, environmentId, retired);
      const keys = await listSigningKeys(deps.pool, environmentId);
      return {
        id,
        retired: keys
          .filter((key) => retired.includes(key.id) && key.retiresAt)
          .map((key) => ({ id: key.id, retiresAt: key.retiresAt!.toISOString() })),
      };
    },
  });
}
