/**
 * Dashboard sign-in sessions. The session id is 32 random bytes (base64url in the cookie); only
 * its sha256 is stored, so a copy of the table signs nobody in. A session ends at the first of:
 * sign-out, `idleMs` without a request, `maxMs` after sign-in (fixed when it is made).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Pool } from '@rtm/db';
import { csrfTokenFor } from './csrf.ts';

export interface SessionRules {
  idleMs: number;
  maxMs: number;
}

export interface Session {
  userId: string;
  email: string;
  userCreatedAt: Date;
  /** Sign-in time. */
  createdAt: Date;
  /** Absolute expiry. */
  expiresAt: Date;
  /** When the session ends unless used before: the earlier of the idle and absolute expiry. */
  idleExpiresAt: Date;
  csrfToken: string;
}

const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashSessionToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

export function isSessionTokenFormat(token: string): boolean {
  return TOKEN_FORMAT.test(token);
}

/**
 * How stale `last_seen_at` may get before a request refreshes it: a minute, or a tenth of the
 * idle time when that is shorter, so a session in use never idles out between refreshes.
 */
export function touchIntervalMs(idleMs: number): number {
  return Math.min(60_000, Math.floor(idleMs / 10));
}

export type SessionVerdict = { live: false; why: 'idle' | 'expired' } | { live: true; touch: boolean };

/**
 * A session at `now`: over (its absolute expiry passed, or unused for `idleMs`), or live; a live
 * one is touched (`last_seen_at` = now) when its last touch is older than touchIntervalMs.
 */
export function judgeSession(times: { expiresAt: Date; lastSeenAt: Date }, now: Date, rules: SessionRules): SessionVerdict {
  const at = now.getTime();
  if (times.expiresAt.getTime() <= at) return { live: false, why: 'expired' };
  if (times.lastSeenAt.getTime() <= at - rules.idleMs) return { live: false, why: 'idle' };
  return { live: true, touch: times.lastSeenAt.getTime() < at - touchIntervalMs(rules.idleMs) };
}

export class SessionStore {
  private readonly pool: Pool;
  readonly rules: SessionRules;
  private readonly onEnded: () => Promise<void>;

  /** `onEnded`: after sessions were ended here (signed out, swept), awaited before the call returns. */
  constructor(pool: Pool, rules: SessionRules, onEnded: () => Promise<void> = async () => {}) {
    this.pool = pool;
    this.rules = rules;
    this.onEnded = onEnded;
  }

  /** A new session of `userId`; the token goes into the cookie and nowhere else. */
  async create(userId: string): Promise<{ token: string; session: Session }> {
    const token = newSessionToken();
    const { rows } = await this.pool.query<{ created_at: Date; expires_at: Date; email: string; user_created_at: Date }>(
      `with made as (
         insert into dashboard_sessions (token_hash, user_id, expires_at)
         values ($1, $2, now() + $3::bigint * interval '1 millisecond')
         returning user_id, created_at, expires_at)
       select made.created_at, made.expires_at, u.email, u.created_at as user_created_at
       from made join users u on u.id = made.user_id`,
      [hashSessionToken(token), userId, this.rules.maxMs],
    );
    const row = rows[0]!;
    const session = this.shape({ ...row, user_id: userId, seen: row.created_at }, token);
    return { token, session };
  }

  /** The live session of `token` (refreshing its idle time), or null when unknown, signed out or expired. */
  async find(token: string): Promise<Session | null> {
    if (!isSessionTokenFormat(token)) return null;
    const hash = hashSessionToken(token);
    // the database's clock decides, the same for every gateway
    const { rows } = await this.pool.query<SessionRow & { now: Date }>(
      `select s.user_id, u.email, u.created_at as user_created_at, s.created_at, s.expires_at, s.last_seen_at as seen, now() as now
       from dashboard_sessions s join users u on u.id = s.user_id where s.token_hash = $1`,
      [hash],
    );
    const row = rows[0];
    if (!row) return null;
    const verdict = judgeSession({ expiresAt: row.expires_at, lastSeenAt: row.seen }, row.now, this.rules);
    if (!verdict.live) return null;
    if (verdict.touch) {
      await this.pool.query('update dashboard_sessions set last_seen_at = greatest(last_seen_at, $2) where token_hash = $1', [hash, row.now]);
      row.seen = row.now;
    }
    return this.shape(row, token);
  }

  /** Signs a session out; true when it existed. */
  async delete(token: string): Promise<boolean> {
    if (!isSessionTokenFormat(token)) return false;
    const result = await this.pool.query('delete from dashboard_sessions where token_hash = $1', [hashSessionToken(token)]);
    const ended = (result.rowCount ?? 0) > 0;
    if (ended) await this.onEnded();
    return ended;
  }

  /** Signs every session of a user out (e.g. after a password change). */
  async deleteForUser(userId: string): Promise<void> {
    const result = await this.pool.query('delete from dashboard_sessions where user_id = $1', [userId]);
    if ((result.rowCount ?? 0) > 0) await this.onEnded();
  }

  /** Deletes expired sessions (expiry is also checked on every lookup; this only frees rows). */
  async sweep(): Promise<void> {
    await this.pool.query(`delete from dashboard_sessions where expires_at <= now() or last_seen_at <= now() - $1::bigint * interval '1 millisecond'`, [
      this.rules.idleMs,
    ]);
    // sessions that idled out or expired since the last sweep ended without a deletion here
    await this.onEnded();
  }

  private shape(row: SessionRow, token: string): Session {
    const idleEnd = new Date(row.seen.getTime() + this.rules.idleMs);
    return {
      userId: row.user_id,
      email: row.email,
      userCreatedAt: row.user_created_at,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      idleExpiresAt: idleEnd < row.expires_at ? idleEnd : row.expires_at,
      csrfToken: csrfTokenFor(token),
    };
  }
}

interface SessionRow {
  user_id: string;
  email: string;
  user_created_at: Date;
  created_at: Date;
  expires_at: Date;
  /** The last request's time. */
  seen: Date;
}
