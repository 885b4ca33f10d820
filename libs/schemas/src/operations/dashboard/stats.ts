import { DashboardEnvParams } from '../../dashboard.ts';
import { StatsList, StatsQuery } from '../../stats.ts';
import type { Operations } from '../operation.ts';
import { STATS_DESCRIPTION } from '../stats.ts';
import { common, readErrors } from './common.ts';

/** Control plane: an environment's usage, as GET /v1/stats reads it. */
export const dashboardStatsOperations = {
  dashboardGetStats: {
    method: 'GET',
    url: '/v1/dashboard/environments/:envId/stats',
    schema: {
      ...common,
      operationId: 'dashboardGetStats',
      summary: 'Usage by minute, hour, day or month',
      description: 'As GET /v1/stats. ' + STATS_DESCRIPTION + ' Any member.',
      params: DashboardEnvParams,
      querystring: StatsQuery,
      response: { 200: StatsList, ...readErrors },
    },
  },
} as const satisfies Operations;
