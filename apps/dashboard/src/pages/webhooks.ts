import { api, type Delivery, type DeliveryFilter, type DeliveryStatus, type Endpoint, type Webhook } from '../api.ts';
import { field, h, link, replace, selectField, time } from '../dom.ts';
import type { PageContext } from '../router.ts';
import { actionButton, card, errorRegion, form, pagedTable, type PagedTable } from '../ui.ts';
import { canManage } from './organization.ts';
import { environmentHeader, roleIn } from './environment-nav.ts';
import { liveStatus, whenLogged } from './live.ts';

const STATUSES = ['all', 'pending', 'delivered', 'dropped', 'cancelled'] as const;

export const statusBadge = (status: DeliveryStatus) => h('span', { class: `badge ${status}` }, status);

/** The outcome of a delivery's last attempt, in words. */
export function lastResult(delivery: Pick<Delivery, 'lastStatusCode' | 'lastError' | 'attempts'>): string {
  if (delivery.attempts === 0) return 'not tried yet';
  const parts = [delivery.lastStatusCode !== undefined ? `HTTP ${delivery.lastStatusCode}` : null, delivery.lastError ?? null].filter(Boolean);
  return parts.length > 0 ? parts.join(': ') : 'ok';
}

export const endpointsPath = (envId: string) => `/dashboard/environments/${envId}/webhooks/endpoints`;
export const endpointPath = (envId: string, endpointId: string) => `${endpointsPath(envId)}/${encodeURIComponent(endpointId)}`;

/** The ledger's endpoint filter: every endpoint, the default one, or one endpoint. */
function endpointField(endpoints: Endpoint[]): HTMLLabelElement {
  return h(
    'label',
    { for: 'ledger-endpoint' },
    h('span', { class: 'label-text' }, 'Endpoint'),
    h(
      'select',
      { id: 'ledger-endpoint', name: 'endpoint' },
      h('option', { value: 'all' }, 'all endpoints'),
      h('option', { value: 'default' }, 'default (deployed URL)'),
      endpoints.map((endpoint) => h('option', { value: endpoint.id }, endpoint.description || endpoint.url)),
    ),
  );
}

/** The delivery ledger of an environment as `filter()` narrows it, newest first, a page at a time. */
export function deliveryLedger(envId: string, filter: () => DeliveryFilter): PagedTable {
  return pagedTable({
    headers: ['Created', 'Event', 'Channel', 'Endpoint', 'Status', 'Attempts', 'Last result', 'Next attempt', ''],
    empty: 'No deliveries.',
    more: 'More deliveries',
    label: 'Deliveries',
    load: async (cursor?: string) => {
      const page = await api.deliveries(envId, filter(), cursor);
      return { items: page.data, next: page.nextCursor };
    },
    row: (delivery: Delivery) => [
      h('span', {}, time(delivery.createdAt)),
      h('code', {}, delivery.eventType),
      delivery.channelId === undefined ? document.createTextNode('—') : h('code', {}, delivery.channelId),
      delivery.endpointId === null ? document.createTextNode('default') : link(endpointPath(envId, delivery.endpointId), h('code', {}, delivery.endpointId)),
      statusBadge(delivery.status),
      document.createTextNode(String(delivery.attempts)),
      document.createTextNode(lastResult(delivery)),
      h('span', {}, time(delivery.nextAttemptAt)),
      h('a', { href: deliveryPath(envId, delivery.id), 'data-link': true, 'aria-label': `Open delivery ${delivery.id}` }, 'Open'),
    ],
  });
}

export const deliveryPath = (envId: string, deliveryId: string) => `/dashboard/environments/${envId}/webhooks/deliveries/${encodeURIComponent(deliveryId)}`;

/**
 * /dashboard/environments/:envId/webhooks: the receiver's URL (deployed at once on every gateway;
 * a URL the validator refuses shows its reason), the signing secret (reveal, rotate), and the
 * delivery ledger filtered by status, kept current from the live log.
 */
export async function webhooksPage({ params, session, onLeave }: PageContext): Promise<Node[]> {
  const env = await api.environment(params.envId!);
  const manage = canManage(roleIn(session, env));
  let webhook = await api.webhook(env.id);
  const endpoints = (await api.endpoints(env.id)).data;
  let filter: DeliveryFilter = {};

  const current = h('div', {});
  const secretErrors = errorRegion();
  const secretShown = h('div', { 'aria-live': 'polite' });
  const secretActions = h('div', { class: 'toolbar' });
  const showSecret = (secret: string, what: string) =>
    secretShown.replaceChildren(h('div', { class: 'notice' }, h('p', {}, what), h('code', { class: 'secret', 'data-testid': 'webhook-secret' }, secret)));
  const drawSecretActions = () =>
    secretActions.replaceChildren(
      ...(!webhook.secretConfigured
        ? [h('p', { class: 'muted' }, 'The signing secret is made by the first deploy with a URL.')]
        : manage
          ? [
              actionButton('Reveal secret', { class: 'secondary' }, secretErrors, async () => {
                showSecret((await api.revealSecret(env.id)).secret, 'The signing secret (this reveal is recorded in the audit log):');
              }),
              actionButton('Rotate secret', { class: 'danger' }, secretErrors, async () => {
                if (!confirm('Rotate the signing secret? For 24 hours deliveries carry signatures of both the old and the new secret.')) return;
                showSecret((await api.rotateSecret(env.id)).secret, 'The new signing secret. For 24 hours deliveries are signed with both:');
              }),
            ]
          : [h('p', { class: 'muted' }, 'A signing secret is set. Admins and owners can reveal and rotate it.')]),
    );
  const deployErrors = errorRegion();
  const drawCurrent = (fresh: Webhook) => {
    webhook = fresh;
    replace(
      current,
      fresh.url === null
        ? h('p', { 'data-testid': 'webhook-url' }, 'Delivery is off: no URL is deployed.')
        : h('p', {}, 'Deliveries go to ', h('code', { 'data-testid': 'webhook-url' }, fresh.url), ' since ', time(fresh.activatedAt), '.'),
      manage &&
        fresh.url !== null &&
        actionButton('Turn delivery off', { class: 'danger' }, deployErrors, async () => {
          if (!confirm('Turn webhook delivery off? Messages published meanwhile are not delivered later.')) return;
          drawCurrent(await api.deployWebhook(env.id, null));
        }),
    );
    drawSecretActions();
  };
  drawCurrent(webhook);

  const deployForm =
    manage &&
    form(
      { label: 'Deploy a webhook URL' },
      [
        field('Webhook URL', {
          name: 'url',
          required: true,
          maxlength: 2048,
          type: 'url',
          placeholder: 'https://api.example.com/hooks/realtime',
          autocomplete: 'off',
        }),
      ],
      'Deploy',
      async (values, element) => {
        drawCurrent(await api.deployWebhook(env.id, (values.url ?? '').trim()));
        element.reset();
      },
    );

  const ledger = deliveryLedger(env.id, () => filter);
  await ledger.reload();
  const live = liveStatus();
  onLeave(
    whenLogged(
      env.id,
      (frame) => frame.event.startsWith('webhook.') || frame.event.startsWith('message.'),
      () => void ledger.reload(),
      live.update,
    ),
  );

  return [
    ...environmentHeader(env, '/webhooks', 'Webhooks'),
    card('endpoint-heading', 'Endpoint', current, deployForm, deployErrors),
    card('secret-heading', 'Signing secret', secretActions, secretShown, secretErrors),
    card(
      'endpoints-heading',
      'More endpoints',
      h(
        'p',
        {},
        endpoints.length === 0
          ? 'Events can also go to endpoints of their own, each with its own secret and filters.'
          : `${endpoints.length} more endpoint${endpoints.length === 1 ? '' : 's'}, each with its own secret and filters.`,
      ),
      link(endpointsPath(env.id), 'Manage webhook endpoints'),
    ),
    card(
      'deliveries-heading',
      'Deliveries',
      h('div', { class: 'toolbar' }, live.element),
      form(
        { label: 'Filter deliveries', class: 'inline' },
        [selectField('Status', 'status', STATUSES, 'all'), endpointField(endpoints)],
        'Show',
        async (values) => {
          filter = {
            ...(values.status && values.status !== 'all' && { status: values.status as DeliveryStatus }),
            ...(values.endpoint && values.endpoint !== 'all' && { endpointId: values.endpoint }),
          };
          await ledger.reload();
        },
      ),
      ledger.element,
    ),
  ].filter((node): node is HTMLElement => node instanceof Node);
}
