/** Channel ids the service accepts: 1–128 of [A-Za-z0-9_.:@=-]. */
export const CHANNEL_ID = /^[A-Za-z0-9_.:@=-]{1,128}$/;

/** Message ids as the service writes them (`msg_…`): 1–64 of [A-Za-z0-9_]. */
export const MESSAGE_ID = /^[A-Za-z0-9_]{1,64}$/;

/** Reaction types the service accepts: 1–32 characters (UTF-16 units), no spaces or control characters. */
export const REACTION_TYPE = /^[^\s\u0000-\u001f]{1,32}$/;

/** A random idempotency key (128 bits, hex), from the platform's CSPRNG when there is one. */
export function newIdempotencyKey(): string {
  const bytes = new Uint8Array(16);
  const crypto = (globalThis as { crypto?: { getRandomValues?(array: Uint8Array): Uint8Array } }).crypto;
  if (crypto?.getRandomValues) crypto.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  let hex = 'k_';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** A seq bound as the service accepts it: an integer 0 … 2^53−1. */
export function isSeq(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
