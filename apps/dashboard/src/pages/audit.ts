import { api, type AuditEntry } from '../api.ts';
import { h, link, time } from '../dom.ts';
import type { PageContext } from '../router.ts';
import { pagedTable } from '../ui.ts';

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
  const entries = pagedTable({
    headers: ['When', 'Who', 'Action', 'Target', 'Details'],
    empty: 'Nothing recorded yet.',
    more: 'Older entries',
    load: async (cursor?: string) => {
      const page = await api.audit(orgId, cursor);
      return { items: page.data, next: page.nextCursor };
    },
    row,
  });
  await entries.reload();
  return [h('p', { class: 'crumbs' }, link(`/dashboard/orgs/${orgId}`, 'Organization'), ' / audit log'), h('h1', {}, 'Audit log'), entries.element];
}
