import { AUDIT_ID_PATTERN, ROLES, ROLE_DESCRIPTIONS, rightsOf } from '@rtm/accounts';
import { dashboardOrganizationOperations } from '@rtm/schemas';
import type { ZodApp } from '../../http/public-app.ts';
import type { GatewayDeps } from '../../deps.ts';
import { dashboardActor } from '../../dashboard/session-auth.ts';
import { decodeCursor, encodeCursor } from '../../http/list-cursor.ts';
import { auditJson, memberJson, membershipJson, organizationJson, sessionRoute } from './common.ts';

// the audit cursor is the last entry's id (list-cursor.ts)
const isAuditId = (id: string) => AUDIT_ID_PATTERN.test(id);

/** Control plane: the user's organizations, their members and roles, and the audit log. */
export async function dashboardOrganizationRoutes(app: ZodApp, deps: GatewayDeps) {
  const accounts = deps.dashboard.accounts;
  const secured = sessionRoute(deps);

  app.route({
    ...dashboardOrganizationOperations.dashboardListOrganizations,
    ...secured,
    handler: async (request) => ({ data: (await accounts.organizations.organizationsOf(dashboardActor(request).userId)).map(membershipJson) }),
  });

  app.route({
    ...dashboardOrganizationOperations.dashboardGetOrganization,
    ...secured,
    handler: async (request) => organizationJson(await accounts.organizations.organization(dashboardActor(request), request.params.orgId)),
  });

  app.route({
    ...dashboardOrganizationOperations.dashboardListRoles,
    ...secured,
    handler: async (request) => {
      await accounts.access.authorize(dashboardActor(request), { organizationId: request.params.orgId }, 'read');
      return { data: ROLES.map((role) => ({ role, description: ROLE_DESCRIPTIONS[role], rights: [...rightsOf(role)] })) };
    },
  });

  app.route({
    ...dashboardOrganizationOperations.dashboardListMembers,
    ...secured,
    handler: async (request) => ({ data: (await accounts.organizations.members(dashboardActor(request), request.params.orgId)).map(memberJson) }),
  });

  app.route({
    ...dashboardOrganizationOperations.dashboardSetMemberRole,
    ...secured,
    handler: async (request) =>
      memberJson(await accounts.organizations.setRole(dashboardActor(request), request.params.orgId, request.params.userId, request.body.role)),
  });

  app.route({
    ...dashboardOrganizationOperations.dashboardRemoveMember,
    ...secured,
    handler: async (request, reply) => {
      await accounts.organizations.removeMember(dashboardActor(request), request.params.orgId, request.params.userId);
      return reply.code(204).send(null);
    },
  });

  app.route({
    ...dashboardOrganizationOperations.dashboardListAudit,
    ...secured,
    handler: async (request) => {
      const limit = request.query.limit ?? 50;
      const before = request.query.cursor === undefined ? undefined : decodeCursor(request.query.cursor, isAuditId);
      const { entries, more } = await accounts.organizations.audit(dashboardActor(request), request.params.orgId, { limit, before });
      return { data: entries.map(auditJson), nextCursor: more ? encodeCursor(entries[entries.length - 1]!.id) : null };
    },
  });
}
