/**
 * Organizations and their members, the audit log, and the operator's `create-user`. An
 * organization always keeps one owner. A member who loses something (removed, left, or moved to a
 * lower role) is reported after commit through `onMemberAccessReduced`.
 */
import { ADVISORY_LOCKS, newId, withTransaction, type Pool, type PoolClient } from '@rtm/db';
import { ServiceError } from '@rtm/errors';
import type { AccessControl } from './access.ts';
import { auditedChange, unique } from './audited-change.ts';
import { listAudit, recordAudit, type Actor, type AuditRecord } from './audit.ts';
import { hashPassword } from './password.ts';
import { isLowerRole, type Role } from './roles.ts';
import { checkedEmail, checkedPassword, hashing } from './sign-in.ts';
import { insertUser } from './users.ts';

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

type MemberRow = { user_id: string; email: string; role: Role; created_at: Date };
const memberView = (r: MemberRow): MemberView => ({ userId: r.user_id, email: r.email, role: r.role, joinedAt: r.created_at });

export class Organizations {
  private readonly access: AccessControl;
  private readonly onMemberAccessReduced: (organizationId: string, userId: string) => void | Promise<void>;

  constructor(access: AccessControl, onMemberAccessReduced: (organizationId: string, userId: string) => void | Promise<void>) {
    this.access = access;
    this.onMemberAccessReduced = onMemberAccessReduced;
  }

  private get pool(): Pool {
    return this.access.pool;
  }

  async organizationsOf(userId: string): Promise<Membership[]> {
    const { rows } = await this.pool.query<{ id: string; name: string; role: Role; created_at: Date }>(
      `select o.id, o.name, m.role, o.created_at from organization_members m join organizations o on o.id = m.organization_id
       where m.user_id = $1 order by o.name, o.id`,
      [userId],
    );
    return rows.map((r) => ({ id: r.id, name: r.name, role: r.role, createdAt: r.created_at }));
  }

  async organization(actor: Actor, organizationId: string): Promise<OrganizationView> {
    const access = await this.access.authorize(actor, { organizationId }, 'read');
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
    await this.access.authorize(actor, { organizationId }, 'read');
    const { rows } = await this.pool.query<MemberRow>(
      `select m.user_id, u.email, m.role, m.created_at from organization_members m join users u on u.id = m.user_id
       where m.organization_id = $1 order by m.created_at, u.email`,
      [organizationId],
    );
    return rows.map(memberView);
  }

  /** Owners only. The last owner can not be demoted: an organization always keeps one. */
  async setRole(actor: Actor, organizationId: string, userId: string, role: Role): Promise<MemberView> {
    let lowered = false;
    const member = await auditedChange(this.access, actor, { organizationId }, 'administer', async ({ client, audit }) => {
      const { target, soleOwner } = await lockedMember(client, organizationId, userId);
      if (target.role === role) return target;
      if (soleOwner) throw lastOwner('demoted');
      await client.query('update organization_members set role = $3 where organization_id = $1 and user_id = $2', [organizationId, userId, role]);
      await audit({ action: 'member.role_changed', targetType: 'user', targetId: userId, details: { email: target.email, from: target.role, to: role } });
      lowered = isLowerRole(role, target.role);
      return { ...target, role };
    });
    if (lowered) await this.onMemberAccessReduced(organizationId, userId);
    return member;
  }

  /** Owners remove anyone; any member may leave. Never the last owner. */
  async removeMember(actor: Actor, organizationId: string, userId: string): Promise<void> {
    const self = actor.kind === 'user' && actor.userId === userId;
    await auditedChange(this.access, actor, { organizationId }, self ? 'read' : 'administer', async ({ client, audit }) => {
      const { target, soleOwner } = await lockedMember(client, organizationId, userId);
      if (soleOwner) throw lastOwner('removed');
      await client.query('delete from organization_members where organization_id = $1 and user_id = $2', [organizationId, userId]);
      await audit({
        action: self ? 'member.left' : 'member.removed',
        targetType: 'user',
        targetId: userId,
        details: { email: target.email, role: target.role },
      });
    });
    await this.onMemberAccessReduced(organizationId, userId);
  }

  async audit(actor: Actor, organizationId: string, page: { limit: number; before?: string | undefined }): Promise<{ entries: AuditRecord[]; more: boolean }> {
    await this.access.authorize(actor, { organizationId }, 'read');
    return listAudit(this.pool, organizationId, page);
  }

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
      const { organizationId, created } = await findOrMakeOrganization(client, actor, options.organization);
      const user = await unique(`a user with the e-mail ${email} already exists (invite them instead)`, () => insertUser(client, email, passwordHash));
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
}

/** The member `userId`, with every member of the organization locked, and whether they are its only owner. */
async function lockedMember(client: PoolClient, organizationId: string, userId: string): Promise<{ target: MemberView; soleOwner: boolean }> {
  const { rows } = await client.query<MemberRow>(
    `select m.user_id, u.email, m.role, m.created_at from organization_members m join users u on u.id = m.user_id
     where m.organization_id = $1 order by m.user_id for update of m`,
    [organizationId],
  );
  const members = rows.map(memberView);
  const target = members.find((m) => m.userId === userId);
  if (!target) throw new ServiceError('not_found', 'no such member');
  return { target, soleOwner: target.role === 'owner' && members.filter((m) => m.role === 'owner').length === 1 };
}

const lastOwner = (what: 'demoted' | 'removed') =>
  new ServiceError('invalid_request', `the last owner of an organization can not be ${what}; make someone else owner first`);

async function findOrMakeOrganization(client: PoolClient, actor: Actor, nameOrId: string): Promise<{ organizationId: string; created: boolean }> {
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
