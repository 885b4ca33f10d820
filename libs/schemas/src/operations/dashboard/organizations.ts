import { z } from 'zod';
import {
  DashboardAuditPage,
  DashboardAuditQuery,
  DashboardMember,
  DashboardMemberList,
  DashboardMemberParams,
  DashboardOrgParams,
  DashboardOrganization,
  DashboardOrganizationList,
  DashboardRoleList,
  DashboardSetRoleBody,
} from '../../dashboard.ts';
import type { Operations } from '../operation.ts';
import { CSRF_NOTE, SESSION_SECURITY, TAGS, csrfHeaders, readErrors, writeErrors } from './common.ts';

/** Control plane: the user's organizations, their members and roles, and the audit log. */
export const dashboardOrganizationOperations = {
  dashboardListOrganizations: {
    method: 'GET',
    url: '/v1/dashboard/organizations',
    schema: {
      operationId: 'dashboardListOrganizations',
      description: 'Every organization the signed-in user is a member of, with the role they hold in it.',
      summary: 'The organizations of the signed-in user, with their role',
      tags: TAGS,
      security: SESSION_SECURITY,
      response: { 200: DashboardOrganizationList, ...readErrors },
    },
  },
  dashboardGetOrganization: {
    method: 'GET',
    url: '/v1/dashboard/organizations/:orgId',
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
  dashboardListRoles: {
    method: 'GET',
    url: '/v1/dashboard/organizations/:orgId/roles',
    schema: {
      operationId: 'dashboardListRoles',
      summary: 'The roles of an organization and what each may do',
      description:
        "`read`: see everything; `manage`: projects, environments, keys, origins (and the environments' other " +
        'settings); `administer`: invitations, roles and members. Any member.',
      tags: TAGS,
      security: SESSION_SECURITY,
      params: DashboardOrgParams,
      response: { 200: DashboardRoleList, ...readErrors },
    },
  },
  dashboardListMembers: {
    method: 'GET',
    url: '/v1/dashboard/organizations/:orgId/members',
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
  dashboardSetMemberRole: {
    method: 'PUT',
    url: '/v1/dashboard/organizations/:orgId/members/:userId',
    schema: {
      operationId: 'dashboardSetMemberRole',
      summary: "Change a member's role",
      description:
        'Owners only (403 otherwise). The last owner can not be demoted (400 `invalid_request`): an organization ' +
        'always keeps one. A user who is not a member: 404. A move to a lower role revokes the logs tokens the member ' +
        "minted for the organization's environments (their logs sockets close with 4401 on every gateway)." +
        CSRF_NOTE,
      tags: TAGS,
      security: SESSION_SECURITY,
      headers: csrfHeaders,
      params: DashboardMemberParams,
      body: DashboardSetRoleBody,
      response: { 200: DashboardMember, ...writeErrors },
    },
  },
  dashboardRemoveMember: {
    method: 'DELETE',
    url: '/v1/dashboard/organizations/:orgId/members/:userId',
    schema: {
      operationId: 'dashboardRemoveMember',
      summary: 'Remove a member (or leave)',
      description:
        'Owners remove anyone; any member may remove themselves. Never the last owner (400 `invalid_request`). The ' +
        'removed user keeps their account and loses access to the organization at once; the logs tokens they minted ' +
        'are revoked and their logs sockets close with 4401 on every gateway.' +
        CSRF_NOTE,
      tags: TAGS,
      security: SESSION_SECURITY,
      headers: csrfHeaders,
      params: DashboardMemberParams,
      response: { 204: z.null().describe('Removed'), ...writeErrors },
    },
  },
  dashboardListAudit: {
    method: 'GET',
    url: '/v1/dashboard/organizations/:orgId/audit',
    schema: {
      operationId: 'dashboardListAudit',
      summary: "The organization's audit log",
      description:
        "Every change, newest first: who (a user, or `cli` for the operator's admin CLI), what (`action`, `target`, " +
        '`details`), when. `limit` default 50, maximum 200; `cursor` is the `nextCursor` of the previous page. Any member.',
      tags: TAGS,
      security: SESSION_SECURITY,
      params: DashboardOrgParams,
      querystring: DashboardAuditQuery,
      response: { 200: DashboardAuditPage, ...readErrors },
    },
  },
} as const satisfies Operations;
