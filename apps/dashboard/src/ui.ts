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
export function actionButton(label: string, attrs: { class?: string; 'aria-label'?: string }, errorTarget: HTMLElement, action: () => Promise<void>): HTMLButtonElement {
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
      h('thead', {}, h('tr', {}, headers.map((header) => h('th', { scope: 'col' }, header)))),
      h('tbody', {}, rows.map((cells) => h('tr', {}, cells.map((cell) => h('td', {}, cell))))),
    ),
  );
}
