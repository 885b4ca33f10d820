import { sleep, type Clock } from './clock.ts';
import { backoffDelay } from './backoff.ts';
import { RtmError } from './errors.ts';
import type { FetchLike } from './types.ts';

/** What the HTTP helper needs from the client. */
export interface HttpContext {
  baseUrl: string;
  fetch: FetchLike | undefined;
  clock: Clock;
  random: () => number;
  /** The current token (`fresh`: obtain a new one from getToken). */
  token(fresh: boolean): Promise<string>;
}

/** Tries of one request before its last error is thrown. */
const MAX_TRIES = 4;

/**
 * A GET on the realtime edge with the user's token. Retries what is safe to retry: a 401 once with
 * a new token, a 429 after its `retry-after` (seconds), a 503 or a network failure with backoff.
 * Any other refusal is thrown as an RtmError with the envelope's code and reason.
 */
export async function getJson<T>(ctx: HttpContext, path: string, query: Record<string, number | undefined> = {}): Promise<T> {
  const fetchImpl = ctx.fetch ?? (globalThis as { fetch?: FetchLike }).fetch;
  if (!fetchImpl) throw new RtmError('invalid_request', 'no fetch: pass the fetch option');
  const params = Object.entries(query)
    .filter((entry): entry is [string, number] => entry[1] !== undefined)
    .map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`)
    .join('&');
  const url = ctx.baseUrl + path + (params ? `?${params}` : '');
  let freshToken = false;
  let last: RtmError | undefined;
  for (let attempt = 0; attempt < MAX_TRIES; attempt++) {
    const token = await ctx.token(freshToken);
    let res: Awaited<ReturnType<FetchLike>>;
    try {
      res = await fetchImpl(url, { method: 'GET', headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
    } catch (error) {
      last = new RtmError('network', error instanceof Error ? error.message : String(error), { cause: error });
      await sleep(ctx.clock, backoffDelay(attempt, 500, 5_000, ctx.random));
      continue;
    }
    const text = await res.text();
    let body: unknown;
    try {
      body = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (res.status >= 200 && res.status < 300) return body as T;
    const envelope = (body ?? {}) as { code?: unknown; reason?: unknown };
    const code = typeof envelope.code === 'string' ? envelope.code : `http_${res.status}`;
    const reason = typeof envelope.reason === 'string' ? envelope.reason : undefined;
    const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
    last = new RtmError(code, reason, { retryAfter });
    if (res.status === 401 && !freshToken) {
      freshToken = true;
      continue;
    }
    if (res.status === 429) {
      // at least what the server asked for; a second if it did not say
      await sleep(ctx.clock, (retryAfter ?? 1) * 1000);
      continue;
    }
    if (res.status === 503 || res.status === 502 || res.status === 504) {
      await sleep(ctx.clock, Math.max((retryAfter ?? 0) * 1000, backoffDelay(attempt, 500, 5_000, ctx.random)));
      continue;
    }
    throw last;
  }
  throw last!;
}

/** `retry-after` in seconds (delta-seconds or an HTTP date), or undefined. */
export function parseRetryAfter(value: string | null, nowMs: number = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - nowMs) / 1000));
}
