import { api } from '../api.ts';
import { field, h } from '../dom.ts';
import type { PageContext } from '../router.ts';
import { openLiveLog, type LogFrame } from '../live-log.ts';
import { preview } from '../ui.ts';
import { environmentHeader } from './environment-nav.ts';
import { liveStatus } from './live.ts';

/** Rows the view keeps; older ones are dropped as new ones arrive. */
const KEEP = 500;

const LEVEL_CLASS: Record<LogFrame['level'], string> = { debug: '', info: '', warn: 'warn', error: 'error' };

function rowOf(frame: LogFrame): HTMLTableRowElement {
  return h(
    'tr',
    { 'data-event': frame.event },
    h('td', {}, h('time', { datetime: new Date(frame.timestamp).toISOString() }, new Date(frame.timestamp).toLocaleTimeString())),
    h('td', {}, h('span', { class: `badge ${LEVEL_CLASS[frame.level] ?? ''}` }, frame.level)),
    h('td', {}, h('code', {}, frame.event)),
    h('td', {}, h('code', { class: 'wrap' }, preview(frame.data, 400))),
  );
}

/**
 * /dashboard/environments/:envId/logs: the environment's live log (publishes, retractions,
 * webhook attempts, sockets opening and refused, key and configuration changes), newest first,
 * as the logs socket sends it; pause, clear and a filter by event name.
 */
export async function logsPage({ params, onLeave }: PageContext): Promise<Node[]> {
  const env = await api.environment(params.envId!);
  const body = h('tbody', {});
  const empty = h('p', { class: 'muted' }, 'Waiting for events. Publish a message, open a socket or change a setting to see one.');
  let paused = false;
  let filter = '';
  let held: LogFrame[] = [];

  const visible = (row: HTMLTableRowElement) => filter === '' || (row.dataset.event ?? '').includes(filter);
  const add = (frame: LogFrame) => {
    const row = rowOf(frame);
    row.hidden = !visible(row);
    body.prepend(row);
    while (body.childElementCount > KEEP) body.lastElementChild!.remove();
    empty.hidden = true;
  };
  const status = liveStatus();
  const pause = h('button', { type: 'button', class: 'secondary', 'aria-pressed': 'false' }, 'Pause');
  pause.addEventListener('click', () => {
    paused = !paused;
    pause.setAttribute('aria-pressed', String(paused));
    pause.textContent = paused ? `Resume (${held.length} held)` : 'Pause';
    if (!paused) {
      for (const frame of held) add(frame);
      held = [];
    }
  });
  const clear = h('button', { type: 'button', class: 'secondary' }, 'Clear');
  clear.addEventListener('click', () => {
    body.replaceChildren();
    held = [];
    empty.hidden = false;
  });
  const filterField = field('Event contains', { name: 'event', autocomplete: 'off', placeholder: 'message.' });
  filterField.querySelector('input')!.addEventListener('input', (event) => {
    filter = (event.target as HTMLInputElement).value.trim();
    for (const row of body.children) (row as HTMLTableRowElement).hidden = !visible(row as HTMLTableRowElement);
  });

  const live = openLiveLog(
    env.id,
    (frame) => {
      if (!paused) return add(frame);
      held.push(frame);
      if (held.length > KEEP) held.shift();
      pause.textContent = `Resume (${held.length} held)`;
    },
    status.update,
  );
  onLeave(() => live.close());

  return [
    ...environmentHeader(env, '/logs', 'Live log'),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'log-heading' },
      h('h2', { id: 'log-heading' }, 'Events'),
      h('div', { class: 'toolbar' }, status.element, pause, clear, filterField),
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { 'aria-label': 'Log events' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['Time', 'Level', 'Event', 'Data'].map((name) => h('th', { scope: 'col' }, name)),
            ),
          ),
          body,
        ),
      ),
      empty,
    ),
  ];
}
