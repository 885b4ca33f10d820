import { createHash, randomBytes, randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz'; // Crockford base32, lowercase

let lastMs = 0;
let lastRandom: Buffer = Buffer.alloc(10);

/**
 * Random bytes drawn 4 KiB at a time: a randomBytes call costs several µs whatever its size, and
 * a busy owner makes an id every millisecond.
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let poolAt = POOL_BYTES;

function random10(): Buffer {
  if (poolAt + 10 > POOL_BYTES) {
    randomFillSync(pool);
    poolAt = 0;
  }
  // a copy: lastRandom is incremented in place, and the pool's bytes are never handed out twice
  const bytes = Buffer.from(pool.subarray(poolAt, poolAt + 10));
  poolAt += 10;
  return bytes;
}

/**
 * Time-ordered ids (ULID layout: 48-bit millisecond time, 80 random bits), monotonic within a
 * process: two ids made in the same millisecond still sort in the order they were made.
 */
export function newId(prefix: string): string {
  const now = Date.now();
  if (now <= lastMs) {
    // same (or earlier, if the clock stepped back) millisecond: increment the random part
    for (let i = lastRandom.length - 1; i >= 0; i--) {
      const byte = lastRandom[i]!;
      if (byte < 255) {
        lastRandom[i] = byte + 1;
        break;
      }
      lastRandom[i] = 0;
    }
  } else {
    lastMs = now;
    lastRandom = random10();
  }
  return `${prefix}_${encodeTime(lastMs)}${encodeRandom(lastRandom)}`;
}

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

/** 80 bits as 16 base32 digits, most significant first: two 40-bit halves (exact in a double). */
export function encodeRandom(bytes: Uint8Array): string {
  return encode40(bytes, 0) + encode40(bytes, 5);
}

function encode40(bytes: Uint8Array, from: number): string {
  let value = 0;
  for (let i = from; i < from + 5; i++) value = value * 256 + bytes[i]!;
  let out = '';
  for (let i = 0; i < 8; i++) {
    out = ALPHABET[value % 32] + out;
    value = Math.floor(value / 32);
  }
  return out;
}

/**
 * An id of the same layout as `newId`'s, drawn from what it names instead of chance: the time part
 * is `ms`, the rest the first 80 bits of SHA-256 of `key`. Whoever names the same thing at the same
 * time makes the same id (an event two processes may both decide, recorded once by its id).
 */
export function derivedId(prefix: string, ms: number, key: string): string {
  return `${prefix}_${encodeTime(Math.max(0, Math.floor(ms)))}${encodeRandom(createHash('sha256').update(key).digest().subarray(0, 10))}`;
}

/** A random token of `bytes` bytes, base64url, for keys and secrets. */
export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}
