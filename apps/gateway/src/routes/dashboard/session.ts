import { csrfTokenMatches } from '@rtm/accounts';
import { ServiceError } from '@rtm/errors';
import { dashboardSessionOperations } from '@rtm/schemas';
import type { ZodApp } from '../../http/public-app.ts';
import type { GatewayDeps } from '../../deps.ts';
import { clearSessionCookie, requireDashboardSession, sessionToken, setSessionCookie } from '../../dashboard/session-auth.ts';
import { clientAddress, sessionJson } from './common.ts';

/** Control plane: `/v1/dashboard/session`: sign in, the current session, sign out. */
export async function dashboardSessionRoutes(app: ZodApp, deps: GatewayDeps) {
  app.route({
    ...dashboardSessionOperations.dashboardSignIn,
    handler: async (request, reply) => {
      const user = await deps.dashboard.accounts.signIn.withPassword(request.body.email, request.body.password, clientAddress(request));
      // a session this browser already had ends: one cookie, one session
      const previous = sessionToken(request);
      if (previous) await deps.dashboard.sessions.delete(previous);
      const { token, session } = await deps.dashboard.sessions.create(user.id);
      setSessionCookie(reply, request, token, session.expiresAt);
      return sessionJson(deps, session);
    },
  });

  app.route({
    ...dashboardSessionOperations.dashboardGetSession,
    onRequest: requireDashboardSession(deps),
    handler: async (request) => sessionJson(deps, request.dashboard!),
  });

  app.route({
    ...dashboardSessionOperations.dashboardSignOut,
    onRequest: async (request) => {
      // a live session is signed out only with its CSRF token (no forged sign-outs)
      const token = sessionToken(request);
      if (!token || !(await deps.dashboard.sessions.find(token))) return;
      const presented = request.headers['x-csrf-token'];
      if (!csrfTokenMatches(token, typeof presented === 'string' ? presented : undefined)) {
        throw new ServiceError('forbidden', 'missing or wrong x-csrf-token (the csrfToken of GET /v1/dashboard/session)');
      }
    },
    handler: async (request, reply) => {
      const token = sessionToken(request);
      if (token) await deps.dashboard.sessions.delete(token);
      clearSessionCookie(reply, request);
      return reply.code(204).send(null);
    },
  });
}
