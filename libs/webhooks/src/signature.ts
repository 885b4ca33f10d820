/**
 * The `service-signature` scheme, both sides of it.
 *
 * Header: `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`. Each `v1` is the lowercase-hex
 * HMAC-SHA256 of `<t>.<raw body>`, keyed with the environment's whole secret string
 * (`whsec_…`, as UTF-8). During the 24 h after a rotation the header carries one `v1` per secret,
 * the new one first; a receiver accepts the delivery when any `v1` matches.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'service-signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * A new signing secret: `whsec_` + 33 random bytes in standard base64 (44 characters, no
 * padding), the form the Standard Webhooks libraries decode their key from. Secrets made before
 * were base64url; they still sign both schemes (the key is decoded leniently), and a rotation
 * gives one in this form.
 */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(33).toString('base64')}`;
}

export function computeSignature(secret: string, timestamp: number, body: string | Uint8Array): string {
  const hmac = createHmac('sha256', secret);
  hmac.update(`${timestamp}.`);
  hmac.update(body);
  return hmac.digest('hex');
}

/** The header value for `body` signed at `timestamp` (seconds) with each of `secrets`, in order. */
export function signatureHeader(secrets: readonly string[], timestamp: number, body: string | Uint8Array): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${computeSignature(secret, timestamp, body)}`)].join(',');
}

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: string };

export interface VerifyOptions {
  /** Seconds `t` may differ from now, in either direction. Default 300. */
  toleranceSeconds?: number;
  /** Current time in milliseconds (tests). */
  now?: number;
}

/**
 * Receiver side: checks `header` against the exact raw bytes received. Refuses a missing header,
 * a header without `t` or without `v1`, a `t` outside the tolerance, and a signature of the wrong
 * length or value. Comparison is constant-time; any matching `v1` is enough.
 */
export function verifyWebhookSignature(
  rawBody: string | Uint8Array,
  header: string | readonly string[] | null | undefined,
  secret: string,
  options: VerifyOptions = {},
): VerifyResult {
  if (header === undefined || header === null) return { ok: false, reason: 'missing signature header' };
  const value = typeof header === 'string' ? header : header.join(',');
  if (value.trim() === '') return { ok: false, reason: 'missing signature header' };
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of value.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const val = part.slice(eq + 1).trim();
    if (key === 't') {
      if (!/^\d{1,15}$/.test(val)) return { ok: false, reason: 'malformed t' };
      timestamp = Number(val);
    } else if (key === 'v1') {
      signatures.push(val);
    }
  }
  if (timestamp === undefined) return { ok: false, reason: 'no t in signature header' };
  if (signatures.length === 0) return { ok: false, reason: 'no v1 in signature header' };
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = Math.floor((options.now ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - timestamp) > tolerance) return { ok: false, reason: 'timestamp outside the tolerance' };

  const expected = Buffer.from(computeSignature(secret, timestamp, rawBody), 'utf8');
  let matched = false;
  let lengthMismatch = false;
  for (const signature of signatures) {
    const given = Buffer.from(signature, 'utf8');
    if (given.length !== expected.length) {
      lengthMismatch = true;
      continue;
    }
    // no early exit: every candidate is compared, so timing says nothing about which matched
    if (timingSafeEqual(given, expected)) matched = true;
  }
  if (matched) return { ok: true, timestamp };
  return { ok: false, reason: lengthMismatch && signatures.length === 1 ? 'signature length mismatch' : 'signature mismatch' };
}
