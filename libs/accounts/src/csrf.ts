/**
 * The dashboard's defence against cross-site request forgery, two checks on every
 * state-changing request (both pure; the gateway applies them):
 * 1. Origin: the `Origin` header (or, when a browser sent none, the `Referer`) must name the
 *    scheme, host and port the dashboard is served on. A request with neither header is not
 *    from a browser's form or script of another site (browsers send `Origin` on every
 *    cross-origin POST, PUT, PATCH and DELETE), so it is judged by the token alone.
 * 2. Token: the `x-csrf-token` header must carry the session's CSRF token, which is derived
 *    from the session id (HMAC-SHA256 keyed with it), answered by `GET /v1/dashboard/session`
 *    and never stored. Another site can neither read it nor compute it without the cookie, and
 *    it reveals nothing about the session id.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const LABEL = 'rtm dashboard csrf v1';

/** The CSRF token of a session (43 characters, base64url). */
export function csrfTokenFor(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update(LABEL).digest('base64url');
}

/** True when `presented` is the CSRF token of `sessionToken`; the comparison is constant-time. */
export function csrfTokenMatches(sessionToken: string, presented: string | undefined): boolean {
  if (typeof presented !== 'string' || presented.length === 0) return false;
  const expected = Buffer.from(csrfTokenFor(sessionToken), 'utf8');
  const given = Buffer.from(presented, 'utf8');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** `scheme://host[:port]`, lowercase, default port dropped; null when `text` is not an http(s) URL. */
export function originOf(text: string): string | null {
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin.toLowerCase();
  } catch {
    return null;
  }
}

/** The origin a request was made to, from its scheme and Host header (as the proxy reports them when trusted). */
export function servedOrigin(protocol: string, host: string): string | null {
  if (!/^https?$/.test(protocol) || host.length === 0 || /[/?#@\s]/.test(host)) return null;
  return originOf(`${protocol}://${host}`);
}

export type OriginVerdict = 'same' | 'foreign' | 'absent';

/**
 * Whether a request comes from the dashboard's own origin: `Origin` decides when present
 * (`null` and anything unparsable are foreign); otherwise `Referer`; with neither, `absent`.
 */
export function judgeOrigin(expected: string | null, origin: string | undefined, referer: string | undefined): OriginVerdict {
  const claimed = origin !== undefined ? origin : referer;
  if (claimed === undefined) return 'absent';
  if (expected === null) return 'foreign';
  return originOf(claimed.trim()) === expected ? 'same' : 'foreign';
}
