import { z } from 'zod';
import { ErrorBody } from '../../common.ts';
import { DashboardOptionalCsrfHeaders, DashboardSession, DashboardSignInBody } from '../../dashboard.ts';
import type { Operations } from '../operation.ts';
import { CSRF_NOTE, SESSION_SECURITY, TAGS, readErrors } from './common.ts';

/** Control plane: `/v1/dashboard/session`: sign in, the current session, sign out. */
export const dashboardSessionOperations = {
  dashboardSignIn: {
    method: 'POST',
    url: '/v1/dashboard/session',
    schema: {
      operationId: 'dashboardSignIn',
      security: [],
      summary: 'Sign in to the dashboard',
      description:
        'Checks the e-mail and password and sets the session cookie `dashboard_session` (HttpOnly, SameSite=Lax, ' +
        'Path=/, Secure over https). A wrong password and an unknown e-mail are the same 401 `unauthorized` and take ' +
        'the same time (an unknown e-mail is not hashed: it waits as long as a recent check did). Failed sign-ins are ' +
        'limited per e-mail address from one client address and per client address, an IPv6 client counted by its ' +
        '/64 (DASHBOARD_LOGIN_FAILURES_PER_ACCOUNT, _PER_IP within DASHBOARD_LOGIN_WINDOW; 5 and 20 in 15 ' +
        'minutes by default): over either, 429 `rate_limited` with `retry-after`, without checking the password. ' +
        'Across addresses an e-mail address is slowed down, never locked: from 5 failures on, an address with ' +
        'failures of its own waits a delay that doubles with each failure (1 s up to DASHBOARD_LOGIN_DELAY_MAX) ' +
        'after the latest one (429 with `retry-after` until then); an address with no recent failures is never ' +
        'slowed. 503 `unavailable` with `retry-after` when this gateway has too many password checks waiting; checks ' +
        'from addresses with no recent failures go first, and a 503 counts as a failure for an address that has ' +
        "failures. An `email` with control characters is 400. A browser's " +
        "`Origin` must be the dashboard's own (403 otherwise). A session the cookie already named ends. The answer " +
        'carries the CSRF token for later changes.',
      tags: TAGS,
      body: DashboardSignInBody,
      response: { 200: DashboardSession, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 429: ErrorBody, 503: ErrorBody },
    },
  },
  dashboardGetSession: {
    method: 'GET',
    url: '/v1/dashboard/session',
    schema: {
      operationId: 'dashboardGetSession',
      summary: 'The signed-in user, their organizations and roles',
      description:
        "Also answers the session's CSRF token (send it as `x-csrf-token` on every change) and when the session " +
        'ends: `idleExpiresAt` (each request moves it on) and `expiresAt` (fixed at sign-in). 401 without a live session.',
      tags: TAGS,
      security: SESSION_SECURITY,
      response: { 200: DashboardSession, ...readErrors },
    },
  },
  dashboardSignOut: {
    method: 'DELETE',
    url: '/v1/dashboard/session',
    schema: {
      operationId: 'dashboardSignOut',
      summary: 'Sign out',
      description:
        'Ends the session and clears the cookie; the logs tokens the session minted are revoked and their logs ' +
        'sockets close with 4401 on every gateway before the answer. Without a live session there is nothing to ' +
        'end: 204 as well.' +
        CSRF_NOTE,
      tags: TAGS,
      security: SESSION_SECURITY,
      headers: DashboardOptionalCsrfHeaders,
      response: { 204: z.null().describe('Signed out'), ...readErrors, 413: ErrorBody, 415: ErrorBody },
    },
  },
} as const satisfies Operations;
