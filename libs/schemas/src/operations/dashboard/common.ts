/** What every dashboard operation shares: its OpenAPI tag and security, and the errors it may answer. */
import { ErrorBody } from '../../common.ts';
import { DashboardCsrfHeaders } from '../../dashboard.ts';
import { SESSION } from '../operation.ts';

export const TAGS = ['dashboard'];
export const SESSION_SECURITY = SESSION;
export const common = { tags: TAGS, security: SESSION_SECURITY };

/** Reads: no session 401, a malformed id 400, another organization's (or an unknown) id 404. */
export const readErrors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 503: ErrorBody };
/** Changes also: 403 for a role without the right or a failed CSRF check, 413/415 for bodies. */
export const writeErrors = { ...readErrors, 413: ErrorBody, 415: ErrorBody };

export const CSRF_NOTE =
  " Needs the session cookie, the `x-csrf-token` header (the session's `csrfToken`) and, from a browser, an `Origin` " +
  'of the dashboard itself; otherwise 403 `forbidden`.';

/** Changes name the CSRF header they need. */
export const csrfHeaders = DashboardCsrfHeaders;

export const MANAGE = ' Admins and owners (403 for viewers).';
/** Routes that show a webhook URL: a receiver may take a credential in it (docs/webhook-endpoints.md). */
export const URL_FOR_VIEWERS =
  ' A viewer reads each webhook URL redacted (userinfo and query values masked, e.g. `?token=***`; the fragment dropped); admins and owners read it whole.';
