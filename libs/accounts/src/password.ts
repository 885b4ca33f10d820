/**
 * Password hashing with Node's scrypt (no native add-on, nothing downloaded at install time).
 * The stored string names the algorithm and its parameters, PHC style:
 *
 *   $scrypt$ln=17,r=8,p=1$<salt, base64>$<hash, base64>
 *
 * so the parameters can be raised later: a stored hash with weaker ones still verifies and
 * `needsRehash` tells the caller to store a new one at the next successful sign-in.
 * N = 2^17, r = 8, p = 1 is the strength OWASP recommends for scrypt: 128 MiB of memory and
 * most of a second of CPU per hash, which is why hashing goes through a small gate (at most
 * `HASH_CONCURRENCY` at once per process, bounded queues behind it: hash-gate.ts).
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { HashGate, type HashLane } from './hash-gate.ts';

export { HashingBusyError, type HashLane } from './hash-gate.ts';

export interface PasswordParams {
  /** log2 of the CPU/memory cost N. */
  log2N: number;
  /** Block size. */
  r: number;
  /** Parallelisation. */
  p: number;
}

export const PASSWORD_PARAMS: Readonly<PasswordParams> = Object.freeze({ log2N: 17, r: 8, p: 1 });
export const SALT_BYTES = 16;
export const HASH_BYTES = 32;
/** Passwords shorter than this are refused when set (never when signing in). */
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 1024;
export const HASH_CONCURRENCY = 2;
export const HASH_QUEUE_LIMIT = 64;

// a stored string with parameters beyond these is refused instead of being allowed to take
// gigabytes of memory (a damaged or hostile row)
const MAX_LOG2N = 20;
const MAX_R = 32;
const MAX_P = 16;

const FORMAT = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,3}),p=(\d{1,3})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

const gate = new HashGate(HASH_CONCURRENCY, HASH_QUEUE_LIMIT);

/** Whether a check in `lane` would be refused right now (sign-in answers an unknown e-mail the same way then). */
export function hashingFull(lane: HashLane): boolean {
  return gate.full(lane);
}

function derive(password: string, salt: Buffer, params: PasswordParams, lane: HashLane = 'ordinary'): Promise<Buffer> {
  const N = 2 ** params.log2N;
  const options: ScryptOptions = { N, r: params.r, p: params.p, maxmem: 128 * N * params.r * params.p + 16 * 1024 * 1024 };
  return gate.run(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password.normalize('NFC'), salt, HASH_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))),
      ),
    lane,
  );
}

export interface ParsedHash extends PasswordParams {
  salt: Buffer;
  hash: Buffer;
}

/** The parts of a stored hash, or null when it is not one this module wrote (or is out of bounds). */
export function parsePasswordHash(stored: string): ParsedHash | null {
  const match = FORMAT.exec(stored);
  if (!match) return null;
  const [log2N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (log2N < 1 || log2N > MAX_LOG2N || r < 1 || r > MAX_R || p < 1 || p > MAX_P) return null;
  const salt = Buffer.from(match[4]!, 'base64');
  const hash = Buffer.from(match[5]!, 'base64');
  if (salt.length < 8 || hash.length < 16) return null;
  return { log2N, r, p, salt, hash };
}

export async function hashPassword(password: string, params: PasswordParams = PASSWORD_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, params);
  return `$scrypt$ln=${params.log2N},r=${params.r},p=${params.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

/**
 * True when `password` matches `stored`. The comparison takes the same time wherever the bytes
 * differ (timingSafeEqual); a stored string that is not a hash of this module is false.
 */
export async function verifyPassword(password: string, stored: string, lane: HashLane = 'ordinary'): Promise<boolean> {
  const parsed = parsePasswordHash(stored);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed, lane);
  return candidate.length === parsed.hash.length && timingSafeEqual(candidate, parsed.hash);
}

/** True when `stored` was made with weaker parameters than `params` (store a new hash). */
export function needsRehash(stored: string, params: PasswordParams = PASSWORD_PARAMS): boolean {
  const parsed = parsePasswordHash(stored);
  if (!parsed) return true;
  return parsed.log2N < params.log2N || parsed.r < params.r || parsed.p < params.p;
}

/** Why a new password is refused, or null when it may be set. */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `the password must have at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `the password must have at most ${PASSWORD_MAX_LENGTH} characters`;
  if (password.trim().length === 0) return 'the password must not be only spaces';
  return null;
}

/** A password for generated logins (the dev user): 144 random bits, URL-safe. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
