/**
 * Every error the service answers with is declared once here: code → HTTP status, default
 * reason, and whether the caller may retry. Route code throws `new ServiceError('forbidden',
 * 'not the sender')`; one handler per listener serialises it as `{code, reason}` with the
 * `x-service-error` header. Socket close codes live in one table beside it.
 */

export const ERRORS = {
  invalid_request: { status: 400, message: 'the request is invalid' },
  unauthorized: { status: 401, message: 'credential missing, malformed, unknown, revoked or expired' },
  origin_forbidden: { status: 403, message: 'secret keys must not be used from a browser (Origin header present)' },
  origin_not_allowed: { status: 403, message: 'this origin is not allowed for the publishable key' },
  forbidden: { status: 403, message: 'the credential is not allowed to do this' },
  banned: { status: 403, message: 'the user is banned' },
  not_found: { status: 404, message: 'not found' },
  webhooks_not_configured: { status: 404, message: 'no configuration with a webhook has been activated' },
  conflict: { status: 409, message: "the request conflicts with the resource's state" },
  payload_too_large: { status: 413, message: 'payload too large' },
  unsupported_media_type: { status: 415, message: 'the body must be application/json' },
  invalid_webhook_url: { status: 422, message: 'the webhook URL is not allowed' },
  rate_limited: { status: 429, message: 'rate limit exceeded' },
  quota_exceeded: { status: 429, message: 'a monthly quota of the environment is spent' },
  internal: { status: 500, message: 'internal error' },
  unavailable: { status: 503, message: 'temporarily unavailable; safe to retry' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** A spent monthly quota, as a `quota_exceeded` refusal names it (docs/quotas.md). */
export interface QuotaDetail {
  quota: 'monthlyMessages' | 'monthlyConnectionMinutes';
  limit: number;
  used: number;
  /** ISO 8601: the first instant of the next month (UTC). */
  resetsAt: string;
}

export class ServiceError extends Error {
  override name = 'ServiceError';
  readonly code: ErrorCode;
  readonly status: number;
  /** Shown to the caller; `undefined` keeps the envelope to `{code}`. */
  readonly reason: string | undefined;
  /** Seconds for the `retry-after` header (rate limits, draining). */
  readonly retryAfter: number | undefined;
  /** For `quota_exceeded`: which quota, its limit, what was used and when it resets (the envelope's `quota`). */
  readonly quota: QuotaDetail | undefined;

  constructor(code: ErrorCode, reason?: string, options?: { cause?: unknown; retryAfter?: number; quota?: QuotaDetail }) {
    super(reason ?? ERRORS[code].message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = ERRORS[code].status;
    this.reason = reason;
    this.retryAfter = options?.retryAfter;
    this.quota = options?.quota;
  }

  /** Transient failures: the same request may succeed later. */
  get retryable(): boolean {
    return this.code === 'unavailable' || this.code === 'rate_limited';
  }

  toJSON(): { code: ErrorCode; reason?: string; quota?: QuotaDetail } {
    const body: { code: ErrorCode; reason?: string; quota?: QuotaDetail } = { code: this.code };
    if (this.reason !== undefined) body.reason = this.reason;
    if (this.quota !== undefined) body.quota = this.quota;
    return body;
  }
}

export function isServiceError(value: unknown): value is ServiceError {
  return value instanceof ServiceError;
}

/**
 * WebSocket close codes mirror HTTP statuses. 4400-4499 tell the client not to reconnect with
 * the same request; 4500 and 4503 invite a reconnect (with `since`, to resume without a gap).
 */
export const CLOSE = {
  badRequest: 4400,
  unauthorized: 4401,
  forbidden: 4403,
  notFound: 4404,
  rateLimited: 4429,
  internal: 4500,
  unavailable: 4503,
} as const;

export type CloseCode = (typeof CLOSE)[keyof typeof CLOSE];

/** The close code that matches an error code, for refusing a socket. */
export function closeCodeFor(code: ErrorCode): CloseCode {
  const status = ERRORS[code].status;
  switch (status) {
    case 400:
    case 409:
    case 413:
    case 415:
    case 422:
      return CLOSE.badRequest;
    case 401:
      return CLOSE.unauthorized;
    case 403:
      return CLOSE.forbidden;
    case 404:
      return CLOSE.notFound;
    case 429:
      return CLOSE.rateLimited;
    case 503:
      return CLOSE.unavailable;
    default:
      return CLOSE.internal;
  }
}
