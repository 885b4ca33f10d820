import { api, type AuditEntry } from '../api.ts';
import { h, link, time } from '../dom.ts';
import type { PageContext } from '../router.ts';
import { pagedTable } from '../ui.ts';

function describe(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([name, value]) => `${name}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

/** An actor without an e-mail: the admin CLI, a secret key (by its id), the service. */
function actorName(actor: AuditEntry['actor']): string {
  if (actor.kind === 'cli') return 'admin CLI';
  if (actor.kind === 'key') return `secret key ${actor.id ?? ''}`.trim();
  return actor.kind;
}

const row = (entry: AuditEntry) => [
  h('span', {}, time(entry.at)),
  document.createTextNode(entry.actor.email ?? actorName(entry.actor)),
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
