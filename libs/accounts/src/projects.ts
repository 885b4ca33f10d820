/**
 * Projects and their environments. A project is deleted only when empty; an environment is
 * deleted with everything in it when `confirm` is its exact name, and its keys stop working on
 * every gateway at once (`onCredentialsChanged`, after commit).
 */
import { newId, withTransaction } from '@rtm/db';
import { ServiceError } from '@rtm/errors';
import { createEnvironmentIn, insertEnvironment, type CreatedEnvironment } from '@rtm/auth';
import type { Queryable } from './access.ts';
import { CredentialResource } from './credential-resource.ts';
import { auditedChange, unique } from './audited-change.ts';
import { recordAudit, type Actor } from './audit.ts';

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

const projectTaken = (name: string) => `a project named "${name}" already exists in this organization`;
const environmentTaken = (name: string) => `an environment named "${name}" already exists in this project`;

export class Projects extends CredentialResource {
  // ---------------------------------------------------------------- projects

  async projects(actor: Actor, organizationId: string): Promise<ProjectView[]> {
    await this.access.authorize(actor, { organizationId }, 'read');
    const { rows } = await this.pool.query<ProjectRow>(`${PROJECT_SELECT} where p.organization_id = $1 group by p.id order by p.name, p.id`, [organizationId]);
    return rows.map(projectView);
  }

  async project(actor: Actor, projectId: string): Promise<ProjectView> {
    await this.access.authorize(actor, { projectId }, 'read');
    return projectById(this.pool, projectId);
  }

  async createProject(actor: Actor, organizationId: string, name: string): Promise<ProjectView> {
    return auditedChange(this.access, actor, { organizationId }, 'manage', async ({ client, audit }) => {
      const id = newId('prj');
      await unique(projectTaken(name), () => client.query('insert into projects (id, organization_id, name) values ($1, $2, $3)', [id, organizationId, name]));
      await audit({ action: 'project.created', targetType: 'project', targetId: id, details: { name } });
      return projectById(client, id);
    });
  }

  async renameProject(actor: Actor, projectId: string, name: string): Promise<ProjectView> {
    return auditedChange(this.access, actor, { projectId }, 'manage', async ({ client, audit }) => {
      const before = await projectById(client, projectId, true);
      if (before.name === name) return before;
      await unique(projectTaken(name), () => client.query('update projects set name = $2 where id = $1', [projectId, name]));
      await audit({ action: 'project.renamed', targetType: 'project', targetId: projectId, details: { from: before.name, to: name } });
      return { ...before, name };
    });
  }

  /** Only an empty project: its environments are deleted first, each with its own confirmation. */
  async deleteProject(actor: Actor, projectId: string): Promise<void> {
    await auditedChange(this.access, actor, { projectId }, 'manage', async ({ client, audit }) => {
      const project = await projectById(client, projectId, true);
      const { rows } = await client.query<{ n: number }>('select count(*)::int as n from environments where project_id = $1', [projectId]);
      if (rows[0]!.n > 0) {
        throw new ServiceError('invalid_request', `the project still has ${rows[0]!.n} environment(s); delete them first`);
      }
      await client.query('delete from projects where id = $1', [projectId]);
      await audit({ action: 'project.deleted', targetType: 'project', targetId: projectId, details: { name: project.name } });
    });
  }

  // ---------------------------------------------------------------- environments

  async environments(actor: Actor, projectId: string): Promise<EnvironmentView[]> {
    await this.access.authorize(actor, { projectId }, 'read');
    const { rows } = await this.pool.query<EnvironmentRow>(`${ENVIRONMENT_SELECT} where e.project_id = $1 order by e.name, e.id`, [projectId]);
    return rows.map(environmentView);
  }

  async environment(actor: Actor, environmentId: string): Promise<EnvironmentView> {
    await this.access.authorize(actor, { environmentId }, 'read');
    return environmentById(this.pool, environmentId);
  }

  /** A new environment with its token signing key and no API keys (create those next). */
  async createEnvironment(actor: Actor, projectId: string, name: string): Promise<EnvironmentView> {
    return auditedChange(this.access, actor, { projectId }, 'manage', async ({ client, audit }) => {
      const environmentId = await unique(environmentTaken(name), () => insertEnvironment(client, projectId, name));
      await audit({ action: 'environment.created', targetType: 'environment', targetId: environmentId, details: { name, projectId } });
      return environmentById(client, environmentId);
    });
  }

  /** The admin CLI's `create-environment`: organization and project found or made by name, two keys. */
  async createEnvironmentByNames(actor: Actor, names: { organization: string; project: string; environment: string }): Promise<CreatedEnvironment> {
    return withTransaction(this.pool, async (client) => {
      const taken = `environment "${names.environment}" already exists in project "${names.project}"`;
      const created = await unique(taken, () => createEnvironmentIn(client, names));
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
    return auditedChange(this.access, actor, { environmentId }, 'manage', async ({ client, audit }) => {
      const before = await environmentById(client, environmentId, true);
      if (before.name === name) return before;
      await unique(environmentTaken(name), () => client.query('update environments set name = $2 where id = $1', [environmentId, name]));
      await audit({ action: 'environment.renamed', targetType: 'environment', targetId: environmentId, details: { from: before.name, to: name } });
      return { ...before, name };
    });
  }

  /**
   * Deletes an environment and everything in it (keys, channels, messages, members, webhooks'
   * ledger) when `confirm` is its exact name. Its keys stop working on every gateway at once.
   */
  async deleteEnvironment(actor: Actor, environmentId: string, confirm: string): Promise<void> {
    await auditedChange(this.access, actor, { environmentId }, 'manage', async ({ client, audit }) => {
      const environment = await environmentById(client, environmentId, true);
      if (confirm !== environment.name) {
        throw new ServiceError('invalid_request', `body.confirm: must be the environment's name ("${environment.name}") to delete it`);
      }
      await client.query('delete from environments where id = $1', [environmentId]);
      await audit({
        action: 'environment.deleted',
        targetType: 'environment',
        targetId: environmentId,
        details: { name: environment.name, projectId: environment.projectId },
      });
    });
    await this.onCredentialsChanged(environmentId);
  }
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

async function projectById(client: Queryable, projectId: string, lock = false): Promise<ProjectView> {
  if (lock) await client.query('select 1 from projects where id = $1 for update', [projectId]);
  const { rows } = await client.query<ProjectRow>(`${PROJECT_SELECT} where p.id = $1 group by p.id`, [projectId]);
  if (!rows[0]) throw new ServiceError('not_found', 'no such project');
  return projectView(rows[0]);
}

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

async function environmentById(client: Queryable, environmentId: string, lock = false): Promise<EnvironmentView> {
  if (lock) await client.query('select 1 from environments where id = $1 for update', [environmentId]);
  const { rows } = await client.query<EnvironmentRow>(`${ENVIRONMENT_SELECT} where e.id = $1`, [environmentId]);
  if (!rows[0]) throw new ServiceError('not_found', 'no such environment');
  return environmentView(rows[0]);
}

/** The ids of every environment of the organization's projects. */
export async function environmentIdsOfOrganization(pool: Queryable, organizationId: string): Promise<string[]> {
  const { rows } = await pool.query<{ id: string }>('select e.id from environments e join projects p on p.id = e.project_id where p.organization_id = $1', [
    organizationId,
  ]);
  return rows.map((row) => row.id);
}
