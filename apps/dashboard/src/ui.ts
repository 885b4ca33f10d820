import { ApiError } from './api.ts';
import { h, replace } from './dom.ts';

/**
 * A form whose submission calls `action` with its fields. The submit button is disabled while
 * the request runs; an API error's reason (`{code, reason}`) is shown in the form's own alert
 * region, next to the fields, and focus stays in the form.
 */
export function form(
  attrs: { label: string; class?: string },
  fields: Node[],
  submit: string,
  action: (values: Record<string, string>, form: HTMLFormElement) => Promise<void>,
): HTMLFormElement {
  const error = h('p', { class: 'error', role: 'alert' });
  const button = h('button', { type: 'submit' }, submit);
  const element = h('form', { 'aria-label': attrs.label, class: attrs.class, novalidate: true }, ...fields, button, error);
  element.addEventListener('submit', async (event) => {
    event.preventDefault();
    replace(error);
    const values: Record<string, string> = {};
    for (const [name, value] of new FormData(element)) values[name] = typeof value === 'string' ? value : '';
    button.disabled = true;
    try {
      await action(values, element);
    } catch (failure) {
      replace(error, messageOf(failure));
    } finally {
      button.disabled = false;
    }
  });
  return element;
}

/** A button that runs `action`; an error is shown in `errorTarget` (the section's alert region). */
export function actionButton(
  label: string,
  attrs: { class?: string; 'aria-label'?: string },
  errorTarget: HTMLElement,
  action: () => Promise<void>,
): HTMLButtonElement {
  const button = h('button', { type: 'button', ...attrs }, label);
  button.addEventListener('click', async () => {
    replace(errorTarget);
    button.disabled = true;
    try {
      await action();
    } catch (failure) {
      replace(errorTarget, messageOf(failure));
    } finally {
      if (button.isConnected) button.disabled = false;
    }
  });
  return button;
}

export function messageOf(failure: unknown): string {
  if (failure instanceof ApiError) return `${failure.reason} (${failure.code})`;
  return failure instanceof Error ? failure.message : String(failure);
}

export function errorRegion(): HTMLParagraphElement {
  return h('p', { class: 'error', role: 'alert' });
}

/** A titled card; `id` names its heading for aria-labelledby. */
export function card(id: string, title: string, ...children: (Node | string | null | undefined | false)[]): HTMLElement {
  return h('section', { class: 'card', 'aria-labelledby': id }, h('h2', { id }, title), ...children);
}

export function table(headers: string[], rows: Node[][], empty: string): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'muted' }, empty);
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      {},
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          headers.map((header) => h('th', { scope: 'col' }, header)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((cells) =>
          h(
            'tr',
            {},
            cells.map((cell) => h('td', {}, cell)),
          ),
        ),
      ),
    ),
  );
}

export interface PagedTable {
  element: HTMLElement;
  /** Loads the first page again (after a change, or a filter), dropping the older pages shown. */
  reload(): Promise<void>;
}

/**
 * A table of a paged list: the first page on `reload()`, then one more page per click of the
 * `more` button (shown while the list has a next cursor). A failing load shows its reason in the
 * table's alert region; a reload started while another runs wins.
 */
export function pagedTable<T, C extends string | number>(options: {
  headers: string[];
  empty: string;
  more: string;
  label?: string;
  load: (cursor?: C) => Promise<{ items: T[]; next: C | null }>;
  row: (item: T) => Node[];
}): PagedTable {
  const body = h('div', {});
  const errors = errorRegion();
  const element = h('div', { class: 'paged', ...(options.label && { 'aria-label': options.label }) }, body, errors);
  let rows: Node[][] = [];
  let next: C | null = null;
  let turn = 0;
  const draw = () => {
    body.replaceChildren(table(options.headers, rows, options.empty));
    if (next !== null) {
      body.append(
        actionButton(options.more, { class: 'secondary' }, errors, async () => {
          const mine = turn;
          const page = await options.load(next!);
          if (mine !== turn) return;
          rows = rows.concat(page.items.map(options.row));
          next = page.next;
          draw();
        }),
      );
    }
  };
  return {
    element,
    async reload() {
      const mine = ++turn;
      try {
        const page = await options.load();
        if (mine !== turn) return;
        replace(errors);
        rows = page.items.map(options.row);
        next = page.next;
        draw();
      } catch (failure) {
        if (mine === turn) replace(errors, messageOf(failure));
      }
    },
  };
}

/** JSON of `value` on one line, cut to `max` characters. */
export function preview(value: unknown, max = 160): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The ISO time of a `datetime-local` field's value (read in the browser's time zone); undefined when empty. */
export function isoOfLocal(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw new Error(`${value} is not a date and time`);
  return at.toISOString();
}

/** A list of named facts (`<dl>`): a record's fields on its own view. */
export function facts(rows: [string, Node | string][]): HTMLElement {
  return h(
    'dl',
    { class: 'facts' },
    rows.map(([term, value]) => [h('dt', {}, term), h('dd', {}, value)]),
  );
}
