import type { Environment, Role, Session } from '../api.ts';
import { h, link } from '../dom.ts';

/** The views of one environment, each a path under /dashboard/environments/:envId. */
const VIEWS = [
  { path: '', name: 'Keys and origins' },
  { path: '/channels', name: 'Messages' },
  { path: '/bans', name: 'Bans' },
  { path: '/webhooks', name: 'Webhooks' },
  { path: '/logs', name: 'Live log' },
  { path: '/usage', name: 'Usage' },
] as const;

export type EnvironmentView = (typeof VIEWS)[number]['path'];

/** The user's role in the environment's organization (viewer when unknown). */
export function roleIn(session: Session, env: Pick<Environment, 'organizationId'>): Role {
  return session.organizations.find((org) => org.id === env.organizationId)?.role ?? 'viewer';
}

/**
 * The top of every environment view: where it is (organization / project / environment), its
 * title, and the links to the environment's other views (the current one marked for assistive
 * technology with aria-current).
 */
export function environmentHeader(env: Environment, current: EnvironmentView, title: string, ...trail: (Node | string)[]): Node[] {
  const base = `/dashboard/environments/${env.id}`;
  return [
    h(
      'p',
      { class: 'crumbs' },
      link(`/dashboard/orgs/${env.organizationId}`, 'Organization'),
      ' / ',
      link(`/dashboard/projects/${env.projectId}`, 'Project'),
      ' / ',
      current === '' && trail.length === 0 ? `environment ${env.name}` : link(base, `environment ${env.name}`),
      ...trail.flatMap((part) => [' / ', part]),
    ),
    h('h1', {}, title),
    h(
      'nav',
      { class: 'tabs', 'aria-label': 'Environment' },
      VIEWS.map((view) => {
        const anchor = link(`${base}${view.path}`, view.name);
        if (view.path === current) anchor.setAttribute('aria-current', 'page');
        return anchor;
      }),
    ),
  ];
}
