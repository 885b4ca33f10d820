import { z } from 'zod';
import { ErrorBody } from '../../common.ts';
import { DashboardCodeRequested, DashboardEmailBody, DashboardResetConfirmBody } from '../../dashboard.ts';
import type { Operations } from '../operation.ts';
import { TAGS } from './common.ts';

const SAME_ANSWER =
  ' The answer is the same 202, and the work before it the same, whether or not an account uses the address: only the ' +
  'mailbox learns. Codes are 8 digits, valid DASHBOARD_EMAIL_CODE_TTL (15 minutes by default), used once, and die after ' +
  '5 wrong guesses. Asking is limited per e-mail address (DASHBOARD_EMAIL_CODES_PER_EMAIL, 5 an hour, both kinds ' +
  'together) and per client address (DASHBOARD_EMAIL_CODES_PER_IP, 20 an hour): over either, 429 `rate_limited` with ' +
  "`retry-after`. The mail goes through DASHBOARD_MAIL_SENDER (`log`: the gateway's log). A browser's `Origin` must be " +
  "the dashboard's own (403 otherwise).";

const requestErrors = { 400: ErrorBody, 403: ErrorBody, 413: ErrorBody, 415: ErrorBody, 429: ErrorBody, 503: ErrorBody };

/** Control plane: codes mailed to prove an e-mail address (a new account's, a password reset's). No session. */
export const dashboardEmailCodeOperations = {
  dashboardRequestEmailVerification: {
    method: 'POST',
    url: '/v1/dashboard/email-verifications',
    schema: {
      operationId: 'dashboardRequestEmailVerification',
      security: [],
      summary: 'Mail a verification code to an e-mail address',
      description:
        'The code proves the address: accepting an invitation makes a new account only with it (`code` of ' +
        'POST /v1/dashboard/invitations/{token}/accept).' +
        SAME_ANSWER,
      tags: TAGS,
      body: DashboardEmailBody,
      response: { 202: DashboardCodeRequested, ...requestErrors },
    },
  },
  dashboardRequestPasswordReset: {
    method: 'POST',
    url: '/v1/dashboard/password-resets',
    schema: {
      operationId: 'dashboardRequestPasswordReset',
      security: [],
      summary: 'Mail a password reset code',
      description:
        'When an account uses the address, the mail holds a code for POST /v1/dashboard/password-resets/confirm; ' +
        'otherwise it says that no account uses it.' +
        SAME_ANSWER,
      tags: TAGS,
      body: DashboardEmailBody,
      response: { 202: DashboardCodeRequested, ...requestErrors },
    },
  },
  dashboardConfirmPasswordReset: {
    method: 'POST',
    url: '/v1/dashboard/password-resets/confirm',
    schema: {
      operationId: 'dashboardConfirmPasswordReset',
      security: [],
      summary: 'Set a new password with a reset code',
      description:
        "Sets the account's password and signs every session of the account out (on every gateway; logs tokens it " +
        'minted stop working); then sign in with the new password. A wrong, used or expired code, or an address ' +
        "without an account: 401 `unauthorized`, the same answer (a wrong guess counts against the address's live " +
        "codes). A new password of fewer than 10 characters: 400. A browser's `Origin` must be the dashboard's own.",
      tags: TAGS,
      body: DashboardResetConfirmBody,
      response: { 204: z.null().describe('The password is set; every session of the account has ended'), 401: ErrorBody, ...requestErrors },
    },
  },
} as const satisfies Operations;
