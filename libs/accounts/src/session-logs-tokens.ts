/**
 * Logs tokens minted with a dashboard session, tied to that session: each is recorded with the
 * session's token hash (`logs_token_sessions`), so that when the session ends (signed out,
 * replaced by a new sign-in in the same browser, idle or past its absolute expiry, or every
 * session of its user ended) the gateway can revoke the tokens it minted and close their logs
 * sockets. The session's liveness is judged as `judgeSession` judges it, by the database's clock.
 */
import type { Pool } from '@rtm/db';
import { hashSessionToken, type SessionRules } from './sessions.ts';

export interface SessionLogsToken {
  jti: string;
  environmentId: string;
}

// the session of a row is live: present, before its absolute expiry, used within the idle time
const LIVE_SESSION = `exists (select 1 from dashboard_sessions s where s.token_hash = l.session_hash
  and s.expires_at > now() and s.last_seen_at > now() - $1::bigint * interval '1 millisecond')`;

/**
 * How often a gateway revokes the logs tokens of sessions that idled out or expired (ending a
 * session through the store revokes at once): every 30 s, or every half idle time when that is
 * shorter, at least every second.
 */
export function endedSessionsIntervalMs(idleMs: number): number {
  return Math.max(1_000, Math.min(30_000, Math.floor(idleMs / 2)));
}

export class SessionLogsTokens {
  private readonly pool: Pool;
  private readonly rules: SessionRules;

  constructor(pool: Pool, rules: SessionRules) {
    this.pool = pool;
    this.rules = rules;
  }

  /** A logs token was minted with the session of `sessionToken`. */
  async record(sessionToken: string, token: SessionLogsToken & { expiresAt: Date }): Promise<void> {
    await this.pool.query(
      'insert into logs_token_sessions (jti, environment_id, session_hash, expires_at) values ($1, $2, $3, $4) on conflict (jti) do nothing',
      [token.jti, token.environmentId, hashSessionToken(sessionToken), token.expiresAt],
    );
  }

  /** Unexpired tokens whose session is over (rows of expired tokens are dropped: nothing left to revoke). */
  async ofEndedSessions(): Promise<SessionLogsToken[]> {
    await this.pool.query('delete from logs_token_sessions where expires_at <= now()');
    const { rows } = await this.pool.query<{ jti: string; environment_id: string }>(
      `select l.jti, l.environment_id from logs_token_sessions l where l.expires_at > now() and not ${LIVE_SESSION}`,
      [this.rules.idleMs],
    );
    return rows.map((r) => ({ jti: r.jti, environmentId: r.environment_id }));
  }

  /** Their revocation is written and published: the rows have done their work. */
  async forget(jtis: readonly string[]): Promise<void> {
    if (jtis.length === 0) return;
    await this.pool.query('delete from logs_token_sessions where jti = any($1::text[])', [jtis]);
  }

  /** Whether a token was minted by a session that is over now (false for a token no session minted). */
  async sessionEnded(jti: string): Promise<boolean> {
    const { rows } = await this.pool.query<{ ended: boolean }>(`select not ${LIVE_SESSION} as ended from logs_token_sessions l where l.jti = $2`, [
      this.rules.idleMs,
      jti,
    ]);
    return rows[0]?.ended ?? false;
  }
}
