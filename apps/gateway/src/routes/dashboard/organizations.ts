import { z } from 'zod';
import { AUDIT_ID_PATTERN, ROLES, ROLE_DESCRIPTIONS, rightsOf } from '@rtm/accounts';
import {
  DashboardAuditPage,
  DashboardAuditQuery,
  DashboardMember,
  DashboardMemberList,
  DashboardMemberParams,
  DashboardOrganization,
  DashboardOrganizationList,
  DashboardOrgParams,
  DashboardRoleList,
  DashboardSetRoleBody,
} from '@rtm/schemas';
import type { ZodApp } from '../../http/public-app.ts';
import type { GatewayDeps } from '../../deps.ts';
import { dashboardActor } from '../../dashboard/session-auth.ts';
import { decodeCursor, encodeCursor } from '../../http/list-cursor.ts';
import {
  CSRF_NOTE,
  SESSION_SECURITY,
  TAGS,
  auditJson,
  csrfHeaders,
  memberJson,
  membershipJson,
  organizationJson,
  readErrors,
  sessionRoute,
  writeErrors,
} from './common.ts';

// the audit cursor is the last entry's id (list-cursor.ts)
const isAuditId = (id: string) => AUDIT_ID_PATTERN.test(id);

/** Control plane: the user's organizations, their members and roles, and the audit log. */
export async function dashboardOrganizationRoutes(app: ZodApp, deps: GatewayDeps) {
  const accounts = deps.dashboard.accounts;
  const secured = sessionRoute(deps);

  app.get(
    '/v1/dashboard/organizations',
    {
      ...secured,
      schema: {
        operationId: 'dashboardListOrganizations',
        description: 'Every organization the signed-in user is a member of, with the role they hold in it.',
        summary: 'The organizations of the signed-in user, with their role',
        tags: TAGS,
        security: SESSION_SECURITY,
        response: { 200: DashboardOrganizationList, ...readErrors },
      },
    },
    async (request) => ({ data: (await accounts.organizations.organizationsOf(dashboardActor(request).userId)).map(membershipJson) }),
  );

  app.get(
    '/v1/dashboard/organizations/:orgId',
    {
      ...secured,
      schema: {
        operationId: 'dashboardGetOrganization',
        summary: 'One organization',
        description: 'Any member. An organization the user is not a member of is 404 `not_found`, like an unknown one.',
        tags: TAGS,
        security: SESSION_SECURITY,
        params: DashboardOrgParams,
        response: { 200: DashboardOrganization, ...readErrors },
      },
    },
    async (request) => organizationJson(await accounts.organizations.organization(dashboardActor(request), request.params.orgId)),
  );

  app.get(
    '/v1/dashboard/organizations/:orgId/roles',
    {
      ...secured,
      schema: {
        operationId: 'dashboardListRoles',
        summary: 'The roles of an organization and what each may do',
        description:
          '`read`: see everything; `manage`: projects, environments, keys, origins (and the environments\' other ' +
          'settings); `administer`: invitations, roles and members. Any member.',
        tags: TAGS,
        security: SESSION_SECURITY,
        params: DashboardOrgParams,
        response: { 200: DashboardRoleList, ...readErrors },
      },
    },
    async (request) => {
      await accounts.access.authorize(dashboardActor(request), { organizationId: request.params.orgId }, 'read');
      return { data: ROLES.map((role) => ({ role, description: ROLE_DESCRIPTIONS[role], rights: [...rightsOf(role)] })) };
    },
  );

  app.get(
    '/v1/dashboard/organizations/:orgId/members',
    {
      ...secured,
      schema: {
        operationId: 'dashboardListMembers',
        summary: 'The members of an organization and their roles',
        description: 'Any member; oldest member first.',
        tags: TAGS,
        security: SESSION_SECURITY,
        params: DashboardOrgParams,
        response: { 200: DashboardMemberList, ...readErrors },
      },
    },
    async (request) => ({ data: (await accounts.organizations.members(dashboardActor(request), request.params.orgId)).map(memberJson) }),
  );

  app.put(
    '/v1/dashboard/organizations/:orgId/members/:userId',
    {
      ...secured,
      schema: {
        operationId: 'dashboardSetMemberRole',
        summary: 'Change a member\'s role',
        description:
          'Owners only (403 otherwise). The last owner can not be demoted (400 `invalid_request`): an organization ' +
          'always keeps one. A user who is not a member: 404. A move to a lower role revokes the logs tokens the member ' +
          'minted for the organization\'s environments (their logs sockets close with 4401 on every gateway).' + CSRF_NOTE,
        tags: TAGS,
        security: SESSION_SECURITY,
        headers: csrfHeaders,
        params: DashboardMemberParams,
        body: DashboardSetRoleBody,
        response: { 200: DashboardMember, ...writeErrors },
      },
    },
    async (request) =>
      memberJson(await accounts.organizations.setRole(dashboardActor(request), request.params.orgId, request.params.userId, request.body.role)),
  );

  app.delete(
    '/v1/dashboard/organizations/:orgId/members/:userId',
    {
      ...secured,
      schema: {
        operationId: 'dashboardRemoveMember',
        summary: 'Remove a member (or leave)',
        description:
          'Owners remove anyone; any member may remove themselves. Never the last owner (400 `invalid_request`). The ' +
          'removed user keeps their account and loses access to the organization at once; the logs tokens they minted ' +
          'are revoked and their logs sockets close with 4401 on every gateway.' + CSRF_NOTE,
        tags: TAGS,
        security: SESSION_SECURITY,
        headers: csrfHeaders,
        params: DashboardMemberParams,
        response: { 204: z.null().describe('Removed'), ...writeErrors },
      },
    },
    async (request, reply) => {
      await accounts.organizations.removeMember(dashboardActor(request), request.params.orgId, request.params.userId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v1/dashboard/organizations/:orgId/audit',
    {
      ...secured,
      schema: {
        operationId: 'dashboardListAudit',
        summary: 'The organization\'s audit log',
        description:
          'Every change, newest first: who (a user, or `cli` for the operator\'s admin CLI), what (`action`, `target`, ' +
          '`details`), when. `limit` default 50, maximum 200; `cursor` is the `nextCursor` of the previous page. Any member.',
        tags: TAGS,
        security: SESSION_SECURITY,
        params: DashboardOrgParams,
        querystring: DashboardAuditQuery,
        response: { 200: DashboardAuditPage, ...readErrors },
      },
    },
    async (request) => {
      const limit = request.query.limit ?? 50;
      const before = request.query.cursor === undefined ? undefined : decodeCursor(request.query.cursor, isAuditId);
      const { entries, more } = await accounts.organizations.audit(dashboardActor(request), request.params.orgId, { limit, before });
      return { data: entries.map(auditJson), nextCursor: more ? encodeCursor(entries[entries.length - 1]!.id) : null };
    },
  );
}
