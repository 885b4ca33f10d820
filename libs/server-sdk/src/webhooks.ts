/**
 * Receiving webhooks: the service's own verifiers (the same code the service's tests hold the
 * signing side to), and a helper that verifies and parses an event in one step. Every delivery
 * carries two signatures over the same bytes: `service-signature`, and the Standard Webhooks
 * headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`); either is enough.
 */
import { verifyWebhookSignature, SIGNATURE_HEADER, type VerifyOptions, type VerifyResult } from '@rtm/webhooks/signature';
import {
  verifyStandardWebhook,
  WEBHOOK_ID_HEADER,
  WEBHOOK_SIGNATURE_HEADER as STANDARD_SIGNATURE_HEADER,
  WEBHOOK_TIMESTAMP_HEADER,
} from '@rtm/webhooks/standard-webhooks';
import type { MessageEnvelope, ReactionSummary } from './types.ts';

type HeaderValue = string | readonly string[] | null | undefined;
/** Request headers as Node (`req.headers`), a plain record, or a fetch `Headers`. */
export type WebhookHeaders = { get(name: string): string | null } | Readonly<Record<string, string | readonly string[] | undefined>>;

function header(headers: WebhookHeaders, name: string): HeaderValue {
  if (typeof (headers as { get?: unknown }).get === 'function') return (headers as { get(name: string): string | null }).get(name);
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : record[key];
}

/**
 * Checks a delivery against the exact raw body bytes received (never a re-serialised object)
 * with the endpoint's `whsec_…` secret. The second argument is either the `service-signature`
 * header's value, or the request's headers: then `service-signature` is checked when present,
 * otherwise the Standard Webhooks headers. Constant-time; any matching signature is accepted (both
 * secrets sign for 24 h after a rotation); the timestamp must be within `toleranceSeconds`
 * (default 300) of now.
 */
export function verifyWebhook(rawBody: string | Uint8Array, signature: HeaderValue | WebhookHeaders, secret: string, options?: VerifyOptions): VerifyResult {
  if (signature === null || signature === undefined || typeof signature === 'string' || Array.isArray(signature)) {
    return verifyWebhookSignature(rawBody, signature as HeaderValue, secret, options);
  }
  const headers = signature as WebhookHeaders;
  const own = header(headers, SIGNATURE_HEADER);
  if (own !== undefined && own !== null) return verifyWebhookSignature(rawBody, own, secret, options);
  return verifyStandardWebhook(
    rawBody,
    { id: header(headers, WEBHOOK_ID_HEADER), timestamp: header(headers, WEBHOOK_TIMESTAMP_HEADER), signature: header(headers, STANDARD_SIGNATURE_HEADER) },
    secret,
    options,
  );
}
export { SIGNATURE_HEADER as WEBHOOK_SIGNATURE_HEADER, type VerifyOptions as VerifyWebhookOptions, type VerifyResult as VerifyWebhookResult };

/** `data` of a `message.reactions` event: the message and its reactions now (`{}` once the last is taken back). */
export interface MessageReactionsData {
  /** The message id. */
  id: string;
  /** The message's seq. */
  seq: number;
  reactions: ReactionSummary;
}

/** The body of a webhook delivery. Delivery is at least once: deduplicate on `id` (also the `webhook-id` header). */
export interface WebhookEvent {
  /**
   * The message id for `message.published`, `retract_` + the message id for `message.retracted`,
   * `upd_…` for `message.updated`, `rct_…` for `message.reactions`, `evt_…` for the others.
   */
  id: string;
  /** GET /v1/webhook-event-types lists the types and the shape of each one's `data`. */
  type: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
  environmentId: string;
  /** The channel the event is about; absent for an event about none. */
  channelId?: string;
  /**
   * For `message.published`, `message.retracted` and `message.updated`, the message (tombstoned,
   * `content: null`, for a retraction; with its new content, `version`, `updatedAt` and `updatedBy`
   * for an edit); for `message.reactions`, a MessageReactionsData (at most one event per message
   * every 250 ms; narrow with `event.type === 'message.reactions'` and a cast).
   */
  data: MessageEnvelope | Record<string, unknown>;
}

/** A delivery whose signature did not verify; `reason` says which check failed. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
  readonly reason: string;
  constructor(reason: string) {
    super(`webhook signature not verified: ${reason}`);
    this.reason = reason;
  }
}

/**
 * Verifies a delivery (as `verifyWebhook`: a `service-signature` value or the request's headers)
 * and returns its event; throws WebhookVerificationError when it does not verify (answer 401
 * then, and do not process it). `rawBody` must be the bytes as received.
 */
export function parseWebhook(rawBody: string | Uint8Array, signature: HeaderValue | WebhookHeaders, secret: string, options?: VerifyOptions): WebhookEvent {
  const verdict = verifyWebhook(rawBody, signature, secret, options);
  if (!verdict.ok) throw new WebhookVerificationError(verdict.reason);
  const text = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  return JSON.parse(text) as WebhookEvent;
}
