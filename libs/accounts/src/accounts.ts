/**
 * The domain operations of the dashboard and the admin CLI: sign-in, organizations and their
 * members, invitations, projects, environments, API keys, allowed origins and the audit log.
 *
 * Every operation takes an `Actor`. A user acts only inside organizations they belong to: an id
 * of another organization (or of a project, environment or key in one) is `not_found`, exactly
 * like an id that does not exist, and a role without the right an operation needs is
 * `forbidden`. The CLI acts as the operator, in every organization. Every change writes its
 * audit entry in the same transaction. Changes that take credentials away (a revoked key, a
 * removed or added origin, a deleted environment) call `onCredentialsChanged` after commit so
 * the caller can tell every gateway to drop its cached credentials of that environment.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ADVISORY_LOCKS, newId, withTransaction, type Pool, type PoolClient } from '@rtm/db';
import { createEnvironmentIn, hashKey, insertEnvironment, insertKeyRow, type CreatedEnvironment, type KeyKind } from '@rtm/auth';
import { ServiceError } from '@rtm/errors';
import { listAudit, recordAudit, type Actor, type AuditRecord } from './audit.ts';
import { HashingBusyError, hashPassword, needsRehash, passwordProblem, verifyDummyPassword, verifyPassword } from './password.ts';
import { allows, isLowerRole, type Right, type Role } from './roles.ts';
import type { LoginThrottle } from './throttle.ts';
import { normaliseAllowedOrigin } from './origins.ts';
import { findUserByEmail, insertUser, isEmail, normaliseEmail, setPasswordHash, type UserRecord } from './users.ts';

type Queryable = Pool | PoolClient;

export interface AccountsOptions {
  pool: Pool;
  /** Sign-in throttling; needed by `signIn` and `acceptInvitation` (the CLI signs nobody in). */
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

export interface Membership {
  id: string;
  name: string;
  role: Role;
  createdAt: Date;
}

export interface OrganizationView extends Membership {
  projectCount: number;
  memberCount: number;
}

export interface MemberView {
  userId: string;
  email: string;
  role: Role;
  joinedAt: Date;
}

export interface InvitationView {
  id: string;
  organizationId: string;
  role: Role;
  email: string | null;
  status: 'pending' | 'accepted' | 'revoked' | 'expired';
  createdAt: Date;
  expiresAt: Date;
  createdBy: string | null;
}

export interface ProjectView {
  id: string;
  organizationId: string;
  name: string;
  environmentCount: number;
  createdAt: Date;
}

export interface EnvironmentView {
  id: string;
  organizationId: string;
  projectId: string;
  name: string;
  activeKeyCount: number;
  originCount: number;
  createdAt: Date;
}

export interface KeyView {
  id: string;
  environmentId: string;
  kind: KeyKind;
  /** The first characters of the key, to recognise it. */
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface OriginView {
  origin: string;
  createdAt: Date;
}

/** Where a scoped id lives, and the actor's role there. */
export interface Access {
  organizationId: string;
  projectId?: string;
  environmentId?: string;
  role: Role;
}

export type Scope = { organizationId: string } | { projectId: string } | { environmentId: string };

/** The refusal of a throttled sign-in: the same for every scope and for known and unknown e-mails. */
const THROTTLED = 'too many failed sign-ins for this account or address; try again later';

const NOT_FOUND: Record<string, string> = {
  organizationId: 'no such organization',
  projectId: 'no such project',
  environmentId: 'no such environment',
};

const RIGHT_WORDS: Record<Right, string> = {
  read: 'read this organization',
  manage: 'change projects, environments, keys or origins (admin or owner)',
  administer: 'manage members and invitations (owner)',
};

const INVITATION_TOKEN = /^[A-Za-z0-9_-]{43}$/;

export const hashInvitationToken = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string } | undefined)?.code === '23505';
}

function checkedPassword(password: string): string {
  const problem = passwordProblem(password);
  if (problem) throw new ServiceError('invalid_request', problem);
  return password;
}

function checkedEmail(email: string): string {
  const normalised = normaliseEmail(email);
  if (!isEmail(normalised)) throw new ServiceError('invalid_request', 'not an e-mail address');
  return normalised;
}

/** Hashing is saturated in this process: answer 503 (retry) rather than queueing without end. */
async function hashing<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof HashingBusyError) throw new ServiceError('unavailable', 'too many sign-ins at once; retry', { retryAfter: 1 });
    throw error;
  }
}

export class Accounts {
  private readonly pool: Pool;
  private readonly throttleOrNone: LoginThrottle | undefined;
  private readonly invitationTtlMs: number;
  private readonly onCredentialsChanged: (environmentId: string) => void | Promise<void>;
  private readonly onMemberAccessReduced: (organizationId: string, userId: string) => void | Promise<void>;

  constructor(options: AccountsOptions) {
    this.pool = options.pool;
    this.throttleOrNone = options.throttle;
    this.invitationTtlMs = options.invitationTtlMs ?? 7 * 86_400_000;
    this.onCredentialsChanged = options.onCredentialsChanged ?? (() => {});
    this.onMemberAccessReduced = options.onMemberAccessReduced ?? (() => {});
  }

  private get throttle(): LoginThrottle {
    if (!this.throttleOrNone) throw new Error('Accounts was built without a LoginThrottle: it can not sign anyone in');
    return this.throttleOrNone;
  }

  // ---------------------------------------------------------------- access

  /**
   * Where `scope` lives and the actor's role there, when the actor may use `right` on it.
   * Unknown, or in an organization the user is not a member of: 404 `not_found`; a member
   * whose role lacks the right: 403 `forbidden`. The CLI acts as an owner everywhere.
   */
  async authorize(actor: Actor, scope: Scope, right: Right, client: Queryable = this.pool): Promise<Access> {
    const [column, id] = Object.entries(scope)[0] as [keyof typeof NOT_FOUND, string];
    const from = {
      organizationId: 'organizations o',
      projectId: 'projects p join organizations o on o.id = p.organization_id',
      environmentId:
        'environments e join projects p on p.id = e.project_id join organizations o on o.id = p.organization_id',
    }[column];
    const where = { organizationId: 'o.id', projectId: 'p.id', environmentId: 'e.id' }[column];
    const select = { organizationId: 'o.id as o', projectId: 'o.id as o, p.id as p', environmentId: 'o.id as o, p.id as p, e.id as e' }[column];
    const user = actor.kind === 'user';
    const { rows } = await client.query<{ o: string; p?: string; e?: string; role: Role | null }>(
      user
        ? `select ${select}, m.role from ${from} join organization_members m on m.organization_id = o.id and m.user_id = $2 where ${where} = $1`
        : `select ${select}, null as role from ${from} where ${where} = $1`,
      user ? [id, actor.userId] : [id],
    );
    const row = rows[0];
    if (!row) throw new ServiceError('not_found', NOT_FOUND[column]);
    const role: Role = row.role ?? 'owner';
    if (!allows(role, right)) throw new ServiceError('forbidden', `your role (${role}) may not ${RIGHT_WORDS[right]}`);
    return {
      organizationId: row.o,
      ...(row.p !== undefined && { projectId: row.p }),
      ...(row.e !== undefined && { environmentId: row.e }),
      role,
    };
  }

  /** For other subsystems' routes: the environment, when the actor may use `right` on it. */
  environmentAccess(actor: Actor, environmentId: string, right: Right): Promise<Access & { projectId: string; environmentId: string }> {
    return this.authorize(actor, { environmentId }, right) as Promise<Access & { projectId: string; environmentId: string }>;
  }

  // ---------------------------------------------------------------- sign-in

  /**
   * Checks an e-mail and password, throttled per (account, address) and per address, and slowed
   * down per account (throttle.ts). A wrong password and an unknown e-mail are the same 401 and
   * cost the same (an unknown e-mail is checked against a dummy hash); refused by the throttle:
   * 429 with `retry-after`, before any check.
   */
  async signIn(email: string, password: string, ip: string): Promise<UserRecord> {
    const normalised = normaliseEmail(email);
    const attempt = await this.throttle.begin(normalised, ip);
    if (!attempt.allowed) {
      throw new ServiceError('rate_limited', THROTTLED, {
        retryAfter: attempt.retryAfterSeconds,
      });
    }
    const user = await findUserByEmail(this.pool, normalised);
    let ok: boolean;
    try {
      ok = await hashing(() => (user ? verifyPassword(password, user.passwordHash) : verifyDummyPassword(password)));
    } catch (error) {
      // not checked at all: not a failure either
      await this.throttle.abandon(attempt.attemptId);
      throw error;
    }
    if (!ok || !user) throw new ServiceError('unauthorized', 'wrong e-mail or password');
    await this.throttle.succeeded(attempt.attemptId, normalised, ip);
    if (needsRehash(user.passwordHash)) {
      // stronger parameters than when it was stored: store a new hash (the sign-in does not wait)
      void hashPassword(password)
        .then((hash) => setPasswordHash(this.pool, user.id, hash))
        .catch(() => {});
    }
    return user;
  }

  // ---------------------------------------------------------------- organizations and members

  async organizationsOf(userId: string): Promise<Membership[]> {
    const { rows } = await this.pool.query<{ id: string; name: string; role: Role; created_at: Date }>(
      `select o.id, o.name, m.role, o.created_at from organization_members m join organizations o on o.id = m.organization_id
       where m.user_id = $1 order by o.name, o.id`,
      [userId],
    );
    return rows.map((r) => ({ id: r.id, name: r.name, role: r.role, createdAt: r.created_at }));
  }

  async organization(actor: Actor, organizationId: string): Promise<OrganizationView> {
    const access = await this.authorize(actor, { organizationId }, 'read');
    const { rows } = await this.pool.query<{ id: string; name: string; created_at: Date; projects: number; members: number }>(
      `select o.id, o.name, o.created_at,
              (select count(*)::int from projects where organization_id = o.id) as projects,
              (select count(*)::int from organization_members where organization_id = o.id) as members
       from organizations o where o.id = $1`,
      [organizationId],
    );
    const row = rows[0]!;
    return { id: row.id, name: row.name, role: access.role, createdAt: row.created_at, projectCount: row.projects, memberCount: row.members };
  }

  async members(actor: Actor, organizationId: string): Promise<MemberView[]> {
    await this.authorize(actor, { organizationId }, 'read');
    const { rows } = await this.pool.query<{ user_id: string; email: string; role: Role; created_at: Date }>(
      `select m.user_id, u.email, m.role, m.created_at from organization_members m join users u on u.id = m.user_id
       where m.organization_id = $1 order by m.created_at, u.email`,
      [organizationId],
    );
    return rows.map((r) => ({ userId: r.user_id, email: r.email, role: r.role, joinedAt: r.created_at }));
  }

  /** Owners only. The last owner can not be demoted: an organization always keeps one. */
  async setRole(actor: Actor, organizationId: string, userId: string, role: Role): Promise<MemberView> {
    let lowered = false;
    const member = await withTransaction(this.pool, async (client) => {
      await this.authorize(actor, { organizationId }, 'administer', client);
      const members = await this.lockMembers(client, organizationId);
      const target = members.find((m) => m.userId === userId);
      if (!target) throw new ServiceError('not_found', 'no such member');
      if (target.role === role) return target;
      if (target.role === 'owner' && members.filter((m) => m.role === 'owner').length === 1) {
        throw new ServiceError('invalid_request', 'the last owner of an organization can not be demoted; make someone else owner first');
      }
      await client.query('update organization_members set role = $3 where organization_id = $1 and user_id = $2', [organizationId, userId, role]);
      await recordAudit(client, actor, {
        organizationId,
        action: 'member.role_changed',
        targetType: 'user',
        targetId: userId,
        details: { email: target.email, from: target.role, to: role },
      });
      lowered = isLowerRole(role, target.role);
      return { ...target, role };
    });
    if (lowered) await this.onMemberAccessReduced(organizationId, userId);
    return member;
  }

  /** The user's role in the organization that holds the environment; null when not a member (or no such environment). */
  async roleInEnvironment(environmentId: string, userId: string): Promise<Role | null> {
    const { rows } = await this.pool.query<{ role: Role }>(
      `select m.role from environments e join projects p on p.id = e.project_id
       join organization_members m on m.organization_id = p.organization_id and m.user_id = $2
       where e.id = $1`,
      [environmentId, userId],
    );
    return rows[0]?.role ?? null;
  }

  /** Owners remove anyone; any member may leave. Never the last owner. */
  async removeMember(actor: Actor, organizationId: string, userId: string): Promise<void> {
    await withTransaction(this.pool, async (client) => {
      const self = actor.kind === 'user' && actor.userId === userId;
      await this.authorize(actor, { organizationId }, self ? 'read' : 'administer', client);
      const members = await this.lockMembers(client, organizationId);
      const target = members.find((m) => m.userId === userId);
      if (!target) throw new ServiceError('not_found', 'no such member');
      if (target.role === 'owner' && members.filter((m) => m.role === 'owner').length === 1) {
        throw new ServiceError('invalid_request', 'the last owner of an organization can not be removed; make someone else owner first');
      }
      await client.query('delete from organization_members where organization_id = $1 and user_id = $2', [organizationId, userId]);
      await recordAudit(client, actor, {
        organizationId,
        action: self ? 'member.left' : 'member.removed',
        targetType: 'user',
        targetId: userId,
        details: { email: target.email, role: target.role },
      });
    });
    await this.onMemberAccessReduced(organizationId, userId);
  }

  private async lockMembers(client: PoolClient, organizationId: string): Promise<MemberView[]> {
    const { rows } = await client.query<{ user_id: string; email: string; role: Role; created_at: Date }>(
      `select m.user_id, u.email, m.role, m.created_at from organization_members m join users u on u.id = m.user_id
       where m.organization_id = $1 order by m.user_id for update of m`,
      [organizationId],
    );
    return rows.map((r) => ({ userId: r.user_id, email: r.email, role: r.role, joinedAt: r.created_at }));
  }

  // ---------------------------------------------------------------- invitations

  /** Owners only: a single-use invitation; the token is answered here once and stored hashed. */
  async invite(actor: Actor, organizationId: string, options: { role: Role; email?: string | undefined }): Promise<{ invitation: InvitationView; token: string }> {
    const email = options.email === undefined ? null : checkedEmail(options.email);
    const token = randomBytes(32).toString('base64url');
    return withTransaction(this.pool, async (client) => {
      await this.authorize(actor, { organizationId }, 'administer', client);
      const id = newId('inv');
      const { rows } = await client.query<{ created_at: Date; expires_at: Date }>(
        `insert into invitations (id, organization_id, token_hash, role, email, created_by, expires_at)
         values ($1, $2, $3, $4, $5, $6, now() + $7::bigint * interval '1 millisecond') returning created_at, expires_at`,
        [id, organizationId, hashInvitationToken(token), options.role, email, actor.kind === 'user' ? actor.userId : null, this.invitationTtlMs],
      );
      await recordAudit(client, actor, {
        organizationId,
        action: 'invitation.created',
        targetType: 'invitation',
        targetId: id,
        details: { role: options.role, email, expiresAt: rows[0]!.expires_at.toISOString() },
      });
      const invitation: InvitationView = {
        id,
        organizationId,
        role: options.role,
        email,
        status: 'pending',
        createdAt: rows[0]!.created_at,
        expiresAt: rows[0]!.expires_at,
        createdBy: actor.kind === 'user' ? actor.email : null,
      };
      return { invitation, token };
    });
  }

  /** The newest 100 invitations of an organization, with their state; never their tokens. */
  async invitations(actor: Actor, organizationId: string): Promise<InvitationView[]> {
    await this.authorize(actor, { organizationId }, 'read');
    const { rows } = await this.pool.query<InvitationRow>(
      `select ${INVITATION_COLUMNS} from invitations i left join users u on u.id = i.created_by
       where i.organization_id = $1 order by i.created_at desc, i.id desc limit 100`,
      [organizationId],
    );
    return rows.map(invitationView);
  }

  /** Owners only: a pending invitation stops working. */
  async revokeInvitation(actor: Actor, organizationId: string, invitationId: string): Promise<InvitationView> {
    return withTransaction(this.pool, async (client) => {
      await this.authorize(actor, { organizationId }, 'administer', client);
      const { rows } = await client.query<InvitationRow>(
        `select ${INVITATION_COLUMNS} from invitations i left join users u on u.id = i.created_by
         where i.id = $1 and i.organization_id = $2 for update of i`,
        [invitationId, organizationId],
      );
      if (!rows[0]) throw new ServiceError('not_found', 'no such invitation');
      const view = invitationView(rows[0]);
      if (view.status === 'revoked') return view;
      if (view.status !== 'pending') throw new ServiceError('invalid_request', `the invitation is already ${view.status}`);
      await client.query('update invitations set revoked_at = now() where id = $1', [invitationId]);
      await recordAudit(client, actor, {
        organizationId,
        action: 'invitation.revoked',
        targetType: 'invitation',
        targetId: invitationId,
        details: { role: view.role, email: view.email },
      });
      return { ...view, status: 'revoked' };
    });
  }

  /** What a pending invitation offers, for the page that accepts it; unknown, used, revoked or expired: 404. */
  async previewInvitation(token: string): Promise<{ organizationId: string; organizationName: string; role: Role; email: string | null; expiresAt: Date }> {
    const row = await this.pendingInvitation(this.pool, token);
    return { organizationId: row.organization_id, organizationName: row.organization_name, role: row.role, email: row.email, expiresAt: row.expires_at };
  }

  /**
   * Accepts an invitation: with the e-mail it names (or, when it names none, the one given) an
   * existing account joins after its password is checked (throttled like sign-in; a wrong one
   * is 401 and leaves the invitation unused), otherwise a new account is made with `password`.
   * The invitation is used up once, whoever gets there first; an existing member keeps their role.
   */
  async acceptInvitation(
    token: string,
    body: { email?: string | undefined; password: string },
    ip: string,
  ): Promise<{ user: UserRecord; organizationId: string; role: Role; created: boolean }> {
    const invitation = await this.pendingInvitation(this.pool, token);
    const given = body.email === undefined ? null : checkedEmail(body.email);
    if (invitation.email !== null && given !== null && given !== invitation.email) {
      throw new ServiceError('forbidden', 'this invitation is for another e-mail address');
    }
    const email = invitation.email ?? given;
    if (email === null) throw new ServiceError('invalid_request', 'body.email: required, the invitation names no e-mail address');

    let user = await findUserByEmail(this.pool, email);
    let created = false;
    let passwordHash: string | undefined;
    if (user) {
      const existing = user;
      const attempt = await this.throttle.begin(email, ip);
      if (!attempt.allowed) {
        throw new ServiceError('rate_limited', THROTTLED, {
          retryAfter: attempt.retryAfterSeconds,
        });
      }
      const ok = await hashing(() => verifyPassword(body.password, existing.passwordHash)).catch(async (error: unknown) => {
        await this.throttle.abandon(attempt.attemptId);
        throw error;
      });
      if (!ok) throw new ServiceError('unauthorized', 'wrong password for this account');
      await this.throttle.succeeded(attempt.attemptId, email, ip);
    } else {
      passwordHash = await hashing(() => hashPassword(checkedPassword(body.password)));
    }

    return withTransaction(this.pool, async (client) => {
      // locked and checked again: of two acceptances at once, one wins
      const row = await this.pendingInvitation(client, token, true);
      if (!user) {
        try {
          user = await insertUser(client, email, passwordHash!);
        } catch (error) {
          if (isUniqueViolation(error)) throw new ServiceError('unavailable', 'the account was created meanwhile; retry', { retryAfter: 1 });
          throw error;
        }
        created = true;
      }
      const joined = await client.query(
        `insert into organization_members (organization_id, user_id, role) values ($1, $2, $3) on conflict do nothing`,
        [row.organization_id, user.id, row.role],
      );
      await client.query('update invitations set accepted_at = now(), accepted_by = $2 where id = $1', [row.id, user.id]);
      const role: Role = (joined.rowCount ?? 0) > 0
        ? row.role
        : (await client.query<{ role: Role }>('select role from organization_members where organization_id = $1 and user_id = $2', [row.organization_id, user.id])).rows[0]!.role;
      await recordAudit(client, { kind: 'user', userId: user.id, email: user.email }, {
        organizationId: row.organization_id,
        action: 'invitation.accepted',
        targetType: 'user',
        targetId: user.id,
        details: { invitationId: row.id, email: user.email, role, accountCreated: created, alreadyMember: (joined.rowCount ?? 0) === 0 },
      });
      return { user, organizationId: row.organization_id, role, created };
    });
  }

  private async pendingInvitation(client: Queryable, token: string, lock = false): Promise<PendingRow> {
    if (!INVITATION_TOKEN.test(token)) throw new ServiceError('not_found', 'no such invitation, or it was used, revoked or has expired');
    const { rows } = await client.query<PendingRow>(
      `select i.id, i.organization_id, o.name as organization_name, i.role, i.email, i.expires_at
       from invitations i join organizations o on o.id = i.organization_id
       where i.token_hash = $1 and i.accepted_at is null and i.revoked_at is null and i.expires_at > now()
       ${lock ? 'for update of i' : ''}`,
      [hashInvitationToken(token)],
    );
    if (!rows[0]) throw new ServiceError('not_found', 'no such invitation, or it was used, revoked or has expired');
    return rows[0];
  }

  // ---------------------------------------------------------------- projects

  async projects(actor: Actor, organizationId: string): Promise<ProjectView[]> {
    await this.authorize(actor, { organizationId }, 'read');
    const { rows } = await this.pool.query<ProjectRow>(`${PROJECT_SELECT} where p.organization_id = $1 group by p.id order by p.name, p.id`, [organizationId]);
    return rows.map(projectView);
  }

  async project(actor: Actor, projectId: string): Promise<ProjectView> {
    await this.authorize(actor, { projectId }, 'read');
    return this.projectById(this.pool, projectId);
  }

  async createProject(actor: Actor, organizationId: string, name: string): Promise<ProjectView> {
    return withTransaction(this.pool, async (client) => {
      await this.authorize(actor, { organizationId }, 'manage', client);
      const id = newId('prj');
      try {
        await client.query('insert into projects (id, organization_id, name) values ($1, $2, $3)', [id, organizationId, name]);
      } catch (error) {
        if (isUniqueViolation(error)) throw new ServiceError('invalid_request', `a project named "${name}" already exists in this organization`);
        throw error;
      }
      await recordAudit(client, actor, { organizationId, action: 'project.created', targetType: 'project', targetId: id, details: { name } });
      return this.projectById(client, id);
    });
  }

  async renameProject(actor: Actor, projectId: string, name: string): Promise<ProjectView> {
    return withTransaction(this.pool, async (client) => {
      const access = await this.authorize(actor, { projectId }, 'manage', client);
      const before = await this.projectById(client, projectId, true);
      if (before.name === name) return before;
      try {
        await client.query('update projects set name = $2 where id = $1', [projectId, name]);
      } catch (error) {
        if (isUniqueViolation(error)) throw new ServiceError('invalid_request', `a project named "${name}" already exists in this organization`);
        throw error;
      }
      await recordAudit(client, actor, {
        organizationId: access.organizationId,
        action: 'project.renamed',
        targetType: 'project',
        targetId: projectId,
        details: { from: before.name, to: name },
      });
      return { ...before, name };
    });
  }

  /** Only an empty project: its environments are deleted first, each with its own confirmation. */
  async deleteProject(actor: Actor, projectId: string): Promise<void> {
    await withTransaction(this.pool, async (client) => {
      const access = await this.authorize(actor, { projectId }, 'manage', client);
      const project = await this.projectById(client, projectId, true);
      const { rows } = await client.query<{ n: number }>('select count(*)::int as n from environments where project_id = $1', [projectId]);
      if (rows[0]!.n > 0) {
        throw new ServiceError('invalid_request', `the project still has ${rows[0]!.n} environment(s); delete them first`);
      }
      await client.query('delete from projects where id = $1', [projectId]);
      await recordAudit(client, actor, {
        organizationId: access.organizationId,
        action: 'project.deleted',
        targetType: 'project',
        targetId: projectId,
        details: { name: project.name },
      });
    });
  }

  private async projectById(client: Queryable, projectId: string, lock = false): Promise<ProjectView> {
    if (lock) await client.query('select 1 from projects where id = $1 for update', [projectId]);
    const { rows } = await client.query<ProjectRow>(`${PROJECT_SELECT} where p.id = $1 group by p.id`, [projectId]);
    if (!rows[0]) throw new ServiceError('not_found', 'no such project');
    return projectView(rows[0]);
  }

  // ---------------------------------------------------------------- environments

  async environments(actor: Actor, projectId: string): Promise<EnvironmentView[]> {
    await this.authorize(actor, { projectId }, 'read');
    const { rows } = await this.pool.query<EnvironmentRow>(`${ENVIRONMENT_SELECT} where e.project_id = $1 order by e.name, e.id`, [projectId]);
    return rows.map(environmentView);
  }

  async environment(actor: Actor, environmentId: string): Promise<EnvironmentView> {
    await this.authorize(actor, { environmentId }, 'read');
    return this.environmentById(this.pool, environmentId);
  }

  /** A new environment with its token signing key and no API keys (create those next). */
  async createEnvironment(actor: Actor, projectId: string, name: string): Promise<EnvironmentView> {
    return withTransaction(this.pool, async (client) => {
      const access = await this.authorize(actor, { projectId }, 'manage', client);
      let environmentId: string;
      try {
        environmentId = await insertEnvironment(client, projectId, name);
      } catch (error) {
        if (isUniqueViolation(error)) throw new ServiceError('invalid_request', `an environment named "${name}" already exists in this project`);
        throw error;
      }
      await recordAudit(client, actor, {
        organizationId: access.organizationId,
        action: 'environment.created',
        targetType: 'environment',
        targetId: environmentId,
        details: { name, projectId },
      });
      return this.environmentById(client, environmentId);
    });
  }

  /** The admin CLI's `create-environment`: organization and project found or made by name, two keys. */
  async createEnvironmentByNames(
    actor: Actor,
    names: { organization: string; project: string; environment: string },
  ): Promise<CreatedEnvironment> {
    return withTransaction(this.pool, async (client) => {
      let created: CreatedEnvironment;
      try {
        created = await createEnvironmentIn(client, names);
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new ServiceError('invalid_request', `environment "${names.environment}" already exists in project "${names.project}"`);
        }
        throw error;
      }
      await recordAudit(client, actor, {
        organizationId: created.organizationId,
        action: 'environment.created',
        targetType: 'environment',
        targetId: created.environmentId,
        details: { name: names.environment, projectId: created.projectId, keys: ['secret', 'publishable'] },
      });
      return created;
    });
  }

  async renameEnvironment(actor: Actor, environmentId: string, name: string): Promise<EnvironmentView> {
    return withTransaction(this.pool, async (client) => {
      const access = await this.authorize(actor, { environmentId }, 'manage', client);
      const before = await this.environmentById(client, environmentId, true);
      if (before.name === name) return before;
      try {
        await client.query('update environments set name = $2 where id = $1', [environmentId, name]);
      } catch (error) {
        if (isUniqueViolation(error)) throw new ServiceError('invalid_request', `an environment named "${name}" already exists in this project`);
        throw error;
      }
      await recordAudit(client, actor, {
        organizationId: access.organizationId,
        action: 'environment.renamed',
        targetType: 'environment',
        targetId: environmentId,
        details: { from: before.name, to: name },
      });
      return { ...before, name };
    });
  }

  /**
   * Deletes an environment and everything in it (keys, channels, messages, members, webhooks'
   * ledger) when `confirm` is its exact name. Its keys stop working on every gateway at once.
   */
  async deleteEnvironment(actor: Actor, environmentId: string, confirm: string): Promise<void> {
    await withTransaction(this.pool, async (client) => {
      const access = await this.authorize(actor, { environmentId }, 'manage', client);
      const environment = await this.environmentById(client, environmentId, true);
      if (confirm !== environment.name) {
        throw new ServiceError('invalid_request', `body.confirm: must be the environment's name ("${environment.name}") to delete it`);
      }
      await client.query('delete from environments where id = $1', [environmentId]);
      await recordAudit(client, actor, {
        organizationId: access.organizationId,
        action: 'environment.deleted',
        targetType: 'environment',
        targetId: environmentId,
        details: { name: environment.name, projectId: environment.projectId },
      });
    });
    await this.onCredentialsChanged(environmentId);
  }

  private async environmentById(client: Queryable, environmentId: string, lock = false): Promise<EnvironmentView> {
    if (lock) await client.query('select 1 from environments where id = $1 for update', [environmentId]);
    const { rows } = await client.query<EnvironmentRow>(`${ENVIRONMENT_SELECT} where e.id = $1`, [environmentId]);
    if (!rows[0]) throw new ServiceError('not_found', 'no such environment');
    return environmentView(rows[0]);
  }

  // ---------------------------------------------------------------- API keys

  /** Every key of the environment, revoked ones too, newest first; never the key itself. */
  async keys(actor: Actor, environmentId: string): Promise<KeyView[]> {
    await this.authorize(actor, { environmentId }, 'read');
    const { rows } = await this.pool.query<KeyRow>(`select ${KEY_COLUMNS} from api_keys where environment_id = $1 order by created_at desc, id desc`, [
      environmentId,
    ]);
    return rows.map(keyView);
  }

  /** A new key; the answer is the only time it is shown (only its hash is stored). */
  async createKey(actor: Actor, environmentId: string, kind: KeyKind): Promise<KeyView & { key: string }> {
    return withTransaction(this.pool, async (client) => {
      const access = await this.authorize(actor, { environmentId }, 'manage', client);
      const made = await insertKeyRow(client, environmentId, kind);
      await recordAudit(client, actor, {
        organizationId: access.organizationId,
        action: 'key.created',
        targetType: 'key',
        targetId: made.id,
        details: { environmentId, kind, prefix: made.hint },
      });
      return { id: made.id, environmentId, kind, prefix: made.hint, createdAt: made.createdAt, lastUsedAt: null, revokedAt: null, key: made.key };
    });
  }

  /**
   * Revokes a key of the environment; every gateway refuses it at once (`onCredentialsChanged`).
   * Revoking a revoked key changes nothing (`changed: false`).
   */
  async revokeKey(actor: Actor, environmentId: string, keyId: string): Promise<{ key: KeyView; changed: boolean }> {
    const outcome = await withTransaction(this.pool, async (client) => {
      const access = await this.authorize(actor, { environmentId }, 'manage', client);
      const { rows } = await client.query<KeyRow>(`select ${KEY_COLUMNS} from api_keys where id = $1 and environment_id = $2 for update`, [
        keyId,
        environmentId,
      ]);
      if (!rows[0]) throw new ServiceError('not_found', 'no such key');
      if (rows[0].revoked_at !== null) return { key: keyView(rows[0]), changed: false };
      const updated = await client.query<KeyRow>(`update api_keys set revoked_at = now() where id = $1 returning ${KEY_COLUMNS}`, [keyId]);
      const key = keyView(updated.rows[0]!);
      await recordAudit(client, actor, {
        organizationId: access.organizationId,
        action: 'key.revoked',
        targetType: 'key',
        targetId: keyId,
        details: { environmentId, kind: key.kind, prefix: key.prefix },
      });
      return { key, changed: true };
    });
    if (outcome.changed) await this.onCredentialsChanged(environmentId);
    return outcome;
  }

  /** The environment of a key (for the CLI, which names keys without their environment); null when unknown. */
  async environmentOfKey(keyId: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ environment_id: string }>('select environment_id from api_keys where id = $1', [keyId]);
    return rows[0]?.environment_id ?? null;
  }

  /** The id of a key given whole (for the CLI); null when unknown. */
  async keyIdOf(key: string): Promise<string | null> {
    const { rows } = await this.pool.query<{ id: string }>('select id from api_keys where key_hash = $1', [hashKey(key)]);
    return rows[0]?.id ?? null;
  }

  // ---------------------------------------------------------------- allowed origins

  async origins(actor: Actor, environmentId: string): Promise<OriginView[]> {
    await this.authorize(actor, { environmentId }, 'read');
    const { rows } = await this.pool.query<{ origin: string; created_at: Date }>(
      'select origin, created_at from allowed_origins where environment_id = $1 order by origin',
      [environmentId],
    );
    return rows.map((r) => ({ origin: r.origin, createdAt: r.created_at }));
  }

  /** Adds an origin (normalised; 400 when it is not one). Adding one that is there changes nothing. */
  async addOrigin(actor: Actor, environmentId: string, text: string): Promise<OriginView & { added: boolean }> {
    const check = normaliseAllowedOrigin(text);
    if (!check.ok) throw new ServiceError('invalid_request', check.reason);
    const outcome = await withTransaction(this.pool, async (client) => {
      const access = await this.authorize(actor, { environmentId }, 'manage', client);
      const inserted = await client.query<{ created_at: Date }>(
        'insert into allowed_origins (environment_id, origin) values ($1, $2) on conflict do nothing returning created_at',
        [environmentId, check.origin],
      );
      if (!inserted.rows[0]) {
        const existing = await client.query<{ created_at: Date }>('select created_at from allowed_origins where environment_id = $1 and origin = $2', [
          environmentId,
          check.origin,
        ]);
        return { origin: check.origin, createdAt: existing.rows[0]!.created_at, added: false };
      }
      await recordAudit(client, actor, {
        organizationId: access.organizationId,
        action: 'origin.added',
        targetType: 'environment',
        targetId: environmentId,
        details: { origin: check.origin },
      });
      return { origin: check.origin, createdAt: inserted.rows[0].created_at, added: true };
    });
    // the first origin restricts a publishable key that was usable from anywhere
    if (outcome.added) await this.onCredentialsChanged(environmentId);
    return outcome;
  }

  /** Removes an origin; true when it was there. */
  async removeOrigin(actor: Actor, environmentId: string, text: string): Promise<{ origin: string; removed: boolean }> {
    const check = normaliseAllowedOrigin(text);
    if (!check.ok) throw new ServiceError('invalid_request', check.reason);
    const removed = await withTransaction(this.pool, async (client) => {
      const access = await this.authorize(actor, { environmentId }, 'manage', client);
      const result = await client.query('delete from allowed_origins where environment_id = $1 and origin = $2', [environmentId, check.origin]);
      if ((result.rowCount ?? 0) === 0) return false;
      await recordAudit(client, actor, {
        organizationId: access.organizationId,
        action: 'origin.removed',
        targetType: 'environment',
        targetId: environmentId,
        details: { origin: check.origin },
      });
      return true;
    });
    if (removed) await this.onCredentialsChanged(environmentId);
    return { origin: check.origin, removed };
  }

  // ---------------------------------------------------------------- audit log

  async audit(actor: Actor, organizationId: string, page: { limit: number; before?: string | undefined }): Promise<{ entries: AuditRecord[]; more: boolean }> {
    await this.authorize(actor, { organizationId }, 'read');
    return listAudit(this.pool, organizationId, page);
  }

  // ---------------------------------------------------------------- users (operator)

  /**
   * The admin CLI's `create-user`: a new account with `role` in the organization named by id
   * (`org_…`, must exist) or by name (made when no organization has it; several with that name:
   * refused, use the id).
   */
  async createUser(
    actor: Actor,
    options: { email: string; password: string; organization: string; role: Role },
  ): Promise<{ userId: string; email: string; organizationId: string; organizationCreated: boolean; role: Role }> {
    const email = checkedEmail(options.email);
    const passwordHash = await hashing(() => hashPassword(checkedPassword(options.password)));
    return withTransaction(this.pool, async (client) => {
      const { organizationId, created } = await this.findOrMakeOrganization(client, actor, options.organization);
      let user: UserRecord;
      try {
        user = await insertUser(client, email, passwordHash);
      } catch (error) {
        if (isUniqueViolation(error)) throw new ServiceError('invalid_request', `a user with the e-mail ${email} already exists (invite them instead)`);
        throw error;
      }
      await client.query('insert into organization_members (organization_id, user_id, role) values ($1, $2, $3)', [organizationId, user.id, options.role]);
      await recordAudit(client, actor, {
        organizationId,
        action: 'member.added',
        targetType: 'user',
        targetId: user.id,
        details: { email, role: options.role, accountCreated: true },
      });
      return { userId: user.id, email, organizationId, organizationCreated: created, role: options.role };
    });
  }

  private async findOrMakeOrganization(client: PoolClient, actor: Actor, nameOrId: string): Promise<{ organizationId: string; created: boolean }> {
    if (/^org_[0-9a-z]{26}$/.test(nameOrId)) {
      const { rows } = await client.query<{ id: string }>('select id from organizations where id = $1', [nameOrId]);
      if (!rows[0]) throw new ServiceError('not_found', `no organization ${nameOrId}`);
      return { organizationId: rows[0].id, created: false };
    }
    const name = nameOrId.trim();
    if (name.length === 0 || name.length > 64) throw new ServiceError('invalid_request', 'an organization name has 1-64 characters');
    // one creator at a time per name, so two racing calls do not make two organizations
    await client.query('select pg_advisory_xact_lock($1, hashtext($2))', [ADVISORY_LOCKS.accountName, name]);
    const { rows } = await client.query<{ id: string }>('select id from organizations where name = $1 order by created_at limit 2', [name]);
    if (rows.length > 1) throw new ServiceError('invalid_request', `several organizations are named "${name}"; give its id (org_…)`);
    if (rows[0]) return { organizationId: rows[0].id, created: false };
    const organizationId = newId('org');
    await client.query('insert into organizations (id, name) values ($1, $2)', [organizationId, name]);
    await recordAudit(client, actor, { organizationId, action: 'organization.created', targetType: 'organization', targetId: organizationId, details: { name } });
    return { organizationId, created: true };
  }
}

// ---------------------------------------------------------------- rows

interface PendingRow {
  id: string;
  organization_id: string;
  organization_name: string;
  role: Role;
  email: string | null;
  expires_at: Date;
}

interface InvitationRow {
  id: string;
  organization_id: string;
  role: Role;
  email: string | null;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
  expired: boolean;
  created_by_email: string | null;
}

const INVITATION_COLUMNS = `i.id, i.organization_id, i.role, i.email, i.created_at, i.expires_at, i.accepted_at, i.revoked_at,
  i.expires_at <= now() as expired, u.email as created_by_email`;

function invitationView(row: InvitationRow): InvitationView {
  const status = row.accepted_at ? 'accepted' : row.revoked_at ? 'revoked' : row.expired ? 'expired' : 'pending';
  return {
    id: row.id,
    organizationId: row.organization_id,
    role: row.role,
    email: row.email,
    status,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    createdBy: row.created_by_email,
  };
}

interface ProjectRow {
  id: string;
  organization_id: string;
  name: string;
  created_at: Date;
  environments: number;
}

const PROJECT_SELECT = `select p.id, p.organization_id, p.name, p.created_at, count(e.id)::int as environments
  from projects p left join environments e on e.project_id = p.id`;

const projectView = (r: ProjectRow): ProjectView => ({
  id: r.id,
  organizationId: r.organization_id,
  name: r.name,
  environmentCount: r.environments,
  createdAt: r.created_at,
});

interface EnvironmentRow {
  id: string;
  organization_id: string;
  project_id: string;
  name: string;
  created_at: Date;
  keys: number;
  origins: number;
}

const ENVIRONMENT_SELECT = `select e.id, p.organization_id, e.project_id, e.name, e.created_at,
  (select count(*)::int from api_keys k where k.environment_id = e.id and k.revoked_at is null) as keys,
  (select count(*)::int from allowed_origins a where a.environment_id = e.id) as origins
  from environments e join projects p on p.id = e.project_id`;

const environmentView = (r: EnvironmentRow): EnvironmentView => ({
  id: r.id,
  organizationId: r.organization_id,
  projectId: r.project_id,
  name: r.name,
  activeKeyCount: r.keys,
  originCount: r.origins,
  createdAt: r.created_at,
});

interface KeyRow {
  id: string;
  environment_id: string;
  kind: KeyKind;
  hint: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const KEY_COLUMNS = 'id, environment_id, kind, hint, created_at, last_used_at, revoked_at';

const keyView = (r: KeyRow): KeyView => ({
  id: r.id,
  environmentId: r.environment_id,
  kind: r.kind,
  prefix: r.hint,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});
