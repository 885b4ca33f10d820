/**
 * The dashboard's side of the gateway: accounts, sessions and sign-in throttling (the rules
 * live in @rtm/accounts; docs/dashboard.md describes them), and where its mail goes. Built without side effects;
 * `start()` starts the sweep of expired sessions, old sign-in failures and dead e-mail codes, and the revocation of
 * logs tokens whose minting session ended, `stop()` ends them. `install()` puts the Origin check in front of every
 * state-changing dashboard route of the control plane; the routes themselves are in
 * routes/dashboard/ and take the session with `requireDashboardSession`.
 */
import type { GatewayConfig } from '@rtm/config';
import type { Pool } from '@rtm/db';
import { ServiceError } from '@rtm/errors';
import {
  Accounts,
  DEFAULT_EMAIL_CODE_RULES,
  LoginThrottle,
  SessionLogsTokens,
  SessionStore,
  builtInMailSender,
  endedSessionsIntervalMs,
  judgeOrigin,
} from '@rtm/accounts';
import type { Logger } from '@rtm/ops';
import type { ZodApp } from '../http/public-app.ts';
import { DASHBOARD_PREFIX, UNSAFE_METHODS, requestOrigin } from './session-auth.ts';

const SWEEP_MS = 5 * 60_000;
/** The first delay of an account's sign-in slow-down; each further failure doubles it. */
const LOGIN_BASE_DELAY_MS = 1_000;

export class Dashboard {
  readonly accounts: Accounts;
  readonly sessions: SessionStore;
  /** Logs tokens minted with a session, revoked when it ends. */
  readonly sessionLogs: SessionLogsTokens;
  private readonly throttle: LoginThrottle;
  private readonly log: Logger;
  private readonly sessionsEnded: () => Promise<void>;
  private readonly endedSessionsMs: number;
  private timers: NodeJS.Timeout[] = [];

  constructor(parts: {
    config: GatewayConfig;
    pool: Pool;
    log: Logger;
    /** After an environment's keys or origins changed: drop cached credentials on every gateway. */
    onCredentialsChanged: (environmentId: string) => void;
    /** After a member was removed or moved to a lower role: revoke the logs tokens they minted. */
    onMemberAccessReduced: (organizationId: string, userId: string) => Promise<void>;
    /** After sessions ended: revoke the logs tokens minted with any session that is over. */
    onSessionsEnded: () => Promise<void>;
  }) {
    const { config, pool } = parts;
    this.log = parts.log;
    this.throttle = new LoginThrottle(pool, {
      pair: { limit: config.DASHBOARD_LOGIN_FAILURES_PER_ACCOUNT, windowMs: config.DASHBOARD_LOGIN_WINDOW },
      ip: { limit: config.DASHBOARD_LOGIN_FAILURES_PER_IP, windowMs: config.DASHBOARD_LOGIN_WINDOW },
      account: {
        after: config.DASHBOARD_LOGIN_FAILURES_PER_ACCOUNT,
        windowMs: config.DASHBOARD_LOGIN_WINDOW,
        baseDelayMs: LOGIN_BASE_DELAY_MS,
        maxDelayMs: config.DASHBOARD_LOGIN_DELAY_MAX,
      },
    });
    const sessionRules = { idleMs: config.DASHBOARD_SESSION_IDLE, maxMs: config.DASHBOARD_SESSION_MAX };
    // a failure is logged, never the sign-out's: the tokens stay recorded and the next round revokes them
    this.sessionsEnded = () =>
      parts.onSessionsEnded().catch((error: unknown) => this.log.warn({ err: error }, 'revoking the logs tokens of ended sessions failed'));
    this.sessions = new SessionStore(pool, sessionRules, this.sessionsEnded);
    this.sessionLogs = new SessionLogsTokens(pool, sessionRules);
    this.endedSessionsMs = endedSessionsIntervalMs(sessionRules.idleMs);
    this.accounts = new Accounts({
      pool,
      throttle: this.throttle,
      invitationTtlMs: config.DASHBOARD_INVITATION_TTL,
      mail: builtInMailSender(config.DASHBOARD_MAIL_SENDER, parts.log),
      onMailFailure: (error, message) => this.log.warn({ err: error, to: message.to, purpose: message.purpose }, 'mail not sent'),
      emailCodeRules: {
        ...DEFAULT_EMAIL_CODE_RULES,
        ttlMs: config.DASHBOARD_EMAIL_CODE_TTL,
        perEmail: { ...DEFAULT_EMAIL_CODE_RULES.perEmail, limit: config.DASHBOARD_EMAIL_CODES_PER_EMAIL },
        perRequester: { ...DEFAULT_EMAIL_CODE_RULES.perRequester, limit: config.DASHBOARD_EMAIL_CODES_PER_IP },
      },
      onCredentialsChanged: parts.onCredentialsChanged,
      onMemberAccessReduced: parts.onMemberAccessReduced,
    });
  }

  start(): void {
    this.timers = [setInterval(() => void this.sweep(), SWEEP_MS), setInterval(() => void this.sessionsEnded(), this.endedSessionsMs)];
    for (const timer of this.timers) timer.unref();
  }

  stop(): void {
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
  }

  /**
   * Every POST, PUT, PATCH and DELETE under /v1/dashboard/ must come from the origin the
   * dashboard is served on (`Origin`, else `Referer`; a request with neither is judged by its
   * CSRF token alone); answers are never cached.
   */
  install(app: ZodApp): void {
    app.addHook('onRequest', async (request, reply) => {
      if (!request.routeOptions.url?.startsWith(DASHBOARD_PREFIX)) return;
      reply.header('cache-control', 'no-store');
      if (!UNSAFE_METHODS.has(request.method)) return;
      const origin = request.headers.origin;
      const referer = request.headers.referer;
      if (judgeOrigin(requestOrigin(request), origin, referer) === 'foreign') {
        throw new ServiceError('forbidden', "cross-site request refused: Origin must be the dashboard's own");
      }
    });
  }

  private async sweep(): Promise<void> {
    try {
      await this.sessions.sweep();
      await this.throttle.sweep();
      await this.accounts.emailCodes.sweep();
    } catch (error) {
      this.log.warn({ err: error }, 'dashboard sweep failed');
    }
  }
}
