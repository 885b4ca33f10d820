/**
 * Building DOM nodes without markup strings: text is always set as text (textContent, text
 * nodes, attributes), never parsed as HTML, so nothing a user or the API wrote can become markup.
 */
type Child = Node | string | number | null | undefined | false | Child[];
type Attrs = Record<string, string | number | boolean | null | undefined | ((event: any) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === 'function') {
      element.addEventListener(name.replace(/^on/, ''), value);
    } else if (name === 'value' && 'value' in element) {
      (element as HTMLInputElement).value = String(value);
    } else {
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(element, children);
  return element;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

/** Replaces every child of `parent`. */
export function replace(parent: Node, ...children: Child[]): void {
  while (parent.firstChild) parent.removeChild(parent.firstChild);
  append(parent, children);
}

let ids = 0;
/** A labelled input (the label wraps it and names it). */
export function field(label: string, attrs: Attrs & { name: string }): HTMLLabelElement {
  const id = `f${++ids}`;
  return h('label', { for: id }, h('span', { class: 'label-text' }, label), h('input', { id, ...attrs }));
}

export function selectField(label: string, name: string, options: readonly string[], value?: string): HTMLLabelElement {
  const id = `f${++ids}`;
  return h(
    'label',
    { for: id },
    h('span', { class: 'label-text' }, label),
    h(
      'select',
      { id, name },
      options.map((option) => h('option', { value: option, selected: option === value }, option)),
    ),
  );
}

export function time(iso: string | null | undefined): HTMLElement | string {
  if (!iso) return '—';
  return h('time', { datetime: iso, title: iso }, new Date(iso).toLocaleString());
}

export function link(href: string, ...children: Child[]): HTMLAnchorElement {
  return h('a', { href, 'data-link': true }, ...children);
}
