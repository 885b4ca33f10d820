import { refusalOf } from './sse-stream.ts';
import type { FetchLike } from './types.ts';

/** What a request of the SSE session needs: where the server is and how to reach it. */
interface MeHost {
  readonly baseUrl: string;
  readonly fetch: FetchLike;
}

/**
 * `GET /v1/me` with `token`, for an SSE session with no stream open (sse-session.ts): who the token
 * is and when it expires, by the server's word, or the socket close code a refusal (or no answer)
 * amounts to.
 */
export async function askMe(
  host: MeHost,
  token: string,
): Promise<{ userId: unknown; expiresAt: unknown } | { code: number; reason: string; retryAfter?: number }> {
  const fetchImpl = host.fetch;
  try {
    const res = await fetchImpl(`${host.baseUrl}/v1/me`, { method: 'GET', headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
    if (res.status === 200) return JSON.parse(await res.text()) as { userId: unknown; expiresAt: unknown };
    return await refusalOf(res, 'GET /v1/me');
  } catch (error) {
    return { code: 1006, reason: `GET /v1/me got no answer: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** A new token checked by `GET /v1/me`: the `authenticated` frame answering `ref`, or its `error`. */
export async function renewalAnswer(host: MeHost, token: string, ref: unknown): Promise<Record<string, unknown>> {
  const fetchImpl = host.fetch;
  try {
    const res = await fetchImpl(`${host.baseUrl}/v1/me`, { method: 'GET', headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
    const text = await res.text();
    const body = (text ? JSON.parse(text) : {}) as Record<string, unknown>;
    return res.status === 200
      ? { op: 'authenticated', ref, expiresAt: body.expiresAt }
      : {
          op: 'error',
          ref,
          code: typeof body.code === 'string' ? body.code : 'unauthorized',
          reason: String(body.reason ?? `GET /v1/me answered ${res.status}`),
        };
  } catch (error) {
    return { op: 'error', ref, code: 'unavailable', reason: `GET /v1/me got no answer: ${error instanceof Error ? error.message : String(error)}` };
  }
}
