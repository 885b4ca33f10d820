/**
 * Allowed origins are stored as `scheme://host[:port]`: lowercase, default port dropped, no
 * path, so `HTTPS://App.Example.com/` and `https://app.example.com` are the same origin and the
 * gateway compares a browser's `Origin` header with a plain string match.
 */
export type OriginCheck = { ok: true; origin: string } | { ok: false; reason: string };

/**
 * A browser's `Origin` header in the stored form, for comparison: scheme://host[:port],
 * lowercase, default port dropped; a value that is not a URL (e.g. `null`) compares as itself,
 * trimmed, lowercase, without trailing slashes, so it matches no stored origin.
 */
export function normaliseOrigin(origin: string): string {
  try {
    return new URL(origin.trim()).origin.toLowerCase();
  } catch {
    return origin.trim().toLowerCase().replace(/\/+$/, '');
  }
}

/** An origin a tenant allows, checked and put in the stored form (`normaliseOrigin`'s). */
export function normaliseAllowedOrigin(text: string): OriginCheck {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { ok: false, reason: `"${text}" is not an origin like https://app.example.com` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'an origin must be http or https' };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'an origin has no user name or password' };
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '') {
    return { ok: false, reason: 'an origin has no path, query or fragment (scheme://host[:port])' };
  }
  return { ok: true, origin: normaliseOrigin(url.origin) };
}
