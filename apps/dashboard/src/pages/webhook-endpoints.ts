import { api, type Endpoint, type EndpointInput, type EventTypeInfo } from '../api.ts';
import { field, h, link, time } from '../dom.ts';
import type { PageContext } from '../router.ts';
import { card, form, pagedTable } from '../ui.ts';
import { canManage } from './organization.ts';
import { environmentHeader, roleIn } from './environment-nav.ts';
import { endpointPath } from './webhooks.ts';

let fieldsets = 0;

/** What an endpoint takes, in words: its event types and channels (null: all). */
export const filterText = (values: string[] | null, all: string) => (values === null ? all : values.join(', '));

/** Enabled, or disabled and why. */
export function endpointState(endpoint: Endpoint): HTMLElement {
  if (!endpoint.disabled)
    return h('span', { class: `badge ${endpoint.failingSince ? 'warn' : 'delivered'}` }, endpoint.failingSince ? 'enabled, failing' : 'enabled');
  return h('span', { class: 'badge dropped' }, endpoint.disabledReason === 'failing' ? 'disabled: kept failing' : 'disabled');
}

/**
 * The fields of an endpoint's form (creating one, or changing it with `current`'s values): URL,
 * description, the event types it takes (a group of check boxes; none checked takes every type
 * but the opt-in ones, marked),
 * its channel patterns and its rate limit.
 */
export function endpointFields(types: EventTypeInfo[], current?: Endpoint): Node[] {
  const legend = `ef${++fieldsets}`;
  return [
    field('Endpoint URL', {
      name: 'url',
      required: true,
      maxlength: 2048,
      type: 'url',
      value: current?.url,
      placeholder: 'https://api.example.com/hooks',
      autocomplete: 'off',
    }),
    field('Description', { name: 'description', maxlength: 500, value: current?.description, autocomplete: 'off' }),
    h(
      'fieldset',
      { class: 'choices', 'aria-describedby': `${legend}-hint` },
      h('legend', {}, 'Event types'),
      h('p', { class: 'muted', id: `${legend}-hint` }, 'None checked: every event type but the opt-in ones, which are sent only when checked.'),
      types.map((type) =>
        h(
          'label',
          { class: 'choice', title: type.description },
          h('input', { type: 'checkbox', name: 'eventTypes', value: type.name, checked: current?.eventTypes?.includes(type.name) ?? false }),
          h('code', {}, type.name),
          type.optIn ? h('span', { class: 'muted' }, ' (opt-in)') : null,
        ),
      ),
    ),
    field('Channels (patterns, comma separated; empty: every channel)', {
      name: 'channels',
      maxlength: 13_000,
      value: current?.channels?.join(', '),
      placeholder: 'room-*, lobby',
      autocomplete: 'off',
    }),
    field('Rate limit (attempts per second; empty: none)', {
      name: 'rateLimitPerSecond',
      type: 'number',
      min: 1,
      max: 10_000,
      step: 1,
      value: current?.rateLimitPerSecond ?? undefined,
    }),
  ];
}

/** The body of a create or change from the endpoint form: an empty filter or limit is null (all, none). */
export function endpointInput(values: Record<string, string>, element: HTMLFormElement): EndpointInput & { url: string } {
  const types = [...element.querySelectorAll<HTMLInputElement>('input[name="eventTypes"]:checked')].map((box) => box.value);
  const channels = (values.channels ?? '').split(/[\s,]+/).filter(Boolean);
  const limit = (values.rateLimitPerSecond ?? '').trim();
  return {
    url: (values.url ?? '').trim(),
    description: (values.description ?? '').trim(),
    eventTypes: types.length === 0 ? null : types,
    channels: channels.length === 0 ? null : channels,
    rateLimitPerSecond: limit === '' ? null : Number(limit),
  };
}

/**
 * /dashboard/environments/:envId/webhooks/endpoints: the environment's endpoints beside its
 * default one, and (admins) a form creating one, whose signing secret is shown once here.
 */
export async function webhookEndpointsPage({ params, session }: PageContext): Promise<Node[]> {
  const env = await api.environment(params.envId!);
  const manage = canManage(roleIn(session, env));
  const types = manage ? (await api.eventTypes(env.id)).data : [];
  const created = h('div', { 'aria-live': 'polite' });

  const list = pagedTable({
    headers: ['URL', 'Description', 'Event types', 'Channels', 'State', 'Created', ''],
    empty: 'No endpoints yet: deliveries go to the default one only.',
    more: 'More endpoints',
    label: 'Endpoints',
    load: async (cursor?: string) => {
      const page = await api.endpoints(env.id, cursor);
      return { items: page.data, next: page.nextCursor };
    },
    row: (endpoint: Endpoint) => [
      h('code', { class: 'wrap' }, endpoint.url),
      document.createTextNode(endpoint.description || '—'),
      document.createTextNode(filterText(endpoint.eventTypes, 'all')),
      document.createTextNode(filterText(endpoint.channels, 'all')),
      endpointState(endpoint),
      h('span', {}, time(endpoint.createdAt)),
      h('a', { href: endpointPath(env.id, endpoint.id), 'data-link': true, 'aria-label': `Open endpoint ${endpoint.description || endpoint.url}` }, 'Open'),
    ],
  });
  await list.reload();

  const createForm =
    manage &&
    form({ label: 'Create an endpoint', class: 'stack wide' }, endpointFields(types), 'Create endpoint', async (values, element) => {
      const input = endpointInput(values, element);
      const endpoint = await api.createEndpoint(env.id, {
        url: input.url,
        ...(input.description && { description: input.description }),
        ...(input.eventTypes && { eventTypes: input.eventTypes }),
        ...(input.channels && { channels: input.channels }),
        ...(input.rateLimitPerSecond !== null && { rateLimitPerSecond: input.rateLimitPerSecond }),
      });
      element.reset();
      created.replaceChildren(
        h(
          'div',
          { class: 'notice' },
          h('p', {}, 'Endpoint created. Its signing secret (also revealed on its page):'),
          h('code', { class: 'secret', 'data-testid': 'endpoint-secret' }, endpoint.secret),
          link(endpointPath(env.id, endpoint.id), `Open the endpoint ${endpoint.url}`),
        ),
      );
      await list.reload();
    });

  return [
    ...environmentHeader(env, '/webhooks', 'Webhook endpoints', link(`/dashboard/environments/${env.id}/webhooks`, 'webhooks')),
    card(
      'endpoint-list-heading',
      'Endpoints',
      h(
        'p',
        { class: 'muted' },
        'Each endpoint gets its own delivery of every event its filters take, signed with its own secret. ',
        'The default endpoint is the URL deployed on the ',
        link(`/dashboard/environments/${env.id}/webhooks`, 'webhooks page'),
        '.',
      ),
      list.element,
    ),
    manage
      ? card('endpoint-create-heading', 'Create an endpoint', createForm, created)
      : h('p', { class: 'muted' }, 'Admins and owners can create and change endpoints.'),
  ];
}
