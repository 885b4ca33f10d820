/**
 * The domain operations of the dashboard and the admin CLI, one module per resource, built here
 * in dependency order:
 * - `access`: who may do what where (access.ts); every operation takes an `Actor`;
 * - `signIn`: e-mail and password, throttled (sign-in.ts);
 * - `organizations`: organizations, members, the audit log, the operator's create-user;
 * - `invitations`, `projects` (with their environments), `credentials` (API keys, origins);
 * - `recovery`: codes mailed to prove an e-mail address (a new account's, a password reset's).
 *
 * Every change writes its audit entry in its own transaction (audited-change.ts). Changes that
 * take credentials away call `onCredentialsChanged` after commit; changes that take a member's
 * access away call `onMemberAccessReduced`.
 */
import type { Pool } from '@rtm/db';
import { AccessControl } from './access.ts';
import { Credentials } from './credentials.ts';
import { EmailCodes, type EmailCodeRules } from './email-codes.ts';
import type { MailMessage, MailSender } from './mail.ts';
import { Recovery } from './recovery.ts';
import { Invitations } from './invitations.ts';
import { Organizations } from './organizations.ts';
import { Projects } from './projects.ts';
import { SignIn } from './sign-in.ts';
import type { LoginThrottle } from './throttle.ts';

export interface AccountsOptions {
  pool: Pool;
  /** Sign-in throttling; needed to sign in and to accept invitations (the CLI signs nobody in). */
  throttle?: LoginThrottle;
  /** How long an invitation link stays valid (default 7 days). */
  invitationTtlMs?: number;
  /** Where mail to users goes (verification and reset codes); without one (the CLI) nothing can be mailed. */
  mail?: MailSender;
  /** A mail the sender could not hand over. */
  onMailFailure?: (error: unknown, message: Pick<MailMessage, 'to' | 'purpose'>) => void;
  /** Lifetime and request limits of e-mail codes (default: DEFAULT_EMAIL_CODE_RULES). */
  emailCodeRules?: EmailCodeRules;
  /** After commit, when an environment's keys or origins changed or it was deleted. */
  onCredentialsChanged?: (environmentId: string) => void | Promise<void>;
  /**
   * After commit, when a member lost something in an organization: removed (or left), or moved to
   * a lower role. The gateway revokes the logs tokens they minted for its environments.
   */
  onMemberAccessReduced?: (organizationId: string, userId: string) => void | Promise<void>;
}

const HOUR = 3_600_000;

/** Codes live 15 minutes; 5 asked per address and 20 per client address in an hour; 5 wrong guesses kill them. */
export const DEFAULT_EMAIL_CODE_RULES: EmailCodeRules = Object.freeze({
  ttlMs: 15 * 60_000,
  perEmail: { limit: 5, windowMs: HOUR },
  perRequester: { limit: 20, windowMs: HOUR },
  maxWrongGuesses: 5,
});

/** Built without a sender (the CLI): nothing can be mailed. */
const NO_MAIL: MailSender = {
  name: 'none',
  send: async () => {
    throw new Error('Accounts was built without a MailSender: it can not mail anyone');
  },
};

export class Accounts {
  readonly access: AccessControl;
  /** Refuses to sign anyone in when built without a throttle (the CLI). */
  readonly signIn: SignIn;
  readonly organizations: Organizations;
  readonly invitations: Invitations;
  readonly projects: Projects;
  readonly credentials: Credentials;
  readonly emailCodes: EmailCodes;
  readonly recovery: Recovery;

  constructor(options: AccountsOptions) {
    const credentialsChanged = options.onCredentialsChanged ?? (() => {});
    this.access = new AccessControl(options.pool);
    this.signIn = new SignIn(options.pool, options.throttle);
    this.organizations = new Organizations(this.access, options.onMemberAccessReduced ?? (() => {}));
    this.emailCodes = new EmailCodes(options.pool, options.emailCodeRules ?? DEFAULT_EMAIL_CODE_RULES);
    this.invitations = new Invitations(this.access, this.signIn, this.emailCodes, options.invitationTtlMs ?? 7 * 86_400_000);
    this.recovery = new Recovery({
      pool: options.pool,
      codes: this.emailCodes,
      mail: options.mail ?? NO_MAIL,
      onMailFailure: options.onMailFailure ?? (() => {}),
    });
    this.projects = new Projects(this.access, credentialsChanged);
    this.credentials = new Credentials(this.access, credentialsChanged);
  }
}
