/**
 * One-time codes that prove an e-mail address: 8 digits mailed to the address (recovery.ts), typed
 * back by whoever reads that mailbox. A code is bound to its address and purpose (`verify`: make
 * a new account for the address; `reset`: set a new password), stored as a sha256, used once,
 * dead after `ttlMs` or `maxWrongGuesses` wrong guesses at the address's live codes.
 *
 * Requests are limited, whether or not an account uses the address (so the limit tells nothing):
 * per address (`perEmail`) and per requester (`perRequester`, the client address) within a
 * sliding window, counted from the stored rows under advisory locks, so every gateway sees the
 * same counts (throttle.ts's `throttleVerdict` decides). Over either: 429 with `retry-after`.
 * With 5 guesses per code and 5 codes an hour, guessing one of 10^8 codes takes years.
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { ADVISORY_LOCKS, newId, withTransaction, type Pool, type PoolClient } from '@rtm/db';
import { ServiceError } from '@rtm/errors';
import { retryAfterSeconds, throttleVerdict, type ThrottleRule } from './throttle.ts';

export type CodePurpose = 'verify' | 'reset';

export interface EmailCodeRules {
  /** How long a code stays usable. */
  ttlMs: number;
  /** Codes asked for one address within the window (both purposes). */
  perEmail: ThrottleRule;
  /** Codes asked for from one client address within the window, whatever the e-mail. */
  perRequester: ThrottleRule;
  /** Wrong guesses that kill an address's live codes of a purpose. */
  maxWrongGuesses: number;
}

export const CODE_DIGITS = 8;
/** The refusal of a wrong, used or expired code: one answer for all of them. */
export const WRONG_CODE = 'wrong, used or expired code: ask for a new one';

/** A new code: 8 random digits (leading zeros kept). */
export function newEmailCode(): string {
  return String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');
}

/** The code as typed, without spaces or dashes; null when it is not 8 digits. */
export function typedCode(input: string): string | null {
  const code = input.replace(/[\s-]/g, '');
  return new RegExp(`^\\d{${CODE_DIGITS}}$`).test(code) ? code : null;
}

/** What is stored of a code: bound to its address and purpose, so it proves nothing else. */
export function hashEmailCode(email: string, purpose: CodePurpose, code: string): Buffer {
  return createHash('sha256').update(`${purpose}\u0000${email}\u0000${code}`, 'utf8').digest();
}

const LOCK_CLASS = ADVISORY_LOCKS.emailCodes;

export class EmailCodes {
  private readonly pool: Pool;
  readonly rules: EmailCodeRules;

  constructor(pool: Pool, rules: EmailCodeRules) {
    this.pool = pool;
    this.rules = rules;
  }

  /** A new code for `email` (normalised), stored hashed; 429 past the request limits. */
  async issue(email: string, purpose: CodePurpose, requester: string): Promise<string> {
    const code = newEmailCode();
    await withTransaction(this.pool, async (client) => {
      const keys = [`email:${email}`, `from:${requester}`].sort();
      for (const key of keys) await client.query('select pg_advisory_xact_lock($1, hashtext($2))', [LOCK_CLASS, key]);
      await this.refuseOverLimit(client, 'email', email, this.rules.perEmail);
      await this.refuseOverLimit(client, 'requested_by', requester, this.rules.perRequester);
      await client.query(
        `insert into email_codes (id, email, purpose, code_hash, requested_by, expires_at)
         values ($1, $2, $3, $4, $5, now() + $6::bigint * interval '1 millisecond')`,
        [newId('ecd'), email, purpose, hashEmailCode(email, purpose, code), requester, this.rules.ttlMs],
      );
    });
    return code;
  }

  /**
   * The id of the live code of `email` and `purpose` that `input` is; otherwise a wrong guess is
   * counted on every live one and the answer is 401. Checking does not use the code up (`use`).
   */
  async check(email: string, purpose: CodePurpose, input: string): Promise<string> {
    const code = typedCode(input);
    const { rows } = await this.pool.query<{ id: string; code_hash: Buffer }>(
      `select id, code_hash from email_codes
       where email = $1 and purpose = $2 and used_at is null and expires_at > now() and failed_attempts < $3
       order by created_at desc limit $4`,
      [email, purpose, this.rules.maxWrongGuesses, this.rules.perEmail.limit],
    );
    const wanted = hashEmailCode(email, purpose, code ?? '');
    const match = code === null ? undefined : rows.find((row) => timingSafeEqual(row.code_hash, wanted));
    if (match) return match.id;
    if (rows.length > 0) {
      await this.pool.query('update email_codes set failed_attempts = failed_attempts + 1 where id = any($1::text[])', [rows.map((row) => row.id)]);
    }
    throw new ServiceError('unauthorized', WRONG_CODE);
  }

  /** Uses a checked code up, in the caller's transaction (401 when it was used or died meanwhile). */
  async use(client: PoolClient, id: string): Promise<void> {
    const { rows } = await client.query<{ email: string; purpose: CodePurpose }>(
      'update email_codes set used_at = now() where id = $1 and used_at is null and expires_at > now() returning email, purpose',
      [id],
    );
    if (!rows[0]) throw new ServiceError('unauthorized', WRONG_CODE);
    // the address is proven: its other codes of this purpose are spent too
    await client.query('update email_codes set used_at = now() where email = $1 and purpose = $2 and used_at is null', [rows[0].email, rows[0].purpose]);
  }

  /** Forgets codes that are dead and no longer counted by any limit. */
  async sweep(): Promise<void> {
    const window = Math.max(this.rules.perEmail.windowMs, this.rules.perRequester.windowMs);
    await this.pool.query(`delete from email_codes where expires_at < now() and created_at < now() - $1::bigint * interval '1 millisecond'`, [window]);
  }

  private async refuseOverLimit(client: PoolClient, column: 'email' | 'requested_by', value: string, rule: ThrottleRule): Promise<void> {
    const { rows } = await client.query<{ at: number; now: number }>(
      `select (extract(epoch from created_at) * 1000)::float8 as at, (extract(epoch from now()) * 1000)::float8 as now
       from email_codes where ${column} = $1 and created_at > now() - $2::bigint * interval '1 millisecond'
       order by created_at desc limit $3`,
      [value, rule.windowMs, rule.limit],
    );
    if (!rows[0]) return;
    const verdict = throttleVerdict(
      rows.map((row) => row.at),
      rule,
      rows[0].now,
    );
    if (!verdict.allowed) {
      const which = column === 'email' ? 'this e-mail address' : 'this client address';
      throw new ServiceError('rate_limited', `too many codes asked for ${which}; try again later`, { retryAfter: retryAfterSeconds(verdict.retryAfterMs) });
    }
  }
}
