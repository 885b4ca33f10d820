import type { Session } from './api.ts';

/** What a page gets: the route's parameters, the session, and a way to go elsewhere. */
export interface PageContext {
  params: Record<string, string>;
  session: Session;
  navigate(path: string, options?: { replace?: boolean }): void;
  /** Renders the current page again (after a change). */
  refresh(): void;
  /** Runs `cleanup` when this view is left (another view, a re-render, signing out): closes its live connections and timers. */
  onLeave(cleanup: () => void): void;
}

export type Page = (context: PageContext) => Promise<Node | Node[]>;

export interface Route {
  /** A path under /dashboard, `:name` for a parameter (e.g. `/environments/:envId`). */
  path: string;
  title: string;
  page: Page;
}

/** The route of `pathname` (e.g. /dashboard/projects/prj_1) and its parameters, if any. */
export function match(routes: Route[], pathname: string): { route: Route; params: Record<string, string> } | undefined {
  const rest = pathname.replace(/^\/dashboard/, '').replace(/\/+$/, '') || '/';
  for (const route of routes) {
    const names: string[] = [];
    const pattern = new RegExp(
      `^${
        route.path.replace(/\/+$/, '').replace(/:([a-zA-Z]+)/g, (_, name: string) => {
          names.push(name);
          return '([^/]+)';
        }) || '/'
      }$`,
    );
    const found = pattern.exec(rest);
    if (found) {
      const params: Record<string, string> = {};
      names.forEach((name, i) => {
        params[name] = decodeURIComponent(found[i + 1]!);
      });
      return { route, params };
    }
  }
  return undefined;
}
