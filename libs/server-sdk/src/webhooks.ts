/**
 * Receiving webhooks: the service's own verifier (the same code the service's tests hold the
 * signing side to), and a helper that verifies and parses an event in one step.
 */
import { verifyWebhookSignature, SIGNATURE_HEADER, type VerifyOptions, type VerifyResult } from '@rtm/webhooks/signature';
import type { MessageEnvelope } from './types.ts';

/**
 * Checks a delivery's `service-signature` header against the exact raw body bytes received
 * (never a re-serialised object), with the environment's `whsec_…` secret: constant-time, any
 * matching `v1` accepted (both secrets sign for 24 h after a rotation), `t` within
 * `toleranceSeconds` (default 300) of now.
 */
export const verifyWebhook = verifyWebhookSignature;
export { SIGNATURE_HEADER as WEBHOOK_SIGNATURE_HEADER, type VerifyOptions as VerifyWebhookOptions, type VerifyResult as VerifyWebhookResult };

/** The body of a webhook delivery. Delivery is at least once: deduplicate on `id`. */
export interface WebhookEvent {
  /** The message id for `message.published`, `retract_` + the message id for `message.retracted`. */
  id: string;
  type: 'message.published' | 'message.retracted';
  /** Milliseconds since the epoch. */
  timestamp: number;
  environmentId: string;
  channelId: string;
  /** The message (tombstoned, `content: null`, for a retraction). */
  data: MessageEnvelope;
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
 * Verifies a delivery and returns its event; throws WebhookVerificationError when the signature
 * does not verify (answer 401 then, and do not process it). `rawBody` must be the bytes as
 * received.
 */
export function parseWebhook(
  rawBody: string | Uint8Array,
  signatureHeader: string | readonly string[] | null | undefined,
  secret: string,
  options?: VerifyOptions,
): WebhookEvent {
  const verdict = verifyWebhookSignature(rawBody, signatureHeader, secret, options);
  if (!verdict.ok) throw new WebhookVerificationError(verdict.reason);
  const text = typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody);
  return JSON.parse(text) as WebhookEvent;
}
