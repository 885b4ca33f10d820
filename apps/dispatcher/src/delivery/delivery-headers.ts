/**
 * The signature headers of one delivery attempt, as the dispatcher sends them: `service-signature`
 * (libs/webhooks' signature.ts) and the Standard Webhooks three (standard-webhooks.ts), as one flat
 * `[name, value, …]` list (the shape the HTTP client takes without copying). Byte for byte what
 * `signatureHeader` and `standardHeaders` give; only cheaper per delivery: each secret's two HMAC
 * keys are prepared once (the Standard Webhooks key is the secret's base64 part, decoded), and
 * the body is hashed from the bytes that are sent.
 */
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { SIGNATURE_HEADER, standardKey, WEBHOOK_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TIMESTAMP_HEADER } from '@rtm/webhooks';

interface Keys {
  service: KeyObject;
  standard: KeyObject;
}

/** Secrets whose keys are kept (a dispatcher signs for the environments of its partitions). */
const KEYS_KEPT = 10_000;
const prepared = new Map<string, Keys>();

function keysOf(secret: string): Keys {
  let keys = prepared.get(secret);
  if (!keys) {
    keys = { service: createSecretKey(Buffer.from(secret, 'utf8')), standard: createSecretKey(standardKey(secret)) };
    if (prepared.size >= KEYS_KEPT) prepared.clear();
    prepared.set(secret, keys);
  }
  return keys;
}

/** The signature headers of `body` (the bytes sent) of event `eventId`, signed at `timestamp` (seconds) with each of `secrets`. */
export function deliverySignatures(secrets: readonly string[], eventId: string, timestamp: number, body: Uint8Array): string[] {
  let service = `t=${timestamp}`;
  let standard = '';
  for (const secret of secrets) {
    const keys = keysOf(secret);
    service += `,v1=${createHmac('sha256', keys.service).update(`${timestamp}.`).update(body).digest('hex')}`;
    const signature = createHmac('sha256', keys.standard).update(`${eventId}.${timestamp}.`).update(body).digest('base64');
    standard += standard === '' ? `v1,${signature}` : ` v1,${signature}`;
  }
  return [SIGNATURE_HEADER, service, WEBHOOK_ID_HEADER, eventId, WEBHOOK_TIMESTAMP_HEADER, String(timestamp), WEBHOOK_SIGNATURE_HEADER, standard];
}
