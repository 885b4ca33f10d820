/**
 * Passwords at the door: signing in, and checking an existing account's password when it accepts
 * an invitation. Both are throttled per (account, address) and per address, and slowed down per
 * account (throttle.ts); refused by the throttle: 429 with `retry-after`, before any check. The
 * address is the client's as the caller keys it (an IPv6 client by its /64).
 *
 * Only a known account's password is hashed. An unknown e-mail takes no place in the hashing
 * gate: it is answered after a duration drawn from the recent checks of known accounts
 * (check-times.ts), and refused with the same 503 when the gate would refuse a real check, so
 * neither its time nor its answer tells whether the account exists, and a flood of made-up
 * e-mails keeps nobody's check waiting. A check from an address with no recent failures goes
 * first in the gate (hash-gate.ts). When the gate is full, a check from an address with failures
 * is refused with 503 and counted as a failure (a flood pays for its refusals); one from a clean
 * address is not counted, so the owner's retry from there stays clean.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Pool } from '@rtm/db';
import { ServiceError } from '@rtm/errors';
import { CheckTimes } from './check-times.ts';
import { HashingBusyError, hashingFull, hashPassword, needsRehash, passwordProblem, verifyPassword, type HashLane } from './password.ts';
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
  /** This process's recent check durations, which an unknown e-mail's answer follows. */
  private readonly times = new CheckTimes();

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
   * take the same time (an unknown e-mail waits as long as a check, without hashing).
   */
  async withPassword(email: string, password: string, ip: string): Promise<UserRecord> {
    const normalised = normaliseEmail(email);
    const user = await findUserByEmail(this.pool, normalised);
    const ok = await this.throttled(normalised, ip, user ? (lane) => verifyPassword(password, user.passwordHash, lane) : null);
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
    const ok = await this.throttled(email, ip, (lane) => verifyPassword(password, user.passwordHash, lane));
    if (!ok) throw new ServiceError('unauthorized', 'wrong password for this account');
  }

  /**
   * Runs one password check under the throttle (`check` null: an unknown e-mail, answered as a
   * wrong password after a check's time). A check that did not happen is no failure, except a
   * busy refusal for an address that already has failures.
   */
  private async throttled(email: string, ip: string, check: ((lane: HashLane) => Promise<boolean>) | null): Promise<boolean> {
    const attempt = await this.throttle.begin(email, ip);
    if (!attempt.allowed) throw new ServiceError('rate_limited', THROTTLED, { retryAfter: attempt.retryAfterSeconds });
    const lane: HashLane = attempt.cleanAddress ? 'first' : 'ordinary';
    let ok: boolean;
    try {
      ok = await hashing(() => (check ? this.timed(lane, check) : this.withoutCheck(lane)));
    } catch (error) {
      const counted = error instanceof ServiceError && error.code === 'unavailable' && !attempt.cleanAddress;
      if (!counted) await this.throttle.abandon(attempt.attemptId);
      throw error;
    }
    if (ok) await this.throttle.succeeded(attempt.attemptId, email, ip);
    return ok;
  }

  private async timed(lane: HashLane, check: (lane: HashLane) => Promise<boolean>): Promise<boolean> {
    const started = performance.now();
    const ok = await check(lane);
    this.times.record(lane, performance.now() - started);
    return ok;
  }

  /** An unknown e-mail: refused when a check would be, else false after a check's time. */
  private async withoutCheck(lane: HashLane): Promise<false> {
    if (hashingFull(lane)) throw new HashingBusyError('too many password checks at once');
    await sleep(this.times.draw(lane));
    return false;
  }
}
