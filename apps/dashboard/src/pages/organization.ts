import { api, type Invitation, type Role } from '../api.ts';
import { field, h, link, selectField, time } from '../dom.ts';
import type { PageContext } from '../router.ts';
import { actionButton, card, errorRegion, form, table } from '../ui.ts';

const ROLES: readonly Role[] = ['owner', 'admin', 'viewer'];
export const canManage = (role: Role) => role === 'owner' || role === 'admin';
export const canAdminister = (role: Role) => role === 'owner';

/** /dashboard/orgs/:orgId: projects, members and invitations of one organization. */
export async function organizationPage({ params, session, navigate, refresh }: PageContext): Promise<Node[]> {
  const orgId = params.orgId!;
  const [organization, projects, members, invitations] = await Promise.all([
    api.organization(orgId),
    api.projects(orgId),
    api.members(orgId),
    api.invitations(orgId),
  ]);
  const role = organization.role;

  const projectSection = card(
    'projects-heading',
    'Projects',
    table(
      ['Name', 'Environments', 'Created'],
      projects.data.map((project) => [
        link(`/dashboard/projects/${project.id}`, project.name),
        document.createTextNode(String(project.environmentCount)),
        h('span', {}, time(project.createdAt)),
      ]),
      'No projects yet.',
    ),
    canManage(role) &&
      form({ label: 'New project' }, [field('Project name', { name: 'name', required: true, maxlength: 64 })], 'Create project', async (values) => {
        const project = await api.createProject(orgId, values.name ?? '');
        navigate(`/dashboard/projects/${project.id}`);
      }),
  );

  const memberErrors = errorRegion();
  const memberRows = members.data.map((member) => {
    const self = member.userId === session.user.id;
    // a select with its own button: arrowing through the options from the keyboard changes nothing yet
    const roleCell: Node = canAdminister(role)
      ? (() => {
          const select = selectField(`Role of ${member.email}`, 'role', ROLES, member.role);
          select.classList.add('inline');
          const change = form({ label: `Role of ${member.email}`, class: 'inline' }, [select], 'Set role', async (values) => {
            await api.setRole(orgId, member.userId, (values.role ?? member.role) as Role);
            refresh();
          });
          change.querySelector('button[type=submit]')!.classList.add('secondary');
          return change;
        })()
      : document.createTextNode(member.role);
    const remove =
      canAdminister(role) || self
        ? actionButton(
            self ? 'Leave' : 'Remove',
            { class: 'danger', 'aria-label': self ? 'Leave the organization' : `Remove ${member.email}` },
            memberErrors,
            async () => {
              if (!confirm(self ? `Leave ${organization.name}?` : `Remove ${member.email} from ${organization.name}?`)) return;
              await api.removeMember(orgId, member.userId);
              if (self) location.assign('/dashboard');
              else refresh();
            },
          )
        : document.createTextNode('');
    return [document.createTextNode(member.email + (self ? ' (you)' : '')), roleCell, h('span', {}, time(member.joinedAt)), remove];
  });
  const memberSection = card('members-heading', 'Members', table(['E-mail', 'Role', 'Joined', ''], memberRows, 'No members.'), memberErrors);

  const invitationErrors = errorRegion();
  const created = h('div', { 'aria-live': 'polite' });
  const invitationList = h('div', {});
  const renderInvitations = (list: Invitation[]) =>
    invitationList.replaceChildren(
      table(
        ['Role', 'E-mail', 'Status', 'Expires', ''],
        list.map((invitation) => [
          document.createTextNode(invitation.role),
          document.createTextNode(invitation.email ?? 'anyone with the link'),
          document.createTextNode(invitation.status),
          h('span', {}, time(invitation.expiresAt)),
          invitation.status === 'pending' && canAdminister(role)
            ? actionButton(
                'Revoke',
                { class: 'danger', 'aria-label': `Revoke the invitation for ${invitation.email ?? invitation.role}` },
                invitationErrors,
                async () => {
                  await api.revokeInvitation(orgId, invitation.id);
                  renderInvitations((await api.invitations(orgId)).data);
                },
              )
            : document.createTextNode(''),
        ]),
        'No invitations.',
      ),
    );
  renderInvitations(invitations.data);
  const invitationSection = card(
    'invitations-heading',
    'Invitations',
    canAdminister(role) &&
      form(
        { label: 'Invite someone' },
        [selectField('Role', 'role', ROLES, 'viewer'), field('E-mail (optional: only this address may accept)', { name: 'email', type: 'email' })],
        'Create invitation link',
        async (values) => {
          const invitation = await api.invite(orgId, (values.role ?? 'viewer') as Role, values.email || undefined);
          created.replaceChildren(
            h(
              'div',
              { class: 'notice' },
              h('p', {}, 'Send this link to the person you invite. It is shown only now and works once:'),
              h('code', { class: 'secret', 'data-testid': 'invitation-link' }, invitation.link),
            ),
          );
          renderInvitations((await api.invitations(orgId)).data);
        },
      ),
    created,
    invitationList,
    invitationErrors,
  );

  return [
    h('h1', {}, organization.name),
    h('p', { class: 'muted' }, `Your role: ${role} · ${organization.memberCount} members · `, link(`/dashboard/orgs/${orgId}/audit`, 'Audit log')),
    projectSection,
    memberSection,
    invitationSection,
  ];
}
