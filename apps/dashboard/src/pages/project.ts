import { api } from '../api.ts';
import { field, h, link, time } from '../dom.ts';
import type { PageContext } from '../router.ts';
import { actionButton, card, errorRegion, form, table } from '../ui.ts';
import { canManage } from './organization.ts';

/** /dashboard/projects/:projectId: its environments; rename; delete (only when empty). */
export async function projectPage({ params, session, navigate, refresh }: PageContext): Promise<Node[]> {
  const project = await api.project(params.projectId!);
  const environments = await api.environments(project.id);
  const role = session.organizations.find((org) => org.id === project.organizationId)?.role ?? 'viewer';
  const manage = canManage(role);
  const deleteErrors = errorRegion();

  return [
    h('p', { class: 'crumbs' }, link(`/dashboard/orgs/${project.organizationId}`, 'Organization'), ' / project'),
    h('h1', {}, project.name),
    card(
      'environments-heading',
      'Environments',
      table(
        ['Name', 'Active keys', 'Allowed origins', 'Created'],
        environments.data.map((env) => [
          link(`/dashboard/environments/${env.id}`, env.name),
          document.createTextNode(String(env.activeKeyCount)),
          document.createTextNode(String(env.originCount)),
          h('span', {}, time(env.createdAt)),
        ]),
        'No environments yet.',
      ),
      manage &&
        form(
          { label: 'New environment' },
          [field('Environment name', { name: 'name', required: true, maxlength: 64 })],
          'Create environment',
          async (values) => {
            const env = await api.createEnvironment(project.id, values.name ?? '');
            navigate(`/dashboard/environments/${env.id}`);
          },
        ),
    ),
    manage &&
      card(
        'project-settings-heading',
        'Settings',
        form(
          { label: 'Rename the project' },
          [field('Project name', { name: 'name', required: true, maxlength: 64, value: project.name })],
          'Rename',
          async (values) => {
            await api.renameProject(project.id, values.name ?? '');
            refresh();
          },
        ),
        h('p', { class: 'muted' }, 'A project can be deleted once it has no environments.'),
        actionButton('Delete project', { class: 'danger' }, deleteErrors, async () => {
          if (!confirm(`Delete the project ${project.name}?`)) return;
          await api.deleteProject(project.id);
          navigate(`/dashboard/orgs/${project.organizationId}`);
        }),
        deleteErrors,
      ),
  ].filter((node): node is HTMLElement => node instanceof Node);
}
