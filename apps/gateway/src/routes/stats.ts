import { readStats } from '@rtm/db';
import { statsOperations } from '@rtm/schemas';
import { keyAuth, requireSecretKey } from '@rtm/edge';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { statsWindow } from '../stats/stats-query.ts';

/**
 * Control plane: the usage of the secret key's environment (docs/stats.md, "Reading stats").
 * Read where a replica may answer (deps.reads): the rows are settled counts, and the replica must
 * have replayed what was committed before the request, as every such read.
 */
export async function statsRoutes(app: ZodApp, deps: GatewayDeps) {
  app.route({
    ...statsOperations.getStats,
    onRequest: requireSecretKey(deps),
    handler: async (request) => {
      const window = statsWindow(request.query, Date.now());
      return { data: await deps.reads.current('stats', (db) => readStats(db, keyAuth(request).environmentId, window)) };
    },
  });
}
