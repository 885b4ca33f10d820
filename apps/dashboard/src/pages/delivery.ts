import { api } from '../api.ts';
import { h, link, time } from '../dom.ts';
import type { PageContext } from '../router.ts';
import { actionButton, card, errorRegion, facts, table } from '../ui.ts';
import { canManage } from './organization.ts';
import { environmentHeader, roleIn } from './environment-nav.ts';
import { endpointPath, lastResult, statusBadge } from './webhooks.ts';

/**
 * /dashboard/environments/:envId/webhooks/deliveries/:deliveryId: one delivery, its attempt log,
 * and (admins) a retry of a dropped one.
 */
export async function deliveryPage({ params, session, refresh }: PageContext): Promise<Node[]> {
  const env = await api.environment(params.envId!);
  const delivery = await api.delivery(env.id, params.deliveryId!);
  const manage = canManage(roleIn(session, env));
  const errors = errorRegion();
  const rows: [string, Node | string][] = [
    ['Id', h('code', {}, delivery.id)],
    ['Event', h('span', {}, h('code', {}, delivery.eventType), ' ', h('code', {}, delivery.eventId))],
    ['Channel', delivery.channelId === undefined ? '—' : h('code', {}, delivery.channelId)],
    ['Endpoint', delivery.endpointId === null ? 'default' : link(endpointPath(env.id, delivery.endpointId), h('code', {}, delivery.endpointId))],
    ['URL', h('code', {}, delivery.url)],
    ['Status', statusBadge(delivery.status)],
    ['Attempts', String(delivery.attempts)],
    ['Last result', lastResult(delivery)],
    ['Next attempt', time(delivery.nextAttemptAt)],
    ['Delivered', time(delivery.deliveredAt)],
    ['Created', time(delivery.createdAt)],
  ];
  return [
    ...environmentHeader(env, '/webhooks', 'Delivery', link(`/dashboard/environments/${env.id}/webhooks`, 'webhooks')),
    card(
      'delivery-heading',
      'Delivery',
      facts(rows),
      manage &&
        delivery.status === 'dropped' &&
        actionButton('Retry now', {}, errors, async () => {
          await api.retryDelivery(env.id, delivery.id);
          refresh();
        }),
      errors,
    ),
    card(
      'attempts-heading',
      'Attempts',
      table(
        ['When', 'HTTP status', 'Error', 'Duration'],
        delivery.attemptLog.map((attempt) => [
          h('span', {}, time(attempt.at)),
          document.createTextNode(attempt.statusCode === undefined ? '—' : String(attempt.statusCode)),
          document.createTextNode(attempt.error ?? '—'),
          document.createTextNode(`${attempt.durationMs} ms`),
        ]),
        'Not tried yet.',
      ),
    ),
  ];
}
