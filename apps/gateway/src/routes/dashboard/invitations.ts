import { dashboardInvitationOperations } from '@rtm/schemas';
import type { ZodApp } from '../../http/public-app.ts';
import type { GatewayDeps } from '../../deps.ts';
import { dashboardActor, requestOrigin, setSessionCookie } from '../../dashboard/session-auth.ts';
import { clientAddress, invitationJson, sessionJson, sessionRoute } from './common.ts';

/** Control plane: invitations to an organization (owners make them; anyone with the link accepts). */
export async function dashboardInvitationRoutes(app: ZodApp, deps: GatewayDeps) {
  const accounts = deps.dashboard.accounts;
  const secured = sessionRoute(deps);

  app.route({
    ...dashboardInvitationOperations.dashboardCreateInvitation,
    ...secured,
    handler: async (request, reply) => {
      const { invitation, token } = await accounts.invitations.invite(dashboardActor(request), request.params.orgId, request.body);
      const link = `${requestOrigin(request) ?? ''}/dashboard/accept-invitation#${token}`;
      if (deps.config.NODE_ENV !== 'production') {
        request.log.info({ organizationId: invitation.organizationId, role: invitation.role, link }, 'invitation created');
      }
      return reply.code(201).send({ ...invitationJson(invitation), token, link });
    },
  });

  app.route({
    ...dashboardInvitationOperations.dashboardListInvitations,
    ...secured,
    handler: async (request) => ({ data: (await accounts.invitations.list(dashboardActor(request), request.params.orgId)).map(invitationJson) }),
  });

  app.route({
    ...dashboardInvitationOperations.dashboardRevokeInvitation,
    ...secured,
    handler: async (request) => invitationJson(await accounts.invitations.revoke(dashboardActor(request), request.params.orgId, request.params.invitationId)),
  });

  app.route({
    ...dashboardInvitationOperations.dashboardPreviewInvitation,
    handler: async (request) => {
      const preview = await accounts.invitations.preview(request.params.token);
      return {
        organization: { id: preview.organizationId, name: preview.organizationName },
        role: preview.role,
        email: preview.email,
        expiresAt: preview.expiresAt.toISOString(),
      };
    },
  });

  app.route({
    ...dashboardInvitationOperations.dashboardAcceptInvitation,
    handler: async (request, reply) => {
      const accepted = await accounts.invitations.accept(request.params.token, request.body, clientAddress(request));
      const { token, session } = await deps.dashboard.sessions.create(accepted.user.id);
      setSessionCookie(reply, request, token, session.expiresAt);
      return sessionJson(deps, session);
    },
  });
}
