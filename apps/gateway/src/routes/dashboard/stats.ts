import { readStats } from '@rtm/db';
import { dashboardStatsOperations } from '@rtm/schemas';
import type { ZodApp } from '../../http/public-app.ts';
import type { GatewayDeps } from '../../deps.ts';
import { dashboardActor } from '../../dashboard/session-auth.ts';
import { statsWindow } from '../../stats/stats-query.ts';
import { sessionRoute } from './common.ts';

/** Control plane: an environment's usage for any member of its organization, as GET /v1/stats reads it. */
export async function dashboardStatsRoutes(app: ZodApp, deps: GatewayDeps) {
  app.route({
    ...dashboardStatsOperations.dashboardGetStats,
    ...sessionRoute(deps),
    handler: async (request) => {
      // the query first: a bad one is 400 whoever asks
      const window = statsWindow(request.query, Date.now());
      const { environmentId } = await deps.dashboard.accounts.access.environmentAccess(dashboardActor(request), request.params.envId, 'read');
      return { data: await deps.reads.current('stats', (db) => readStats(db, environmentId, window)) };
    },
  });
}
