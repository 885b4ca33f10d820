/**
 * The domain operations of the dashboard and the admin CLI, one module per resource, built here
 * in dependency order:
 * - `access`: who may do what where (access.ts); every operation takes an `Actor`;
 * - `signIn`: e-mail and password, throttled (sign-in.ts);
 * - `organizations`: organizations, members, the audit log, the operator's create-user;
 * - `invitations`, `projects` (with their environments), `credentials` (API keys, origins).
 *
 * Every change writes its audit entry in its own transaction (audited-change.ts). Changes that
 * take credentials away call `onCredentialsChanged` after commit; changes that take a member's
 * access away call `onMemberAccessReduced`.
 */
import type { Pool } from '@rtm/db';
import { AccessControl } from './access.ts';
import { Credentials } from './credentials.ts';
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
  /** After commit, when an environment's keys or origins changed or it was deleted. */
  onCredentialsChanged?: (environmentId: string) => void | Promise<void>;
  /**
   * After commit, when a member lost something in an organization: removed (or left), or moved to
   * a lower role. The gateway revokes the logs tokens they minted for its environments.
   */
  onMemberAccessReduced?: (organizationId: string, userId: string) => void | Promise<void>;
}

export class Accounts {
  readonly access: AccessControl;
  /** Refuses to sign anyone in when built without a throttle (the CLI). */
  readonly signIn: SignIn;
  readonly organizations: Organizations;
  readonly invitations: Invitations;
  readonly projects: Projects;
  readonly credentials: Credentials;

  constructor(options: AccountsOptions) {
    const credentialsChanged = options.onCredentialsChanged ?? (() => {});
    this.access = new AccessControl(options.pool);
    this.signIn = new SignIn(options.pool, options.throttle);
    this.organizations = new Organizations(this.access, options.onMemberAccessReduced ?? (() => {}));
    this.invitations = new Invitations(this.access, this.signIn, options.invitationTtlMs ?? 7 * 86_400_000);
    this.projects = new Projects(this.access, credentialsChanged);
    this.credentials = new Credentials(this.access, credentialsChanged);
  }
}
