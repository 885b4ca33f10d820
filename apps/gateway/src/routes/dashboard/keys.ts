import { z } from 'zod';
import {
  DashboardCreateKeyBody,
  DashboardCreatedKey,
  DashboardEnvParams,
  DashboardKey,
  DashboardKeyList,
  DashboardKeyParams,
  DashboardOrigin,
  DashboardOriginBody,
  DashboardOriginList,
  DashboardOriginQuery,
} from '@rtm/schemas';
import { publishLog } from '@rtm/bus';
import type { ZodApp } from '../../http/public-app.ts';
import type { GatewayDeps } from '../../deps.ts';
import { dashboardActor } from '../../dashboard/session-auth.ts';
import { CSRF_NOTE, SESSION_SECURITY, TAGS, csrfHeaders, keyJson, originJson, readErrors, sessionRoute, writeErrors } from './common.ts';

const MANAGE = ' Admins and owners (403 for viewers).';

/** Control plane: an environment's API keys and allowed origins. */
export async function dashboardKeyRoutes(app: ZodApp, deps: GatewayDeps) {
  const accounts = deps.dashboard.accounts;
  const secured = sessionRoute(deps);
  const common = { tags: TAGS, security: SESSION_SECURITY };

  app.get(
    '/v1/dashboard/environments/:envId/keys',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardListKeys',
        summary: 'The API keys of an environment',
        description:
          'Revoked keys too, newest first, with their prefix, kind, creation, last use (recorded at most once a ' +
          'minute per gateway) and revocation; never the key itself. Any member.',
        params: DashboardEnvParams,
        response: { 200: DashboardKeyList, ...readErrors },
      },
    },
    async (request) => ({ data: (await accounts.credentials.keys(dashboardActor(request), request.params.envId)).map(keyJson) }),
  );

  app.post(
    '/v1/dashboard/environments/:envId/keys',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardCreateKey',
        summary: 'Create an API key',
        description: 'The answer is the only time the key is shown: only its hash is stored.' + MANAGE + CSRF_NOTE,
        headers: csrfHeaders,
        params: DashboardEnvParams,
        body: DashboardCreateKeyBody,
        response: { 201: DashboardCreatedKey, ...writeErrors },
      },
    },
    async (request, reply) => {
      const { key, ...row } = await accounts.credentials.createKey(dashboardActor(request), request.params.envId, request.body.kind);
      publishLog(deps.nc, deps.subjects, row.environmentId, 'info', 'key.created', { keyId: row.id, kind: row.kind, prefix: row.prefix });
      return reply.code(201).send({ ...keyJson(row), key });
    },
  );

  app.post(
    '/v1/dashboard/environments/:envId/keys/:keyId/revoke',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardRevokeKey',
        summary: 'Revoke an API key',
        description:
          'Every gateway refuses the key at once (401 on the public routes); revoking a revoked key answers it ' +
          'unchanged. Takes no body.' + MANAGE + CSRF_NOTE,
        headers: csrfHeaders,
        params: DashboardKeyParams,
        response: { 200: DashboardKey, ...writeErrors },
      },
    },
    async (request) => {
      const { key, changed } = await accounts.credentials.revokeKey(dashboardActor(request), request.params.envId, request.params.keyId);
      if (changed) publishLog(deps.nc, deps.subjects, key.environmentId, 'info', 'key.revoked', { keyId: key.id, kind: key.kind, prefix: key.prefix });
      return keyJson(key);
    },
  );

  app.get(
    '/v1/dashboard/environments/:envId/origins',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardListOrigins',
        summary: 'The allowed origins of an environment',
        description:
          'Browsers from these origins may use the environment\'s publishable keys; with none, any origin may. Any member.',
        params: DashboardEnvParams,
        response: { 200: DashboardOriginList, ...readErrors },
      },
    },
    async (request) => ({ data: (await accounts.credentials.origins(dashboardActor(request), request.params.envId)).map(originJson) }),
  );

  app.post(
    '/v1/dashboard/environments/:envId/origins',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardAddOrigin',
        summary: 'Allow an origin',
        description:
          'Stored normalised as `scheme://host[:port]` (lowercase, default port dropped); a path, query, user name or ' +
          'a scheme other than http(s): 400. Adding one already there answers it (200 instead of 201). Every gateway ' +
          'applies the change at once.' + MANAGE + CSRF_NOTE,
        headers: csrfHeaders,
        params: DashboardEnvParams,
        body: DashboardOriginBody,
        response: { 200: DashboardOrigin, 201: DashboardOrigin, ...writeErrors },
      },
    },
    async (request, reply) => {
      const { added, ...origin } = await accounts.credentials.addOrigin(dashboardActor(request), request.params.envId, request.body.origin);
      if (added) publishLog(deps.nc, deps.subjects, request.params.envId, 'info', 'origin.added', { origin: origin.origin });
      return reply.code(added ? 201 : 200).send(originJson(origin));
    },
  );

  app.delete(
    '/v1/dashboard/environments/:envId/origins',
    {
      ...secured,
      schema: {
        ...common,
        operationId: 'dashboardRemoveOrigin',
        summary: 'Remove an allowed origin',
        description:
          '`?origin=` names it (compared normalised). 204 whether or not it was there. Every gateway applies the ' +
          'change at once.' + MANAGE + CSRF_NOTE,
        headers: csrfHeaders,
        params: DashboardEnvParams,
        querystring: DashboardOriginQuery,
        response: { 204: z.null().describe('Removed'), ...writeErrors },
      },
    },
    async (request, reply) => {
      const { origin, removed } = await accounts.credentials.removeOrigin(dashboardActor(request), request.params.envId, request.query.origin);
      if (removed) publishLog(deps.nc, deps.subjects, request.params.envId, 'info', 'origin.removed', { origin });
      return reply.code(204).send(null);
    },
  );
}
