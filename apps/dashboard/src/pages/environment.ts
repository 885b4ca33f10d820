import { api, type Key } from '../api.ts';
import { field, h, selectField, time } from '../dom.ts';
import type { PageContext } from '../router.ts';
import { actionButton, card, errorRegion, form, table } from '../ui.ts';
import { canManage } from './organization.ts';
import { environmentHeader, roleIn } from './environment-nav.ts';

/**
 * /dashboard/environments/:envId: API keys (a new key is shown once, here, and never again),
 * allowed origins, rename, and deletion confirmed by typing the environment's name.
 */
export async function environmentPage({ params, session, navigate, refresh }: PageContext): Promise<Node[]> {
  const env = await api.environment(params.envId!);
  const [keys, origins] = await Promise.all([api.keys(env.id), api.origins(env.id)]);
  const manage = canManage(roleIn(session, env));

  const keyErrors = errorRegion();
  const keyList = h('div', {});
  const renderKeys = (list: Key[]) =>
    keyList.replaceChildren(
      table(
        ['Prefix', 'Kind', 'Created', 'Last used', 'Status', ''],
        list.map((key) => [
          h('code', {}, key.prefix),
          document.createTextNode(key.kind),
          h('span', {}, time(key.createdAt)),
          h('span', {}, time(key.lastUsedAt)),
          key.revokedAt ? h('span', {}, 'revoked ', time(key.revokedAt)) : document.createTextNode('active'),
          manage && !key.revokedAt
            ? actionButton('Revoke', { class: 'danger', 'aria-label': `Revoke key ${key.prefix}` }, keyErrors, async () => {
                if (!confirm(`Revoke the ${key.kind} key ${key.prefix}? Every gateway refuses it at once.`)) return;
                await api.revokeKey(env.id, key.id);
                renderKeys((await api.keys(env.id)).data);
              })
            : document.createTextNode(''),
        ]),
        'No API keys yet.',
      ),
    );
  renderKeys(keys.data);
  const shownOnce = h('div', { 'aria-live': 'polite' });

  const originErrors = errorRegion();
  const originRows = origins.data.map((origin) => [
    h('code', {}, origin.origin),
    h('span', {}, time(origin.createdAt)),
    manage
      ? actionButton('Remove', { class: 'danger', 'aria-label': `Remove origin ${origin.origin}` }, originErrors, async () => {
          await api.removeOrigin(env.id, origin.origin);
          refresh();
        })
      : document.createTextNode(''),
  ]);

  const deleteSection = card(
    'delete-heading',
    'Delete the environment',
    h(
      'p',
      {},
      'This deletes its keys, channels, messages, members, bans and webhook deliveries, at once and for good. Type ',
      h('strong', {}, env.name),
      ' to confirm.',
    ),
    form(
      { label: 'Delete the environment' },
      [field('Name of the environment, to confirm', { name: 'confirm', required: true, autocomplete: 'off' })],
      'Delete environment',
      async (values) => {
        await api.deleteEnvironment(env.id, values.confirm ?? '');
        navigate(`/dashboard/projects/${env.projectId}`);
      },
    ),
  );
  deleteSection.querySelector('button[type=submit]')!.classList.add('danger');

  return [
    ...environmentHeader(env, '', env.name),
    h('p', { class: 'muted' }, 'Environment id ', h('code', {}, env.id)),
    card(
      'keys-heading',
      'API keys',
      manage &&
        form({ label: 'New API key' }, [selectField('Kind', 'kind', ['secret', 'publishable'], 'secret')], 'Create key', async (values) => {
          const created = await api.createKey(env.id, values.kind === 'publishable' ? 'publishable' : 'secret');
          shownOnce.replaceChildren(
            h(
              'div',
              { class: 'notice' },
              h('p', {}, `Your new ${created.kind} key. Copy it now: it is shown only this once.`),
              h('code', { class: 'secret', 'data-testid': 'new-key' }, created.key),
            ),
          );
          renderKeys((await api.keys(env.id)).data);
        }),
      shownOnce,
      keyList,
      keyErrors,
    ),
    card(
      'origins-heading',
      'Allowed origins',
      h('p', { class: 'muted' }, 'Browser pages of these origins may use the publishable keys (scheme://host[:port]).'),
      table(['Origin', 'Added', ''], originRows, 'No allowed origins.'),
      manage &&
        form(
          { label: 'Add an allowed origin' },
          [field('Origin', { name: 'origin', required: true, placeholder: 'https://app.example.com' })],
          'Add origin',
          async (values) => {
            await api.addOrigin(env.id, values.origin ?? '');
            refresh();
          },
        ),
      originErrors,
    ),
    manage &&
      card(
        'env-settings-heading',
        'Rename',
        form(
          { label: 'Rename the environment' },
          [field('Environment name', { name: 'name', required: true, maxlength: 64, value: env.name })],
          'Rename',
          async (values) => {
            await api.renameEnvironment(env.id, values.name ?? '');
            refresh();
          },
        ),
      ),
    manage && deleteSection,
  ].filter((node): node is Node => node instanceof Node);
}
