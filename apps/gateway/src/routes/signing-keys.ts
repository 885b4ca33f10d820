import { DEFAULT_SIGNING_KEY_GRACE_SECONDS, listSigningKeys, rotateSigningKey } from '@rtm/auth';
import { publishLog } from '@rtm/bus';
import { encodeInvalidation } from '@rtm/limits';
import { ErrorBody, RotateSigningKeyBody, RotatedSigningKey, SigningKeyList } from '@rtm/schemas';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey } from '../auth/authenticate.ts';
import { closeSocketsOfKeys } from '../auth/revoke.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };

/** Control plane: the environment's token signing keys (`/v1/signing-keys`), listed and rotated. */
export async function signingKeyRoutes(app: ZodApp, deps: GatewayDeps) {
  const security = [{ secretKey: [] }];
  app.get(
    '/v1/signing-keys',
    {
      onRequest: requireSecretKey(deps),
      schema: {
        operationId: 'listSigningKeys',
        summary: 'List token signing keys',
        description: 'Secret key. The keys that sign and verify the environment\'s minted user tokens, newest first (keys retired over a week ago are left out). Secrets are never shown.',
        tags: ['tokens'],
        security,
        response: { 200: SigningKeyList, ...errors },
      },
    },
    async (request) => {
      const keys = await listSigningKeys(deps.pool, keyAuth(request).environmentId);
      return {
        keys: keys.map((key) => ({ ...key, createdAt: key.createdAt.toISOString(), retiresAt: key.retiresAt?.toISOString() ?? null })),
      };
    },
  );

  app.post(
    '/v1/signing-keys/rotate',
    {
      onRequest: requireSecretKey(deps),
      schema: {
        operationId: 'rotateSigningKey',
        summary: 'Rotate the token signing key',
        description:
          'Secret key. A new key signs every token minted from now on. Tokens signed by the previous key keep working for ' +
          '`graceSeconds` (default 86400, at most 604800), then every gateway refuses them with 401; sockets opened with them ' +
          'keep running until their token expires. With `graceSeconds: 0` they are refused at once and their open sockets ' +
          'close with 4401 `token revoked` on every gateway. The body may be left out.',
        tags: ['tokens'],
        security,
        body: RotateSigningKeyBody.optional(),
        response: { 200: RotatedSigningKey, ...errors },
      },
    },
    async (request) => {
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
  );
}
