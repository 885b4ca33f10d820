import { dashboardKeyOperations } from '@rtm/schemas';
import { publishLog } from '@rtm/bus';
import type { ZodApp } from '../../http/public-app.ts';
import type { GatewayDeps } from '../../deps.ts';
import { dashboardActor } from '../../dashboard/session-auth.ts';
import { keyJson, originJson, sessionRoute } from './common.ts';

/** Control plane: an environment's API keys and allowed origins. */
export async function dashboardKeyRoutes(app: ZodApp, deps: GatewayDeps) {
  const accounts = deps.dashboard.accounts;
  const secured = sessionRoute(deps);

  app.route({
    ...dashboardKeyOperations.dashboardListKeys,
    ...secured,
    handler: async (request) => ({ data: (await accounts.credentials.keys(dashboardActor(request), request.params.envId)).map(keyJson) }),
  });

  app.route({
    ...dashboardKeyOperations.dashboardCreateKey,
    ...secured,
    handler: async (request, reply) => {
      const { key, ...row } = await accounts.credentials.createKey(dashboardActor(request), request.params.envId, request.body.kind);
      publishLog(deps.nc, deps.subjects, row.environmentId, 'info', 'key.created', { keyId: row.id, kind: row.kind, prefix: row.prefix });
      return reply.code(201).send({ ...keyJson(row), key });
    },
  });

  app.route({
    ...dashboardKeyOperations.dashboardRevokeKey,
    ...secured,
    handler: async (request) => {
      const { key, changed } = await accounts.credentials.revokeKey(dashboardActor(request), request.params.envId, request.params.keyId);
      if (changed) publishLog(deps.nc, deps.subjects, key.environmentId, 'info', 'key.revoked', { keyId: key.id, kind: key.kind, prefix: key.prefix });
      return keyJson(key);
    },
  });

  app.route({
    ...dashboardKeyOperations.dashboardListOrigins,
    ...secured,
    handler: async (request) => ({ data: (await accounts.credentials.origins(dashboardActor(request), request.params.envId)).map(originJson) }),
  });

  app.route({
    ...dashboardKeyOperations.dashboardAddOrigin,
    ...secured,
    handler: async (request, reply) => {
      const { added, ...origin } = await accounts.credentials.addOrigin(dashboardActor(request), request.params.envId, request.body.origin);
      if (added) publishLog(deps.nc, deps.subjects, request.params.envId, 'info', 'origin.added', { origin: origin.origin });
      return reply.code(added ? 201 : 200).send(originJson(origin));
    },
  });

  app.route({
    ...dashboardKeyOperations.dashboardRemoveOrigin,
    ...secured,
    handler: async (request, reply) => {
      const { origin, removed } = await accounts.credentials.removeOrigin(dashboardActor(request), request.params.envId, request.query.origin);
      if (removed) publishLog(deps.nc, deps.subjects, request.params.envId, 'info', 'origin.removed', { origin });
      return reply.code(204).send(null);
    },
  });
}
