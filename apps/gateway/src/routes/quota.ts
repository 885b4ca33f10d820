import { dashboardQuotaOperations, quotaOperations } from '@rtm/schemas';
import { readQuotaState } from '@rtm/limits';
import { ServiceError } from '@rtm/errors';
import { keyAuth, requireSecretKey } from '@rtm/edge';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { dashboardActor } from '../dashboard/session-auth.ts';
import { sessionRoute } from './dashboard/common.ts';

/** The answer of both routes: the quotas as read from the primary (a count is read where it is written). */
async function quotaOf(deps: GatewayDeps, environmentId: string) {
  const state = await readQuotaState(deps.pool, environmentId);
  if (!state) throw new ServiceError('not_found', 'no such environment');
  return { period: state.period, quotas: state.quotas };
}

/** Control plane: `GET /v1/quota`, the environment's monthly quotas and usage (docs/quotas.md). */
export async function quotaRoutes(app: ZodApp, deps: GatewayDeps) {
  app.route({
    ...quotaOperations.getQuota,
    onRequest: requireSecretKey(deps),
    handler: async (request) => quotaOf(deps, keyAuth(request).environmentId),
  });
}

/** Control plane: the dashboard's twin, `GET /v1/dashboard/environments/{envId}/quota` (any member). */
export async function dashboardQuotaRoutes(app: ZodApp, deps: GatewayDeps) {
  const accounts = deps.dashboard.accounts;
  app.route({
    ...dashboardQuotaOperations.dashboardGetQuota,
    ...sessionRoute(deps),
    handler: async (request) => {
      const { environmentId } = await accounts.access.environmentAccess(dashboardActor(request), request.params.envId, 'read');
      return quotaOf(deps, environmentId);
    },
  });
}
