import { api, type Message } from '../api.ts';
import { field, h, link, time } from '../dom.ts';
import type { PageContext } from '../router.ts';
import { card, facts, form } from '../ui.ts';
import { canManage } from './organization.ts';
import { environmentHeader, roleIn } from './environment-nav.ts';

function factsOf(message: Message): HTMLElement {
  return facts([
    ['Id', h('code', {}, message.id)],
    ['Seq', String(message.seq)],
    ['Published', time(new Date(message.timestamp).toISOString())],
    ['Sender', h('span', {}, h('code', {}, message.sender.id), message.sender.anon ? ' (anonymous)' : '')],
    ['Kind', message.kind],
    ['Type', h('code', {}, message.type)],
    ['Addressed to', message.to && message.to.length > 0 ? message.to.join(', ') : 'everyone in the channel'],
    ['Mentions', message.mentions && message.mentions.length > 0 ? message.mentions.join(', ') : '—'],
  ]);
}

/**
 * /dashboard/environments/:envId/channels/:channelId/messages/:messageId: one message, its
 * content, and (admins) its retraction with a reason; a retracted message shows its tombstone.
 */
export async function messagePage({ params, session, refresh }: PageContext): Promise<Node[]> {
  const env = await api.environment(params.envId!);
  const channelId = params.channelId!;
  const message = await api.message(env.id, channelId, params.messageId!);
  const manage = canManage(roleIn(session, env));
  const channelLink = link(`/dashboard/environments/${env.id}/channels/${encodeURIComponent(channelId)}`, channelId);

  const content = message.retracted
    ? h(
        'div',
        { class: 'notice tombstone', 'data-testid': 'tombstone' },
        'Retracted ',
        time(message.retractedAt),
        '. The content is gone; readers see a tombstone with the same id and seq.',
      )
    : h('pre', { class: 'json' }, JSON.stringify(message.content, null, 2));

  return [
    ...environmentHeader(env, '/channels', `Message ${message.seq}`, link(`/dashboard/environments/${env.id}/channels`, 'channels'), channelLink),
    card('message-heading', 'Message', factsOf(message), h('h3', {}, 'Content'), content),
    manage &&
      !message.retracted &&
      card(
        'retract-heading',
        'Retract',
        h(
          'p',
          { class: 'muted' },
          'Replaces the content with a tombstone for every reader, tells live sockets and sends a message.retracted webhook. The reason is kept in the audit log.',
        ),
        form(
          { label: 'Retract the message' },
          [field('Reason', { name: 'reason', required: true, maxlength: 512, autocomplete: 'off' })],
          'Retract message',
          async (values) => {
            const reason = (values.reason ?? '').trim();
            if (!reason) throw new Error('Give a reason: it is kept in the audit log.');
            await api.retract(env.id, channelId, message.id, reason);
            refresh();
          },
        ),
      ),
  ].filter((node): node is HTMLElement => node instanceof Node);
}
