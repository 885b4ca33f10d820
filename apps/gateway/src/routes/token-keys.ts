import {
  DEFAULT_SIGNING_KEY_GRACE_SECONDS,
  deleteTokenKey,
  jwkRefusal,
  listSigningKeys,
  listTokenKeys,
  putTokenKey,
  rotateSigningKey,
  setJwksUrl,
} from '@rtm/auth';
import { publishLog } from '@rtm/bus';
import { ServiceError } from '@rtm/errors';
import { encodeInvalidation } from '@rtm/limits';
import { checkWebhookUrl } from '@rtm/rules';
import { tokenKeyOperations } from '@rtm/schemas';
import type { JWK } from 'jose';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey } from '@rtm/edge';
import { closeSocketsOfKeys } from '../auth/revoke.ts';

/**
 * Control plane: the keys of user tokens. The public keys the environment's own backend signs
 * tokens with (`/v1/token-keys`, `/v1/token-jwks`), and the service's own signing keys
 * (`/v1/signing-keys`), listed and rotated.
 */
export async function tokenKeyRoutes(app: ZodApp, deps: GatewayDeps) {
  // this gateway at once, every other one over the bus
  const changed = async (environmentId: string) => {
    deps.tenantKeys.invalidate(environmentId);
    deps.nc.publish(deps.subjects.invalidate, encodeInvalidation(environmentId));
    await deps.nc.flush();
  };

  app.route({
    ...tokenKeyOperations.listTokenKeys,
    onRequest: requireSecretKey(deps),
    handler: async (request) => {
      const { keys, jwksUrl } = await listTokenKeys(deps.pool, keyAuth(request).environmentId);
      return { keys: keys.map((key) => ({ ...key, jwk: key.jwk as Record<string, unknown>, createdAt: key.createdAt.toISOString() })), jwksUrl };
    },
  });

  app.route({
    ...tokenKeyOperations.putTokenKey,
    onRequest: requireSecretKey(deps),
    handler: async (request) => {
      const { environmentId } = keyAuth(request);
      const { kid } = request.params;
      const { alg, jwk } = request.body;
      const refusal = await jwkRefusal(jwk, alg);
      if (refusal) throw new ServiceError('invalid_request', refusal);
      // stored without kid/alg/use: the route's kid and the body's alg are the ones that count
      const { kid: _kid, alg: _alg, use: _use, key_ops: _ops, ...publicJwk } = jwk;
      const key = await putTokenKey(deps.pool, environmentId, kid, alg, publicJwk as JWK);
      await changed(environmentId);
      publishLog(deps.nc, deps.subjects, environmentId, 'info', 'token_key.registered', { kid, alg });
      return { kid, alg, jwk: key.jwk as Record<string, unknown>, createdAt: key.createdAt.toISOString() };
    },
  });

  app.route({
    ...tokenKeyOperations.deleteTokenKey,
    onRequest: requireSecretKey(deps),
    handler: async (request, reply) => {
      const { environmentId } = keyAuth(request);
      if (!(await deleteTokenKey(deps.pool, environmentId, request.params.kid))) throw new ServiceError('not_found', 'no such token key');
      await changed(environmentId);
      await closeSocketsOfKeys(deps, environmentId, [request.params.kid]);
      publishLog(deps.nc, deps.subjects, environmentId, 'info', 'token_key.removed', { kid: request.params.kid });
      return reply.code(204).send(null);
    },
  });

  app.route({
    ...tokenKeyOperations.putTokenJwks,
    onRequest: requireSecretKey(deps),
    handler: async (request) => {
      const { environmentId } = keyAuth(request);
      const verdict = checkWebhookUrl(request.body.url, { allowLoopback: deps.config.WEBHOOK_ALLOW_LOOPBACK });
      if (!verdict.ok) throw new ServiceError('invalid_request', `JWKS URL refused: ${verdict.reason}`);
      await setJwksUrl(deps.pool, environmentId, verdict.url.href);
      await changed(environmentId);
      return { url: verdict.url.href };
    },
  });

  app.route({
    ...tokenKeyOperations.deleteTokenJwks,
    onRequest: requireSecretKey(deps),
    handler: async (request, reply) => {
      const { environmentId } = keyAuth(request);
      await setJwksUrl(deps.pool, environmentId, null);
      await changed(environmentId);
      return reply.code(204).send(null);
    },
  });

  app.route({
    ...tokenKeyOperations.listSigningKeys,
    onRequest: requireSecretKey(deps),
    handler: async (request) => {
      const keys = await listSigningKeys(deps.pool, keyAuth(request).environmentId);
      return {
        keys: keys.map((key) => ({ ...key, createdAt: key.createdAt.toISOString(), retiresAt: key.retiresAt?.toISOString() ?? null })),
      };
    },
  });

  app.route({
    ...tokenKeyOperations.rotateSigningKey,
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
        retired: keys.filter((key) => retired.includes(key.id) && key.retiresAt).map((key) => ({ id: key.id, retiresAt: key.retiresAt!.toISOString() })),
      };
    },
  });
}
