/**
 * The Standard Webhooks scheme (standardwebhooks.com), sent beside `service-signature` on every
 * delivery so that the Standard Webhooks and Svix verifiers accept our deliveries:
 * - `webhook-id`: the event id, the same on every attempt and for every endpoint;
 * - `webhook-timestamp`: the attempt's time, unix seconds;
 * - `webhook-signature`: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed with the
 *   base64-decoded part of the secret after `whsec_`; during the 24 h after a rotation one `v1,…`
 *   per secret, space-separated, the new one first.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DEFAULT_TOLERANCE_SECONDS, type VerifyOptions, type VerifyResult } from './signature.ts';

export const WEBHOOK_ID_HEADER = 'webhook-id';
export const WEBHOOK_TIMESTAMP_HEADER = 'webhook-timestamp';
export const WEBHOOK_SIGNATURE_HEADER = 'webhook-signature';

/** The HMAC key of a secret: the bytes of its base64 part (base64url secrets decode too). */
export function standardKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

export function standardSignature(secret: string, id: string, timestamp: number, body: string | Uint8Array): string {
  const hmac = createHmac('sha256', standardKey(secret));
  hmac.update(`${id}.${timestamp}.`);
  hmac.update(body);
  return hmac.digest('base64');
}

/** The three headers of a delivery of event `id` signed at `timestamp` (seconds) with each of `secrets`. */
export function standardHeaders(secrets: readonly string[], id: string, timestamp: number, body: string | Uint8Array): Record<string, string> {
  return {
    [WEBHOOK_ID_HEADER]: id,
    [WEBHOOK_TIMESTAMP_HEADER]: String(timestamp),
    [WEBHOOK_SIGNATURE_HEADER]: secrets.map((secret) => `v1,${standardSignature(secret, id, timestamp, body)}`).join(' '),
  };
}

type HeaderValue = string | readonly string[] | null | undefined;
const one = (value: HeaderValue): string | undefined =>
  value === null || value === undefined ? undefined : typeof value === 'string' ? value : value.join(' ');

/**
 * Receiver side: checks the three headers against the exact raw bytes received. Refuses a missing
 * header, a timestamp outside the tolerance and a signature that matches no `v1,` entry
 * (constant-time comparison; any match is enough).
 */
export function verifyStandardWebhook(
  rawBody: string | Uint8Array,
  headers: { id: HeaderValue; timestamp: HeaderValue; signature: HeaderValue },
  secret: string,
  options: VerifyOptions = {},
): VerifyResult {
  const id = one(headers.id);
  const stamp = one(headers.timestamp);
  const signature = one(headers.signature);
  if (!id || !stamp || !signature) return { ok: false, reason: 'missing webhook-id, webhook-timestamp or webhook-signature header' };
  if (!/^\d{1,15}$/.test(stamp)) return { ok: false, reason: 'malformed webhook-timestamp' };
  const timestamp = Number(stamp);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - timestamp) > tolerance) return { ok: false, reason: 'timestamp outside the tolerance' };
  const expected = Buffer.from(standardSignature(secret, id, timestamp, rawBody), 'utf8');
  let matched = false;
  for (const entry of signature.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
    const given = Buffer.from(entry.slice(comma + 1), 'utf8');
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  return matched ? { ok: true, timestamp } : { ok: false, reason: 'signature mismatch' };
}
