import { api, type Channel } from '../api.ts';
import { field, h, link, time } from '../dom.ts';
import type { PageContext } from '../router.ts';
import { card, form, pagedTable } from '../ui.ts';
import { environmentHeader } from './environment-nav.ts';
import { liveStatus, messageActivity, whenLogged } from './live.ts';

/**
 * /dashboard/environments/:envId/channels: the environment's channels with their message count
 * and last activity, kept current from the live log; a form opens any channel by id (one
 * without messages yet, to manage its members and bans).
 */
export async function channelsPage({ params, navigate, onLeave }: PageContext): Promise<Node[]> {
  const env = await api.environment(params.envId!);
  const channelPath = (channelId: string) => `/dashboard/environments/${env.id}/channels/${encodeURIComponent(channelId)}`;
  const channels = pagedTable({
    headers: ['Channel', 'Messages', 'Last seq', 'Last activity', 'Created'],
    empty: 'No channel has messages yet.',
    more: 'More channels',
    label: 'Channels',
    load: async (cursor?: string) => {
      const page = await api.channels(env.id, cursor);
      return { items: page.data, next: page.nextCursor };
    },
    row: (channel: Channel) => [
      link(channelPath(channel.channelId), channel.channelId),
      document.createTextNode(String(channel.messageCount)),
      document.createTextNode(String(channel.lastSeq)),
      h('span', {}, time(channel.lastActivityAt)),
      h('span', {}, time(channel.createdAt)),
    ],
  });
  await channels.reload();
  const status = liveStatus();
  onLeave(whenLogged(env.id, messageActivity(null), () => void channels.reload(), status.update));

  return [
    ...environmentHeader(env, '/channels', 'Messages'),
    card(
      'channels-heading',
      'Channels',
      h('div', { class: 'toolbar' }, status.element),
      channels.element,
      form(
        { label: 'Open a channel' },
        [field('Channel id', { name: 'channelId', required: true, maxlength: 128, autocomplete: 'off' })],
        'Open channel',
        async (values) => {
          const channelId = (values.channelId ?? '').trim();
          if (!/^[A-Za-z0-9_.:@=-]{1,128}$/.test(channelId)) throw new Error('A channel id is 1-128 of A-Z a-z 0-9 _ . : @ = -');
          navigate(channelPath(channelId));
        },
      ),
    ),
  ];
}
