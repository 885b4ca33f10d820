/**
 * The one error type of the SDK. `code` is either a code of the service's error envelope
 * (`forbidden`, `banned`, `rate_limited`, `unavailable`, `unauthorized`, `invalid_request`, …)
 * or one of the SDK's own:
 * - `closed`: the client was closed (by `close()`, or by the server with 4400/4403);
 * - `unsubscribed`: the subscription ended before it was ready;
 * - `network`: an HTTP request did not get an answer.
 */
export class RtmError extends Error {
  override name = 'RtmError';
  readonly code: string;
  readonly reason: string | undefined;
  /** Seconds to wait before trying again, when the server said so. */
  readonly retryAfter: number | undefined;

  constructor(code: string, reason?: string, options: { retryAfter?: number; cause?: unknown } = {}) {
    super(reason === undefined ? code : `${code}: ${reason}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.reason = reason;
    this.retryAfter = options.retryAfter;
  }
}

/** Any thrown value as an RtmError of `code` (an RtmError is returned as it is). */
export function asRtmError(error: unknown, code: string): RtmError {
  if (error instanceof RtmError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new RtmError(code, reason, { cause: error });
}
