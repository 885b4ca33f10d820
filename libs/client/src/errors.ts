/**
 * The SDK's own codes, never sent by the service:
 * - `closed`: the client was closed (by `close()`, or by the server with 4400/4403);
 * - `unsubscribed`: the subscription ended before it was ready;
 * - `network`: an HTTP request did not get an answer;
 * - `unsupported`: a frame the `sse` transport has no HTTP form for;
 * - `queue_full`: the client's own offline queue holds `maxQueuedPublishes` entries (nothing was
 *   sent; the server's `rate_limited` is a different thing).
 */
export type SdkErrorCode = 'closed' | 'unsubscribed' | 'network' | 'unsupported' | 'queue_full';

/** An SDK code, or a code of the service's error envelope (`forbidden`, `rate_limited`, …). */
export type RtmErrorCode = SdkErrorCode | (string & {});

/**
 * The one error type of the SDK. `code` is either a code of the service's error envelope
 * (`forbidden`, `banned`, `rate_limited`, `unavailable`, `unauthorized`, `invalid_request`, …)
 * or one of the SDK's own (`SdkErrorCode`).
 */
export class RtmError extends Error {
  override name = 'RtmError';
  readonly code: RtmErrorCode;
  readonly reason: string | undefined;
  /** Seconds to wait before trying again, when the server said so. */
  readonly retryAfter: number | undefined;
  /** For `quota_exceeded`: when the monthly quota starts again (ISO 8601, the next month's first instant, UTC). */
  readonly resetsAt: string | undefined;

  constructor(code: RtmErrorCode, reason?: string, options: { retryAfter?: number; resetsAt?: string; cause?: unknown } = {}) {
    super(reason === undefined ? code : `${code}: ${reason}`, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.reason = reason;
    this.retryAfter = options.retryAfter;
    this.resetsAt = options.resetsAt;
  }
}

/** Any thrown value as an RtmError of `code` (an RtmError is returned as it is). */
export function asRtmError(error: unknown, code: string): RtmError {
  if (error instanceof RtmError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new RtmError(code, reason, { cause: error });
}

/**
 * A refusal of the connection for a spent monthly quota (close 4429, or 429 for an event stream,
 * whose reason starts with `quota_exceeded`): the error it reports, with `resetsAt` when the
 * reason names it; undefined for any other 4429 (a rate limit: retried after its retryAfter).
 */
export function quotaRefusal(code: number, reason: string): RtmError | undefined {
  if (code !== 4429 || !reason.includes('quota_exceeded')) return undefined;
  const resetsAt = /resets (\d{4}-\d{2}-\d{2}T[0-9:.]+Z)/.exec(reason)?.[1];
  return new RtmError('quota_exceeded', reason, resetsAt === undefined ? {} : { resetsAt });
}
