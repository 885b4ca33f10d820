import { dashboardEmailCodeOperations } from '@rtm/schemas';
import type { ZodApp } from '../../http/public-app.ts';
import type { GatewayDeps } from '../../deps.ts';
import { revokeLogsTokens } from '../../auth/logs-access.ts';
import { clientAddress } from './common.ts';

const REQUESTED = { status: 'requested' as const };

/**
 * Control plane: codes mailed to prove an e-mail address, and the password reset they allow. No
 * session: the code is the credential. Every request answers the same 202 for every address.
 */
export async function dashboardEmailCodeRoutes(app: ZodApp, deps: GatewayDeps) {
  const recovery = deps.dashboard.accounts.recovery;

  app.route({
    ...dashboardEmailCodeOperations.dashboardRequestEmailVerification,
    handler: async (request, reply) => {
      await recovery.requestVerification(request.body.email, clientAddress(request));
      return reply.code(202).send(REQUESTED);
    },
  });

  app.route({
    ...dashboardEmailCodeOperations.dashboardRequestPasswordReset,
    handler: async (request, reply) => {
      await recovery.requestReset(request.body.email, clientAddress(request));
      return reply.code(202).send(REQUESTED);
    },
  });

  app.route({
    ...dashboardEmailCodeOperations.dashboardConfirmPasswordReset,
    handler: async (request, reply) => {
      const { email, code, password } = request.body;
      const { userId } = await recovery.confirmReset(email, code, password);
      // whoever held a session or a logs token of the account (the reason to reset) loses it
      await deps.dashboard.sessions.deleteForUser(userId);
      for (const org of await deps.dashboard.accounts.organizations.organizationsOf(userId)) await revokeLogsTokens(deps, org.id, userId);
      return reply.code(204).send(null);
    },
  });
}
