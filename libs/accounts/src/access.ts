/**
 * Who may do what where: every domain operation of the dashboard and the admin CLI starts here.
 *
 * A user acts only inside organizations they belong to: an id of another organization (or of a
 * project, environment or key in one) is `not_found`, exactly like an id that does not exist, and
 * a role without the right an operation needs is `forbidden`. The CLI acts as an owner everywhere.
 */
import type { Pool, PoolClient } from '@rtm/db';
import { ServiceError } from '@rtm/errors';
import type { Actor } from './audit.ts';
import { allows, type Right, type Role } from './roles.ts';

export type Queryable = Pool | PoolClient;

/** Where a scoped id lives, and the actor's role there. */
export interface Access {
  organizationId: string;
  projectId?: string;
  environmentId?: string;
  role: Role;
}

export type Scope = { organizationId: string } | { projectId: string } | { environmentId: string };

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

const FROM = {
  organizationId: 'organizations o',
  projectId: 'projects p join organizations o on o.id = p.organization_id',
  environmentId: 'environments e join projects p on p.id = e.project_id join organizations o on o.id = p.organization_id',
};
const WHERE = { organizationId: 'o.id', projectId: 'p.id', environmentId: 'e.id' };
const SELECT = { organizationId: 'o.id as o', projectId: 'o.id as o, p.id as p', environmentId: 'o.id as o, p.id as p, e.id as e' };

export class AccessControl {
  readonly pool: Pool;

  constructor(pool: Pool) {
    this.pool = pool;
  }

  /**
   * Where `scope` lives and the actor's role there, when the actor may use `right` on it.
   * Unknown, or in an organization the user is not a member of: 404 `not_found`; a member
   * whose role lacks the right: 403 `forbidden`. The CLI acts as an owner everywhere.
   */
  async authorize(actor: Actor, scope: Scope, right: Right, client: Queryable = this.pool): Promise<Access> {
    const [column, id] = Object.entries(scope)[0] as [keyof typeof FROM, string];
    const user = actor.kind === 'user';
    const { rows } = await client.query<{ o: string; p?: string; e?: string; role: Role | null }>(
      user
        ? `select ${SELECT[column]}, m.role from ${FROM[column]} join organization_members m on m.organization_id = o.id and m.user_id = $2 where ${WHERE[column]} = $1`
        : `select ${SELECT[column]}, null as role from ${FROM[column]} where ${WHERE[column]} = $1`,
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
}
