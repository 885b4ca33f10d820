/**
 * When to renew the connection's token. The server says when the token expires (`expiresAt` of
 * `connected` / `authenticated`, its clock); the SDK renews a lead time before that, by the local
 * clock:
 *
 *   lead  = 20 % of the token's lifetime, at least 2 s and at most 60 s
 *   delay = max(floor, expiresAt − now − lead), floor = max(1 s, 10 % of the lifetime)
 *
 * A one-hour token is renewed a minute before it expires, a 10 s token 2 s before. The floor keeps
 * a client whose clock runs ahead of the server's (so that every token looks already expired) from
 * renewing in a tight loop: it renews at most ten times per token lifetime, and if that is too
 * late the server's 4401 makes it reconnect with a new token.
 *
 * The lifetime is read from the JWT's `iat` and `exp` claims when the token is a JWT (the SDK
 * only reads them, it never verifies anything); otherwise it is the time left when the server
 * announced the expiry.
 */
export const MIN_LEAD_MS = 2_000;
export const MAX_LEAD_MS = 60_000;
export const MIN_DELAY_MS = 1_000;

export function renewalDelayMs(expiresAtMs: number, nowMs: number, lifetimeMs?: number): number {
  const remaining = expiresAtMs - nowMs;
  const lifetime = lifetimeMs !== undefined && lifetimeMs > 0 ? lifetimeMs : Math.max(remaining, 0);
  const lead = Math.min(MAX_LEAD_MS, Math.max(MIN_LEAD_MS, lifetime * 0.2));
  const floor = Math.max(MIN_DELAY_MS, lifetime * 0.1);
  return Math.max(floor, remaining - lead);
}

/** The lifetime (exp − iat, in ms) of a JWT, or undefined when it is not a JWT with both claims. */
export function tokenLifetimeMs(token: string): number | undefined {
  const claims = jwtClaims(token);
  if (!claims) return undefined;
  const { iat, exp } = claims;
  if (typeof iat !== 'number' || typeof exp !== 'number' || exp <= iat) return undefined;
  return (exp - iat) * 1000;
}

/** The expiry (ms since the epoch) a JWT states, or undefined. */
export function tokenExpiryMs(token: string): number | undefined {
  const exp = jwtClaims(token)?.exp;
  return typeof exp === 'number' ? exp * 1000 : undefined;
}

/** The user a JWT names (`sub`), or undefined: read only, never verified. */
export function tokenSubject(token: string): string | undefined {
  const sub = jwtClaims(token)?.sub;
  return typeof sub === 'string' ? sub : undefined;
}

function jwtClaims(token: string): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts[1]) return undefined;
  try {
    const base64 = parts[1].replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return claims !== null && typeof claims === 'object' && !Array.isArray(claims) ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
