/**
 * Sign-in throttling, per account (the e-mail as typed, whether or not an account has it, so
 * the answer never tells) and per client address: at most `limit` failures within a sliding
 * `windowMs`. Past that, attempts are refused (429 with `retry-after`) without checking the
 * password, until the oldest counted failure leaves the window.
 *
 * State lives in Postgres, so every gateway sees the same counts. An attempt is written as a
 * failure before the password is checked (under an advisory lock per key, so concurrent
 * attempts on several gateways cannot all slip under the limit) and deleted when it was right;
 * a correct password also clears the account's earlier failures (whoever knows it need not
 * guess), never the address's.
 */
import { ADVISORY_LOCKS, newId, withTransaction, type Pool } from '@rtm/db';

export interface ThrottleRule {
  /** Failures allowed within the window; the next attempt is refused. */
  limit: number;
  windowMs: number;
}

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterMs: number };

/**
 * The decision for one key from its most recent failure times (milliseconds, any order; older
 * ones are ignored): refused while `limit` of them lie within the window ending at `now`, until
 * the `limit`-th most recent one leaves it.
 */
export function throttleVerdict(failures: readonly number[], rule: ThrottleRule, now: number): ThrottleVerdict {
  const recent = failures.filter((at) => at > now - rule.windowMs).sort((a, b) => b - a);
  if (recent.length < rule.limit) return { allowed: true };
  const freedAt = recent[rule.limit - 1]! + rule.windowMs;
  return { allowed: false, retryAfterMs: Math.max(1, freedAt - now) };
}

/** Whole seconds for `retry-after`, at least 1. */
export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

export type AttemptStart =
  | { allowed: true; attemptId: string }
  | { allowed: false; scope: 'account' | 'ip'; retryAfterSeconds: number };

// advisory lock namespace (first of the two 32-bit keys); the second is hashtext(key)
const LOCK_CLASS = ADVISORY_LOCKS.loginThrottle;

export class LoginThrottle {
  private readonly pool: Pool;
  private readonly rules: { account: ThrottleRule; ip: ThrottleRule };

  constructor(pool: Pool, rules: { account: ThrottleRule; ip: ThrottleRule }) {
    this.pool = pool;
    this.rules = rules;
  }

  /** Starts an attempt: refused when either key is at its limit, otherwise counted as a failure until `succeeded`. */
  async begin(email: string, ip: string): Promise<AttemptStart> {
    const checks = [
      { scope: 'account' as const, key: `account:${email}`, rule: this.rules.account },
      { scope: 'ip' as const, key: `ip:${ip}`, rule: this.rules.ip },
    ];
    return withTransaction(this.pool, async (client) => {
      // both keys locked in one fixed order, so two attempts never wait on each other in a cycle
      for (const key of checks.map((c) => c.key).sort()) {
        await client.query('select pg_advisory_xact_lock($1, hashtext($2))', [LOCK_CLASS, key]);
      }
      for (const check of checks) {
        const { rows } = await client.query<{ at: number; now: number }>(
          `select (extract(epoch from at) * 1000)::float8 as at, (extract(epoch from now()) * 1000)::float8 as now
           from login_failures where key = $1 and at > now() - $2::bigint * interval '1 millisecond'
           order by at desc limit $3`,
          [check.key, check.rule.windowMs, check.rule.limit],
        );
        if (rows.length === 0) continue;
        const verdict = throttleVerdict(rows.map((r) => r.at), check.rule, rows[0]!.now);
        if (!verdict.allowed) return { allowed: false, scope: check.scope, retryAfterSeconds: retryAfterSeconds(verdict.retryAfterMs) };
      }
      const attemptId = newId('att');
      await client.query('insert into login_failures (key, attempt_id) select unnest($1::text[]), $2', [checks.map((c) => c.key), attemptId]);
      return { allowed: true, attemptId };
    });
  }

  /** The attempt was right: it is not a failure, and the account's earlier failures are forgiven. */
  async succeeded(attemptId: string, email: string): Promise<void> {
    await this.pool.query('delete from login_failures where attempt_id = $1 or key = $2', [attemptId, `account:${email}`]);
  }

  /** The attempt was never judged (the check could not run): it is not a failure. */
  async abandon(attemptId: string): Promise<void> {
    await this.pool.query('delete from login_failures where attempt_id = $1', [attemptId]);
  }

  /** Forgets failures older than every window. */
  async sweep(): Promise<void> {
    const longest = Math.max(this.rules.account.windowMs, this.rules.ip.windowMs);
    await this.pool.query(`delete from login_failures where at < now() - $1::bigint * interval '1 millisecond'`, [longest]);
  }
}
