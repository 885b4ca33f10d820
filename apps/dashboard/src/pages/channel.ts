import { api, type Ban, type ChannelMember, type Message, type MessageFilters } from '../api.ts';
import { field, h, link, selectField, time } from '../dom.ts';
import type { PageContext } from '../router.ts';
import { actionButton, card, errorRegion, form, isoOfLocal, pagedTable, preview, type PagedTable } from '../ui.ts';
import { canManage } from './organization.ts';
import { environmentHeader, roleIn } from './environment-nav.ts';
import { liveStatus, messageActivity, whenLogged } from './live.ts';

/** What a message list row shows of the content: a tombstone for a retracted message. */
export function contentCell(message: Message): Node {
  if (message.retracted) return h('span', { class: 'tombstone' }, 'retracted');
  return h('code', { class: 'wrap' }, preview(message.content));
}

export function messagePath(envId: string, channelId: string, messageId: string): string {
  return `/dashboard/environments/${envId}/channels/${encodeURIComponent(channelId)}/messages/${encodeURIComponent(messageId)}`;
}

/**
 * The bans of a channel, or of the whole environment (`channelId` null): the list, a form to ban
 * (reason and expiry optional) and a button to lift each. Shared by the channel view and the
 * environment's bans view.
 */
export function bansCard(envId: string, channelId: string | null, manage: boolean): { element: HTMLElement; ready: Promise<void> } {
  const errors = errorRegion();
  const list: PagedTable = pagedTable({
    headers: ['User', 'Reason', 'Expires', 'Since', ''],
    empty: channelId === null ? 'Nobody is banned from the whole environment.' : 'Nobody is banned from this channel.',
    more: 'More bans',
    load: async (after?: string) => {
      const page = await api.bans(envId, channelId, after);
      return { items: page.data, next: page.nextAfter };
    },
    row: (ban: Ban) => [
      h('code', {}, ban.userId),
      document.createTextNode(ban.reason ?? '—'),
      ban.expiresAt ? h('span', {}, time(ban.expiresAt)) : document.createTextNode('never'),
      h('span', {}, time(ban.createdAt)),
      manage
        ? actionButton('Lift', { class: 'secondary', 'aria-label': `Lift the ban of ${ban.userId}` }, errors, async () => {
            await api.liftBan(envId, channelId, ban.userId);
            await list.reload();
          })
        : document.createTextNode(''),
    ],
  });
  const element = card(
    channelId === null ? 'env-bans-heading' : 'channel-bans-heading',
    channelId === null ? 'Environment-wide bans' : 'Bans',
    h(
      'p',
      { class: 'muted' },
      channelId === null
        ? 'A banned user can use no channel of the environment; their open sockets are closed at once on every gateway.'
        : 'A banned user can neither read nor publish in this channel; their open sockets on it are closed at once.',
    ),
    list.element,
    manage &&
      form(
        { label: channelId === null ? 'Ban a user from the environment' : 'Ban a user from the channel' },
        [
          field('User id', { name: 'userId', required: true, maxlength: 128, autocomplete: 'off' }),
          field('Reason (shown to the user)', { name: 'reason', maxlength: 512 }),
          field('Expires (optional)', { name: 'expiresAt', type: 'datetime-local' }),
        ],
        'Ban',
        async (values, element) => {
          const expiresAt = isoOfLocal(values.expiresAt);
          await api.ban(envId, channelId, (values.userId ?? '').trim(), {
            ...(values.reason && { reason: values.reason }),
            ...(expiresAt && { expiresAt }),
          });
          element.reset();
          await list.reload();
        },
      ),
    errors,
  );
  return { element, ready: list.reload() };
}

/**
 * /dashboard/environments/:envId/channels/:channelId: the channel's messages (newest first,
 * filtered by sender, type and time, kept current from the live log), its members and its bans.
 */
export async function channelPage({ params, session, onLeave }: PageContext): Promise<Node[]> {
  const env = await api.environment(params.envId!);
  const channelId = params.channelId!;
  const manage = canManage(roleIn(session, env));
  let filters: MessageFilters = {};

  const messages = pagedTable({
    headers: ['Seq', 'Published', 'Sender', 'Type', 'Content', ''],
    empty: 'No messages (with these filters).',
    more: 'Older messages',
    label: 'Messages',
    load: async (before?: number) => {
      const page = await api.messages(env.id, channelId, { ...filters, ...(before !== undefined && { before }) });
      return { items: page.data, next: page.nextBefore };
    },
    row: (message: Message) => [
      document.createTextNode(String(message.seq)),
      h('span', {}, time(new Date(message.timestamp).toISOString())),
      h('span', {}, h('code', {}, message.sender.id), message.sender.anon ? ' (anonymous)' : '', message.kind !== 'user' ? ` (${message.kind})` : ''),
      h('code', {}, message.type),
      contentCell(message),
      h('a', { href: messagePath(env.id, channelId, message.id), 'data-link': true, 'aria-label': `Open message ${message.seq}` }, 'Open'),
    ],
  });

  const memberErrors = errorRegion();
  const members: PagedTable = pagedTable({
    headers: ['User', 'Role', 'Since', ''],
    empty: "No members: access is decided by the channel's settings.",
    more: 'More members',
    load: async (after?: string) => {
      const page = await api.channelMembers(env.id, channelId, after);
      return { items: page.data, next: page.nextAfter };
    },
    row: (member: ChannelMember) => [
      h('code', {}, member.userId),
      document.createTextNode(member.role),
      h('span', {}, time(member.createdAt)),
      manage
        ? actionButton('Remove', { class: 'danger', 'aria-label': `Remove ${member.userId} from the channel` }, memberErrors, async () => {
            await api.removeChannelMember(env.id, channelId, member.userId);
            await members.reload();
          })
        : document.createTextNode(''),
    ],
  });
  const bans = bansCard(env.id, channelId, manage);
  await Promise.all([messages.reload(), members.reload(), bans.ready]);

  const status = liveStatus();
  onLeave(whenLogged(env.id, messageActivity(channelId), () => void messages.reload(), status.update));

  const filterForm = form(
    { label: 'Filter messages', class: 'filters' },
    [
      field('Sender id', { name: 'sender', maxlength: 128, autocomplete: 'off' }),
      field('Type', { name: 'type', maxlength: 64, autocomplete: 'off' }),
      field('Since', { name: 'since', type: 'datetime-local' }),
      field('Until', { name: 'until', type: 'datetime-local' }),
    ],
    'Apply filters',
    async (values) => {
      const since = isoOfLocal(values.since);
      const until = isoOfLocal(values.until);
      filters = {
        ...(values.sender?.trim() && { sender: values.sender.trim() }),
        ...(values.type?.trim() && { type: values.type.trim() }),
        ...(since && { since }),
        ...(until && { until }),
      };
      await messages.reload();
    },
  );

  return [
    ...environmentHeader(env, '/channels', channelId, link(`/dashboard/environments/${env.id}/channels`, 'channels')),
    card('messages-heading', 'Messages', h('div', { class: 'toolbar' }, status.element), filterForm, messages.element),
    card(
      'members-heading',
      'Members',
      members.element,
      manage &&
        form(
          { label: 'Add a member' },
          [
            field('User id', { name: 'userId', required: true, maxlength: 128, autocomplete: 'off' }),
            selectField('Role', 'role', ['member', 'moderator', 'readonly'], 'member'),
          ],
          'Add member',
          async (values, element) => {
            await api.putChannelMember(
              env.id,
              channelId,
              (values.userId ?? '').trim(),
              values.role === 'moderator' || values.role === 'readonly' ? values.role : 'member',
            );
            element.reset();
            await members.reload();
          },
        ),
      memberErrors,
    ),
    bans.element,
  ];
}
