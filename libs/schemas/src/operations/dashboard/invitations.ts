import { ErrorBody } from '../../common.ts';
import {
  DashboardAcceptInvitationBody,
  DashboardCreatedInvitation,
  DashboardInvitation,
  DashboardInvitationList,
  DashboardInvitationParams,
  DashboardInvitationPreview,
  DashboardInvitationTokenParams,
  DashboardInviteBody,
  DashboardOrgParams,
  DashboardSession,
} from '../../dashboard.ts';
import type { Operations } from '../operation.ts';
import { CSRF_NOTE, SESSION_SECURITY, TAGS, csrfHeaders, readErrors, writeErrors } from './common.ts';

/** Control plane: invitations to an organization (owners make them; anyone with the link accepts). */
export const dashboardInvitationOperations = {
  dashboardCreateInvitation: {
    method: 'POST',
    url: '/v1/dashboard/organizations/:orgId/invitations',
    schema: {
      operationId: 'dashboardCreateInvitation',
      summary: 'Invite someone to the organization',
      description:
        'Owners only. Answers a single-use link, valid for DASHBOARD_INVITATION_TTL (7 days by default); the token is ' +
        'shown only here (stored hashed). No mail is sent: pass the link on (outside production it is also written ' +
        "to the gateway's log). With `email`, only that address may accept. Whoever accepts for an address without an " +
        'account proves it with a code mailed to it.' +
        CSRF_NOTE,
      tags: TAGS,
      security: SESSION_SECURITY,
      headers: csrfHeaders,
      params: DashboardOrgParams,
      body: DashboardInviteBody,
      response: { 201: DashboardCreatedInvitation, ...writeErrors },
    },
  },
  dashboardListInvitations: {
    method: 'GET',
    url: '/v1/dashboard/organizations/:orgId/invitations',
    schema: {
      operationId: 'dashboardListInvitations',
      summary: "The organization's invitations (newest 100), with their state",
      description: 'Any member. Tokens are never shown again.',
      tags: TAGS,
      security: SESSION_SECURITY,
      params: DashboardOrgParams,
      response: { 200: DashboardInvitationList, ...readErrors },
    },
  },
  dashboardRevokeInvitation: {
    method: 'DELETE',
    url: '/v1/dashboard/organizations/:orgId/invitations/:invitationId',
    schema: {
      operationId: 'dashboardRevokeInvitation',
      summary: 'Revoke a pending invitation',
      description: 'Owners only. An accepted or expired invitation: 400. Revoking twice answers the revoked one.' + CSRF_NOTE,
      tags: TAGS,
      security: SESSION_SECURITY,
      headers: csrfHeaders,
      params: DashboardInvitationParams,
      response: { 200: DashboardInvitation, ...writeErrors },
    },
  },
  dashboardPreviewInvitation: {
    method: 'GET',
    url: '/v1/dashboard/invitations/:token',
    schema: {
      operationId: 'dashboardPreviewInvitation',
      security: [],
      summary: 'What an invitation offers',
      description: 'No session needed: the token is the credential. Unknown, used, revoked or expired: 404 `not_found`.',
      tags: TAGS,
      params: DashboardInvitationTokenParams,
      response: { 200: DashboardInvitationPreview, 400: ErrorBody, 404: ErrorBody, 503: ErrorBody },
    },
  },
  dashboardAcceptInvitation: {
    method: 'POST',
    url: '/v1/dashboard/invitations/:token/accept',
    schema: {
      operationId: 'dashboardAcceptInvitation',
      security: [],
      summary: 'Accept an invitation (and sign in)',
      description:
        "For the invitation's e-mail (or, when it names none, `email`). Without `code`, only an existing account " +
        'joins, once its `password` is right (throttled like sign-in); a wrong password and an address without an ' +
        'account are the same 401 `unauthorized`, and the invitation stays usable. A new account needs `code`, a ' +
        'verification code mailed to the address (POST /v1/dashboard/email-verifications): with it, a new account is ' +
        'made with `password` (at least 10 characters), or an existing one joins with its password; a wrong, used or ' +
        'expired code is 401. So no invitation makes an account for an address nobody proved to own. The invitation ' +
        'then is used up: a second acceptance is 404. An existing member keeps their role. Signs in: sets the ' +
        "session cookie and answers the session. A browser's `Origin` must be the dashboard's own.",
      tags: TAGS,
      params: DashboardInvitationTokenParams,
      body: DashboardAcceptInvitationBody,
      response: {
        200: DashboardSession,
        400: ErrorBody,
        401: ErrorBody,
        403: ErrorBody,
        404: ErrorBody,
        413: ErrorBody,
        415: ErrorBody,
        429: ErrorBody,
        503: ErrorBody,
      },
    },
  },
} as const satisfies Operations;
