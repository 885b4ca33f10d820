import { z } from 'zod';
import { deleteTokenKey, jwkRefusal, listTokenKeys, putTokenKey, setJwksUrl } from '@rtm/auth';
import { publishLog } from '@rtm/bus';
import { ServiceError } from '@rtm/errors';
import { encodeInvalidation } from '@rtm/limits';
import { checkWebhookUrl } from '@rtm/webhooks';
import { ErrorBody, JwksSetting, PutJwksBody, PutTokenKeyBody, TokenKey, TokenKeyList, TokenKeyParams } from '@rtm/schemas';
import type { JWK } from 'jose';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { keyAuth, requireSecretKey } from '../auth/authenticate.ts';
import { closeSocketsOfKeys } from '../auth/revoke.ts';

const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody, 503: ErrorBody };
const security = [{ secretKey: [] }];
const tags = ['tokens'];

const TENANT_NOTE =
  ' A tenant-signed token has header `alg` RS256, ES256 or EdDSA and `kid`, and claims `iss` (the environment id), ' +
  '`aud` "realtime", `sub` (a user id), `iat`, `exp` (at most 24 h after `iat`), `jti`; optionally `anon`, `ext`, ' +
  '`iat_ms`. See docs/tokens.md.';

/** Control plane: the public keys the environment's own backend signs user tokens with. */
export async function tokenKeyRoutes(app: ZodApp, deps: GatewayDeps) {
  // this gateway at once, every other one over the bus
  const changed = async (environmentId: string) => {
    deps.tenantKeys.invalidate(environmentId);
    deps.nc.publish(deps.subjects.invalidate, encodeInvalidation(environmentId));
    await deps.nc.flush();
  };

  app.get(
    '/v1/token-keys',
    {
      onRequest: requireSecretKey(deps),
      schema: {
        operationId: 'listTokenKeys',
        summary: 'List the environment\'s token keys',
        description: 'Secret key. The registered public keys and the JWKS URL (null when none).' + TENANT_NOTE,
        tags,
        security,
        response: { 200: TokenKeyList, ...errors },
      },
    },
    async (request) => {
      const { keys, jwksUrl } = await listTokenKeys(deps.pool, keyAuth(request).environmentId);
      return { keys: keys.map((key) => ({ ...key, jwk: key.jwk as Record<string, unknown>, createdAt: key.createdAt.toISOString() })), jwksUrl };
    },
  );

  app.put(
    '/v1/token-keys/:kid',
    {
      onRequest: requireSecretKey(deps),
      schema: {
        operationId: 'putTokenKey',
        summary: 'Register a public key for tenant-signed tokens',
        description:
          'Secret key. Upsert. Key ids are per environment: another environment using the same kid neither blocks ' +
          'this one nor is affected by it (a token is checked only against the keys of the environment in its `iss`). ' +
          'Tokens signed with it are accepted on every gateway at once.' + TENANT_NOTE,
        tags,
        security,
        params: TokenKeyParams,
        body: PutTokenKeyBody,
        response: { 200: TokenKey, ...errors },
      },
    },
    async (request) => {
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
  );

  app.delete(
    '/v1/token-keys/:kid',
    {
      onRequest: requireSecretKey(deps),
      schema: {
        operationId: 'deleteTokenKey',
        summary: 'Remove a registered token key',
        description: 'Secret key. Tokens signed with it are refused on every gateway at once (401) and their open sockets close with 4401. Unknown kid: 404.',
        tags,
        security,
        params: TokenKeyParams,
        response: { 204: z.null().describe('Removed'), ...errors },
      },
    },
    async (request, reply) => {
      const { environmentId } = keyAuth(request);
      if (!(await deleteTokenKey(deps.pool, environmentId, request.params.kid))) throw new ServiceError('not_found', 'no such token key');
      await changed(environmentId);
      await closeSocketsOfKeys(deps, environmentId, [request.params.kid]);
      publishLog(deps.nc, deps.subjects, environmentId, 'info', 'token_key.removed', { kid: request.params.kid });
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/v1/token-jwks',
    {
      onRequest: requireSecretKey(deps),
      schema: {
        operationId: 'putTokenJwks',
        summary: 'Set the JWKS URL for tenant-signed tokens',
        description:
          'Secret key. The gateways fetch the key set under the webhook URL policy (https, public addresses only; checked ' +
          'again at every fetch against what the host resolves to), keep it for 5 minutes, and fetch it again when a token ' +
          'names an unknown `kid` (at most every 30 s). Keys must carry `kid` and `alg`; others are skipped. A registered key ' +
          'with the same kid wins. A URL the policy refuses: 400.' + TENANT_NOTE,
        tags,
        security,
        body: PutJwksBody,
        response: { 200: JwksSetting, ...errors },
      },
    },
    async (request) => {
      const { environmentId } = keyAuth(request);
      const verdict = checkWebhookUrl(request.body.url, { allowLoopback: deps.config.WEBHOOK_ALLOW_LOOPBACK });
      if (!verdict.ok) throw new ServiceError('invalid_request', `JWKS URL refused: ${verdict.reason}`);
      await setJwksUrl(deps.pool, environmentId, verdict.url.href);
      await changed(environmentId);
      return { url: verdict.url.href };
    },
  );

  app.delete(
    '/v1/token-jwks',
    {
      onRequest: requireSecretKey(deps),
      schema: {
        operationId: 'deleteTokenJwks',
        summary: 'Remove the JWKS URL',
        description:
          'Secret key. Idempotent. Tokens signed with keys from it are refused on every gateway at once (401); sockets ' +
          'already open with them run until their token expires (revoke the tokens to close them).',
        tags,
        security,
        response: { 204: z.null().describe('Removed'), ...errors },
      },
    },
    async (request, reply) => {
      const { environmentId } = keyAuth(request);
      await setJwksUrl(deps.pool, environmentId, null);
      await changed(environmentId);
      return reply.code(204).send(null);
    },
  );
}
