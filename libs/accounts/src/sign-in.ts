/**
 * Passwords at the door: signing in, and checking an existing account's password when it accepts
 * an invitation. Both are throttled per (account, address) and per address, and slowed down per
 * account (throttle.ts); refused by the throttle: 429 with `retry-after`, before any check.
 */
import type { Pool } from '@rtm/db';
import { ServiceError } from '@rtm/errors';
import { HashingBusyError, hashPassword, needsRehash, passwordProblem, verifyDummyPassword, verifyPassword } from './password.ts';
import type { LoginThrottle } from './throttle.ts';
import { findUserByEmail, isEmail, normaliseEmail, setPasswordHash, type UserRecord } from './users.ts';

/** The refusal of a throttled sign-in: the same for every scope and for known and unknown e-mails. */
const THROTTLED = 'too many failed sign-ins for this account or address; try again later';

export function checkedPassword(password: string): string {
  const problem = passwordProblem(password);
  if (problem) throw new ServiceError('invalid_request', problem);
  return password;
}

export function checkedEmail(email: string): string {
  const normalised = normaliseEmail(email);
  if (!isEmail(normalised)) throw new ServiceError('invalid_request', 'not an e-mail address');
  return normalised;
}

/** Hashing is saturated in this process: answer 503 (retry) rather than queueing without end. */
export async function hashing<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof HashingBusyError) throw new ServiceError('unavailable', 'too many sign-ins at once; retry', { retryAfter: 1 });
    throw error;
  }
}

export class SignIn {
  private readonly pool: Pool;
  private readonly throttleOrNone: LoginThrottle | undefined;

  constructor(pool: Pool, throttleOrNone: LoginThrottle | undefined) {
    this.pool = pool;
    this.throttleOrNone = throttleOrNone;
  }

  private get throttle(): LoginThrottle {
    if (!this.throttleOrNone) throw new Error('SignIn was built without a LoginThrottle: it can not sign anyone in');
    return this.throttleOrNone;
  }

  /**
   * Checks an e-mail and password. A wrong password and an unknown e-mail are the same 401 and
   * cost the same (an unknown e-mail is checked against a dummy hash).
   */
  async withPassword(email: string, password: string, ip: string): Promise<UserRecord> {
    const normalised = normaliseEmail(email);
    const user = await findUserByEmail(this.pool, normalised);
    const ok = await this.throttled(normalised, ip, () => (user ? verifyPassword(password, user.passwordHash) : verifyDummyPassword(password)));
    if (!ok || !user) throw new ServiceError('unauthorized', 'wrong e-mail or password');
    if (needsRehash(user.passwordHash)) {
      // stronger parameters than when it was stored: store a new hash (the sign-in does not wait)
      void hashPassword(password)
        .then((hash) => setPasswordHash(this.pool, user.id, hash))
        .catch(() => {});
    }
    return user;
  }

  /** An existing account's password, when it accepts an invitation: a wrong one is 401. */
  async confirm(email: string, user: UserRecord, password: string, ip: string): Promise<void> {
    const ok = await this.throttled(email, ip, () => verifyPassword(password, user.passwordHash));
    if (!ok) throw new ServiceError('unauthorized', 'wrong password for this account');
  }

  /** Runs one password check under the throttle; a check that did not happen is no failure. */
  private async throttled(email: string, ip: string, check: () => Promise<boolean>): Promise<boolean> {
    const attempt = await this.throttle.begin(email, ip);
    if (!attempt.allowed) throw new ServiceError('rate_limited', THROTTLED, { retryAfter: attempt.retryAfterSeconds });
    let ok: boolean;
    try {
      ok = await hashing(check);
    } catch (error) {
      await this.throttle.abandon(attempt.attemptId);
      throw error;
    }
    if (ok) await this.throttle.succeeded(attempt.attemptId, email, ip);
    return ok;
  }
}
