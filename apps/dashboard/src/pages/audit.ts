import { api, type AuditEntry } from '../api.ts';
import { h, link, time } from '../dom.ts';
import type { PageContext } from '../router.ts';
import { actionButton, errorRegion, table } from '../ui.ts';

function describe(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

const row = (entry: AuditEntry) => [
  h('span', {}, time(entry.at)),
  document.createTextNode(entry.actor.email ?? (entry.actor.kind === 'cli' ? 'admin CLI' : entry.actor.kind)),
  h('code', {}, entry.action),
  document.createTextNode(`${entry.target.type}${entry.target.id ? ` ${entry.target.id}` : ''}`),
  document.createTextNode(describe(entry.details)),
];

/** /dashboard/orgs/:orgId/audit: who changed what and when, newest first, 50 at a time. */
export async function auditPage({ params }: PageContext): Promise<Node[]> {
  const orgId = params.orgId!;
  const first = await api.audit(orgId);
  const rows = first.data.map(row);
  const holder = h('div', {});
  const errors = errorRegion();
  let cursor = first.nextCursor;
  const render = () => {
    holder.replaceChildren(table(['When', 'Who', 'Action', 'Target', 'Details'], rows, 'Nothing recorded yet.'));
    if (cursor) {
      holder.append(
        actionButton('Older entries', { class: 'secondary' }, errors, async () => {
          const page = await api.audit(orgId, cursor!);
          rows.push(...page.data.map(row));
          cursor = page.nextCursor;
          render();
        }),
      );
    }
  };
  render();
  return [h('p', { class: 'crumbs' }, link(`/dashboard/orgs/${orgId}`, 'Organization'), ' / audit log'), h('h1', {}, 'Audit log'), holder, errors];
}
