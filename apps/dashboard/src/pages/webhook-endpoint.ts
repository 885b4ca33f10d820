import { api, type DeliveryStatus, type Endpoint, type WebhookTask } from '../api.ts';
import { field, h, link, replace, selectField, time } from '../dom.ts';
import type { PageContext } from '../router.ts';
import { actionButton, card, errorRegion, facts, form, isoOfLocal } from '../ui.ts';
import { canManage } from './organization.ts';
import { environmentHeader, roleIn } from './environment-nav.ts';
import { liveStatus, whenLogged } from './live.ts';
import { deliveryLedger, deliveryPath, endpointsPath } from './webhooks.ts';
import { endpointFields, endpointInput, endpointState, filterText } from './webhook-endpoints.ts';

const STATUSES = ['all', 'pending', 'delivered', 'dropped', 'cancelled'] as const;
/** How often a running recovery's progress is read again. */
const TASK_POLL_MS = 1000;

/** A `datetime-local` value (the browser's time zone) of `at`. */
function localValue(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

function taskText(task: WebhookTask): string {
  const queued = `${task.recovered} dropped deliver${task.recovered === 1 ? 'y' : 'ies'} queued again`;
  if (task.status === 'running') return `Recovery running: ${queued} so far.`;
  if (task.status === 'failed') return `Recovery failed: ${task.error ?? 'no reason given'} (${queued}).`;
  return `Recovery completed: ${queued}.`;
}

/**
 * /dashboard/environments/:envId/webhooks/endpoints/:endpointId: one endpoint, its ledger (kept
 * current from the live log) and, for admins, its changes: edit, disable or enable, a test event,
 * its signing secret (reveal, rotate), a recovery of its dropped deliveries with the task's
 * progress (its id kept in the address, `?task=`, so a reload shows it again), and delete.
 */
export async function webhookEndpointPage({ params, session, navigate, onLeave }: PageContext): Promise<Node[]> {
  const env = await api.environment(params.envId!);
  let endpoint = await api.endpoint(env.id, params.endpointId!);
  const manage = canManage(roleIn(session, env));
  const types = manage ? (await api.eventTypes(env.id)).data : [];
  let status: DeliveryStatus | undefined;

  const details = h('div', {});
  const stateErrors = errorRegion();
  const stateActions = h('div', { class: 'toolbar' });
  const draw = (fresh: Endpoint) => {
    endpoint = fresh;
    replace(
      details,
      facts([
        ['Id', h('code', {}, fresh.id)],
        ['URL', h('code', { 'data-testid': 'endpoint-url' }, fresh.url)],
        ['Description', fresh.description || '—'],
        ['Event types', filterText(fresh.eventTypes, 'every type but the opt-in ones')],
        ['Channels', filterText(fresh.channels, 'every channel')],
        ['Rate limit', fresh.rateLimitPerSecond === null ? 'none' : `${fresh.rateLimitPerSecond} attempts per second`],
        ['State', h('span', { 'data-testid': 'endpoint-state' }, endpointState(fresh))],
        ['Failing since', time(fresh.failingSince)],
        ['Created', time(fresh.createdAt)],
        ['Changed', time(fresh.updatedAt)],
      ]),
    );
    if (!manage) return;
    stateActions.replaceChildren(
      actionButton(fresh.disabled ? 'Enable endpoint' : 'Disable endpoint', { class: fresh.disabled ? '' : 'danger' }, stateErrors, async () => {
        draw(await api.updateEndpoint(env.id, fresh.id, { disabled: !fresh.disabled }));
      }),
      actionButton('Delete endpoint', { class: 'danger' }, stateErrors, async () => {
        if (!confirm(`Delete the endpoint ${fresh.url}? Its deliveries and their attempts are deleted with it.`)) return;
        await api.deleteEndpoint(env.id, fresh.id);
        navigate(endpointsPath(env.id));
      }),
    );
  };
  draw(endpoint);

  const ledger = deliveryLedger(env.id, () => ({ endpointId: endpoint.id, ...(status && { status }) }));
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

  const result: Node[] = [
    ...environmentHeader(
      env,
      '/webhooks',
      'Webhook endpoint',
      link(`/dashboard/environments/${env.id}/webhooks`, 'webhooks'),
      link(endpointsPath(env.id), 'endpoints'),
    ),
    card('endpoint-heading', 'Endpoint', details, stateActions, stateErrors),
  ];

  if (manage) {
    const editForm = form({ label: 'Change the endpoint', class: 'stack wide' }, endpointFields(types, endpoint), 'Save changes', async (values, element) => {
      draw(await api.updateEndpoint(env.id, endpoint.id, endpointInput(values, element)));
    });

    const sent = h('div', { 'aria-live': 'polite' });
    const testForm = form(
      { label: 'Send a test event', class: 'inline' },
      [selectField('Event type', 'eventType', ['webhook.test', ...types.map((t) => t.name).filter((name) => name !== 'webhook.test')], 'webhook.test')],
      'Send test event',
      async (values) => {
        const answer = await api.testEndpoint(env.id, endpoint.id, values.eventType === 'webhook.test' ? undefined : values.eventType);
        sent.replaceChildren(
          h(
            'p',
            { class: 'notice', 'data-testid': 'test-sent' },
            `A ${answer.eventType} event is on its way: `,
            link(deliveryPath(env.id, answer.deliveryId), `delivery ${answer.deliveryId}`),
            '.',
          ),
        );
        await ledger.reload();
      },
    );

    const secretErrors = errorRegion();
    const secretShown = h('div', { 'aria-live': 'polite' });
    const showSecret = (secret: string, what: string) =>
      secretShown.replaceChildren(h('div', { class: 'notice' }, h('p', {}, what), h('code', { class: 'secret', 'data-testid': 'endpoint-secret' }, secret)));

    const progress = h('div', { class: 'task', role: 'status', 'data-testid': 'task-status', hidden: true });
    let polling: ReturnType<typeof setTimeout> | undefined;
    let left = false;
    onLeave(() => {
      left = true;
      clearTimeout(polling);
    });
    const follow = async (taskId: string) => {
      clearTimeout(polling);
      let task: WebhookTask;
      try {
        task = await api.webhookTask(env.id, taskId);
      } catch (failure) {
        progress.hidden = false;
        progress.textContent = `The recovery ${taskId} cannot be read: ${failure instanceof Error ? failure.message : String(failure)}`;
        return;
      }
      if (left) return;
      progress.hidden = false;
      progress.replaceChildren(
        h('p', {}, taskText(task)),
        h(
          'p',
          { class: 'muted' },
          'Task ',
          h('code', {}, task.id),
          ', started ',
          time(task.createdAt),
          task.finishedAt ? [', finished ', time(task.finishedAt)] : null,
          '.',
        ),
      );
      if (task.status === 'running') polling = setTimeout(() => void follow(taskId), TASK_POLL_MS);
      else await ledger.reload();
    };
    const recoverForm = form(
      { label: 'Recover dropped deliveries', class: 'stack' },
      [
        field('Dropped since', { name: 'since', type: 'datetime-local', required: true, value: localValue(new Date(Date.now() - 86_400_000)) }),
        field('Until (empty: now)', { name: 'until', type: 'datetime-local' }),
      ],
      'Recover',
      async (values) => {
        const since = isoOfLocal(values.since);
        if (since === undefined) throw new Error('Give the time from which dropped deliveries are sent again.');
        const until = isoOfLocal(values.until);
        const { taskId } = await api.recoverEndpoint(env.id, endpoint.id, { since, ...(until && { until }) });
        history.replaceState(null, '', `${location.pathname}?task=${encodeURIComponent(taskId)}`);
        await follow(taskId);
      },
    );
    const shownTask = new URLSearchParams(location.search).get('task');
    if (shownTask && /^wtk_[0-9a-z]{26}$/.test(shownTask)) void follow(shownTask);

    result.push(
      card('endpoint-edit-heading', 'Change', editForm),
      card(
        'endpoint-test-heading',
        'Test event',
        h('p', { class: 'muted' }, 'Sent to this endpoint only, past its filters, through the normal path: signed, in its ledger, retried.'),
        testForm,
        sent,
      ),
      card(
        'endpoint-secret-heading',
        'Signing secret',
        h(
          'div',
          { class: 'toolbar' },
          actionButton('Reveal secret', { class: 'secondary' }, secretErrors, async () => {
            showSecret((await api.revealEndpointSecret(env.id, endpoint.id)).secret, 'The signing secret (this reveal is recorded in the audit log):');
          }),
          actionButton('Rotate secret', { class: 'danger' }, secretErrors, async () => {
            if (!confirm("Rotate this endpoint's signing secret? For 24 hours its deliveries carry signatures of both the old and the new secret.")) return;
            showSecret((await api.rotateEndpointSecret(env.id, endpoint.id)).secret, 'The new signing secret. For 24 hours deliveries are signed with both:');
          }),
        ),
        secretShown,
        secretErrors,
      ),
      card(
        'endpoint-recover-heading',
        'Recover',
        h('p', { class: 'muted' }, 'Sends again, at once, every delivery to this endpoint that was dropped in the window.'),
        recoverForm,
        progress,
      ),
    );
  }

  result.push(
    card(
      'deliveries-heading',
      'Deliveries',
      h('div', { class: 'toolbar' }, live.element),
      form({ label: 'Filter deliveries', class: 'inline' }, [selectField('Status', 'status', STATUSES, 'all')], 'Show', async (values) => {
        status = values.status === 'all' || !values.status ? undefined : (values.status as DeliveryStatus);
        await ledger.reload();
      }),
      ledger.element,
    ),
  );
  return result;
}
