import type { ErrorCode } from '@rtm/errors';

/**
 * A non-2xx answer of the control plane, built from its error envelope `{code, reason?}`.
 * Branch on `code` (the service's error table), not on `status` alone.
 */
export class ServerError extends Error {
  override name = 'ServerError';
  /** HTTP status of the answer. */
  readonly status: number;
  /**
   * The envelope's `code`; `http_error` when the answer carried no envelope (a proxy in
   * between, for instance): `reason` then holds the start of its body.
   */
  readonly code: ErrorCode | 'http_error';
  /** The envelope's `reason`, when the service gave one. */
  readonly reason: string | undefined;
  /** Seconds from the `retry-after` header (429 `rate_limited`, 503 `unavailable`), when sent. */
  readonly retryAfter: number | undefined;

  constructor(init: { status: number; code: ErrorCode | 'http_error'; reason?: string; retryAfter?: number }) {
    super(init.reason === undefined ? `${init.status} ${init.code}` : `${init.status} ${init.code}: ${init.reason}`);
    this.status = init.status;
    this.code = init.code;
    this.reason = init.reason;
    this.retryAfter = init.retryAfter;
  }

  /** Transient refusals: the same request may succeed later (after `retryAfter`, when given). */
  get retryable(): boolean {
    return this.code === 'rate_limited' || this.code === 'unavailable';
  }

  /** The error of a non-2xx `response` whose body (parsed as JSON when it was JSON) is `body`. */
  static fromResponse(response: Response, body: unknown): ServerError {
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
    const envelope = body as { code?: unknown; reason?: unknown } | null;
    if (envelope && typeof envelope === 'object' && typeof envelope.code === 'string') {
      return new ServerError({
        status: response.status,
        code: envelope.code as ErrorCode,
        reason: typeof envelope.reason === 'string' ? envelope.reason : undefined,
        retryAfter,
      });
    }
    const text = typeof body === 'string' ? body.trim().slice(0, 200) : '';
    return new ServerError({
      status: response.status,
      code: (response.headers.get('x-service-error') as ErrorCode | null) ?? 'http_error',
      reason: text === '' ? response.statusText || undefined : text,
      retryAfter,
    });
  }
}

/** `retry-after` as seconds: a number of seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

type Outcome<T> = { data?: T; error?: unknown; response: Response };

/** The data of a 2xx answer; a ServerError built from the envelope otherwise. */
export async function expect<T>(call: Promise<Outcome<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  throw ServerError.fromResponse(response, error);
}

/** As `expect`, with a 404 `not_found` answered as null. */
export async function orNull<T>(call: Promise<Outcome<T>>): Promise<T | null> {
  try {
    return await expect(call);
  } catch (error) {
    if (error instanceof ServerError && error.status === 404 && error.code === 'not_found') return null;
    throw error;
  }
}
