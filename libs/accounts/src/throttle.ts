/**
 * Sign-in throttling that a stranger cannot turn against an account's owner. Three counts of
 * failed attempts within a sliding window, keyed by the e-mail as typed (whether or not an
 * account has it, so the answer never tells) and the client address:
 * - per (account, address): at most `pair.limit` failures; past that, that address is refused
 *   for that account (429 with `retry-after`) until the oldest counted failure leaves the window;
 * - per address, whatever the account: at most `ip.limit` failures, then refused the same way;
 * - per account across addresses: never a lock-out, a slow-down. From `account.after` failures
 *   on, an attempt must come at least `delay` after the account's most recent failure, where the
 *   delay doubles with every further failure (`baseDelayMs`, 2×, 4×, … up to `maxDelayMs`);
 *   earlier, it is refused with the rest of the wait as `retry-after`. The slow-down applies only
 *   to attempts from an address with a failure of its own within the window: an address with no
 *   recent failures is never slowed, so the owner's right password from a clean address always
 *   signs in, however many addresses guess at the account.
 * Refused attempts are decided before the password is checked, the same way for known and
 * unknown e-mails.
 *
 * State lives in Postgres, so every gateway sees the same counts. An attempt is written as a
 * failure (one row per key) before the password is checked, under advisory locks on its keys (so
 * concurrent attempts on several gateways cannot all slip under a limit or between delays), and
 * deleted when it was right; a right password also forgives that address's earlier failures on
 * the account (in the pair's and the account's counts), never the address's own count, nor the
 * account's failures from other addresses.
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

/**
 * The account-wide slow-down: from `after` failures within the window on, each attempt must wait
 * `baseDelayMs` after the most recent failure, doubled for every failure beyond `after`, at most
 * `maxDelayMs`. Never a refusal longer than `maxDelayMs`.
 */
export interface SlowdownRule {
  after: number;
  windowMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** The delay owed after `count` recent failures (0 below `after`). */
export function slowdownDelayMs(count: number, rule: SlowdownRule): number {
  if (count < rule.after) return 0;
  return Math.min(rule.maxDelayMs, rule.baseDelayMs * 2 ** Math.min(count - rule.after, 40));
}

/** How many of the most recent failures can change the delay (more than these all give the maximum). */
export function slowdownSample(rule: SlowdownRule): number {
  const doublings = rule.maxDelayMs > rule.baseDelayMs ? Math.ceil(Math.log2(rule.maxDelayMs / rule.baseDelayMs)) : 0;
  return rule.after + doublings + 1;
}

/** Refused while less than the owed delay has passed since the most recent failure in the window. */
export function slowdownVerdict(failures: readonly number[], rule: SlowdownRule, now: number): ThrottleVerdict {
  const recent = failures.filter((at) => at > now - rule.windowMs);
  const delay = slowdownDelayMs(recent.length, rule);
  if (delay === 0) return { allowed: true };
  const wait = Math.max(...recent) + delay - now;
  return wait > 0 ? { allowed: false, retryAfterMs: wait } : { allowed: true };
}

export interface LoginRules {
  /** Failures per (account, address): refused past the limit. */
  pair: ThrottleRule;
  /** Failures per address, whatever the account: refused past the limit. */
  ip: ThrottleRule;
  /** Failures per account across addresses: slowed down, never locked out. */
  account: SlowdownRule;
}

/** Recent failure times (ms) of one attempt's three keys. */
export interface LoginFailures {
  pair: readonly number[];
  ip: readonly number[];
  account: readonly number[];
}

export type LoginScope = 'pair' | 'ip' | 'account';
export type LoginVerdict = { allowed: true } | { allowed: false; scope: LoginScope; retryAfterMs: number };

/**
 * The decision for one sign-in attempt. The per-pair and per-address limits refuse; the account's
 * slow-down applies only when the address has a failure of its own within the window (an address
 * with none is never slowed). Of several refusals, the longest wait is answered.
 */
export function loginVerdict(failures: LoginFailures, rules: LoginRules, now: number): LoginVerdict {
  const verdicts: [LoginScope, ThrottleVerdict][] = [
    ['pair', throttleVerdict(failures.pair, rules.pair, now)],
    ['ip', throttleVerdict(failures.ip, rules.ip, now)],
  ];
  if (!addressIsClean(failures.ip, rules.ip, now)) verdicts.push(['account', slowdownVerdict(failures.account, rules.account, now)]);
  let worst: LoginVerdict = { allowed: true };
  for (const [scope, verdict] of verdicts) {
    if (!verdict.allowed && (worst.allowed || verdict.retryAfterMs > worst.retryAfterMs)) {
      worst = { allowed: false, scope, retryAfterMs: verdict.retryAfterMs };
    }
  }
  return worst;
}

/** Whether an address has no failure of its own within the window (then it is never slowed, and its check goes first). */
export function addressIsClean(ipFailures: readonly number[], rule: ThrottleRule, now: number): boolean {
  return !ipFailures.some((at) => at > now - rule.windowMs);
}

/** The keys of one attempt in `login_failures` (an e-mail has no whitespace, so a space separates). */
export function loginKeys(email: string, ip: string): Record<LoginScope, string> {
  return { pair: `pair:${ip} ${email}`, ip: `ip:${ip}`, account: `account:${email}` };
}

export type AttemptStart =
  /** `cleanAddress`: the address had no failure within the window before this attempt. */
  { allowed: true; attemptId: string; cleanAddress: boolean } | { allowed: false; scope: LoginScope; retryAfterSeconds: number };

// advisory lock namespace (first of the two 32-bit keys); the second is hashtext(key)
const LOCK_CLASS = ADVISORY_LOCKS.loginThrottle;

export class LoginThrottle {
  private readonly pool: Pool;
  private readonly rules: LoginRules;

  constructor(pool: Pool, rules: LoginRules) {
    this.pool = pool;
    this.rules = rules;
  }

  /** Starts an attempt: refused by `loginVerdict`, otherwise counted as a failure until `succeeded`. */
  async begin(email: string, ip: string): Promise<AttemptStart> {
    const keys = loginKeys(email, ip);
    const samples: Record<LoginScope, { windowMs: number; limit: number }> = {
      pair: this.rules.pair,
      ip: this.rules.ip,
      account: { windowMs: this.rules.account.windowMs, limit: slowdownSample(this.rules.account) },
    };
    return withTransaction(this.pool, async (client) => {
      // every key locked in one fixed order, so two attempts never wait on each other in a cycle
      for (const key of Object.values(keys).sort()) {
        await client.query('select pg_advisory_xact_lock($1, hashtext($2))', [LOCK_CLASS, key]);
      }
      const failures: Record<LoginScope, number[]> = { pair: [], ip: [], account: [] };
      let now = Date.now();
      for (const scope of ['pair', 'ip', 'account'] as const) {
        const { rows } = await client.query<{ at: number; now: number }>(
          `select (extract(epoch from at) * 1000)::float8 as at, (extract(epoch from now()) * 1000)::float8 as now
           from login_failures where key = $1 and at > now() - $2::bigint * interval '1 millisecond'
           order by at desc limit $3`,
          [keys[scope], samples[scope].windowMs, samples[scope].limit],
        );
        failures[scope] = rows.map((r) => r.at);
        if (rows[0]) now = rows[0].now;
      }
      const verdict = loginVerdict(failures, this.rules, now);
      if (!verdict.allowed) return { allowed: false, scope: verdict.scope, retryAfterSeconds: retryAfterSeconds(verdict.retryAfterMs) };
      const attemptId = newId('att');
      await client.query('insert into login_failures (key, attempt_id) select unnest($1::text[]), $2', [Object.values(keys), attemptId]);
      return { allowed: true, attemptId, cleanAddress: addressIsClean(failures.ip, this.rules.ip, now) };
    });
  }

  /**
   * The attempt was right: it is not a failure, and this address's earlier failures on the
   * account are forgiven (in the pair's count and the account's, never in the address's).
   */
  async succeeded(attemptId: string, email: string, ip: string): Promise<void> {
    const keys = loginKeys(email, ip);
    await this.pool.query(
      `delete from login_failures where attempt_id = $1
          or (key in ($2, $3) and attempt_id in (select attempt_id from login_failures where key = $2))`,
      [attemptId, keys.pair, keys.account],
    );
  }

  /** The attempt was never judged (the check could not run, for a clean address): it is not a failure. */
  async abandon(attemptId: string): Promise<void> {
    await this.pool.query('delete from login_failures where attempt_id = $1', [attemptId]);
  }

  /** Forgets failures older than every window. */
  async sweep(): Promise<void> {
    const longest = Math.max(this.rules.pair.windowMs, this.rules.ip.windowMs, this.rules.account.windowMs);
    await this.pool.query(`delete from login_failures where at < now() - $1::bigint * interval '1 millisecond'`, [longest]);
  }
}
