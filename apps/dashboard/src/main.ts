/**
 * The dashboard's web UI: one page at /dashboard/… whose views are drawn from the dashboard API.
 * A new view is one entry in ROUTES and a module in pages/ returning its nodes.
 */
import { api, onSignedOut, setSession, type Session } from './api.ts';
import { h, link, replace } from './dom.ts';
import { match, type PageContext, type Route } from './router.ts';
import { actionButton, errorRegion, messageOf } from './ui.ts';
import { signInPage } from './pages/signin.ts';
import { acceptInvitationPage } from './pages/accept-invitation.ts';
import { resetPasswordPage } from './pages/reset-password.ts';
import { organizationPage } from './pages/organization.ts';
import { projectPage } from './pages/project.ts';
import { environmentPage } from './pages/environment.ts';
import { auditPage } from './pages/audit.ts';
import { channelsPage } from './pages/channels.ts';
import { channelPage } from './pages/channel.ts';
import { messagePage } from './pages/message.ts';
import { bansPage } from './pages/bans.ts';
import { webhooksPage } from './pages/webhooks.ts';
import { deliveryPage } from './pages/delivery.ts';
import { webhookEndpointsPage } from './pages/webhook-endpoints.ts';
import { webhookEndpointPage } from './pages/webhook-endpoint.ts';
import { logsPage } from './pages/logs.ts';
import { usagePage } from './pages/usage.ts';

const ROUTES: Route[] = [
  {
    path: '/',
    title: 'Organizations',
    page: async ({ session, navigate }) => {
      const first = session.organizations[0];
      if (first && session.organizations.length === 1) {
        navigate(`/dashboard/orgs/${first.id}`, { replace: true });
        return [];
      }
      return [
        h('h1', {}, 'Organizations'),
        session.organizations.length === 0
          ? h('p', {}, 'You belong to no organization. Ask an owner for an invitation link.')
          : h(
              'ul',
              { class: 'plain' },
              session.organizations.map((org) => h('li', {}, link(`/dashboard/orgs/${org.id}`, org.name), ` (${org.role})`)),
            ),
      ];
    },
  },
  { path: '/orgs/:orgId', title: 'Organization', page: organizationPage },
  { path: '/orgs/:orgId/audit', title: 'Audit log', page: auditPage },
  { path: '/projects/:projectId', title: 'Project', page: projectPage },
  { path: '/environments/:envId', title: 'Environment', page: environmentPage },
  { path: '/environments/:envId/channels', title: 'Messages', page: channelsPage },
  { path: '/environments/:envId/channels/:channelId', title: 'Channel', page: channelPage },
  { path: '/environments/:envId/channels/:channelId/messages/:messageId', title: 'Message', page: messagePage },
  { path: '/environments/:envId/bans', title: 'Bans', page: bansPage },
  { path: '/environments/:envId/webhooks', title: 'Webhooks', page: webhooksPage },
  { path: '/environments/:envId/webhooks/deliveries/:deliveryId', title: 'Delivery', page: deliveryPage },
  { path: '/environments/:envId/webhooks/endpoints', title: 'Webhook endpoints', page: webhookEndpointsPage },
  { path: '/environments/:envId/webhooks/endpoints/:endpointId', title: 'Webhook endpoint', page: webhookEndpointPage },
  { path: '/environments/:envId/logs', title: 'Live log', page: logsPage },
  { path: '/environments/:envId/usage', title: 'Usage', page: usagePage },
];

const header = document.getElementById('top')!;
const main = document.getElementById('main')!;
let session: Session | undefined;
let rendering = 0;
let leaving: (() => void)[] = [];

/** Ends what the view on screen left running (live sockets, timers). */
function leaveView(): void {
  const cleanups = leaving;
  leaving = [];
  for (const cleanup of cleanups) {
    try {
      cleanup();
    } catch {
      // a view's cleanup must not stop the next view
    }
  }
}

function navigate(path: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, '', path);
  else history.pushState(null, '', path);
  void render(true);
}

function drawHeader(): void {
  if (!session) {
    replace(header, h('span', { class: 'brand' }, 'Dashboard'));
    return;
  }
  const errors = errorRegion();
  const orgs = session.organizations;
  replace(
    header,
    h('a', { href: '/dashboard', 'data-link': true, class: 'brand' }, 'Dashboard'),
    h(
      'nav',
      { 'aria-label': 'Organizations' },
      orgs.map((org) => link(`/dashboard/orgs/${org.id}`, org.name)),
    ),
    h('span', { class: 'muted', 'data-testid': 'signed-in-as' }, session.user.email),
    actionButton('Sign out', { class: 'secondary' }, errors, async () => {
      await api.signOut();
      session = undefined;
      setSession(undefined);
      history.pushState(null, '', '/dashboard');
      showSignIn('You are signed out.');
    }),
    errors,
  );
}

function showSignIn(notice?: string): void {
  leaveView();
  session = undefined;
  drawHeader();
  document.title = 'Sign in · Dashboard';
  replace(
    main,
    signInPage((fresh) => {
      signedIn(fresh);
      void render(true);
    }, notice),
  );
  main.querySelector('input')?.focus();
}

function signedIn(fresh: Session): void {
  session = fresh;
  setSession(fresh);
  drawHeader();
}

/** Draws the view of the current URL; `focus` moves focus to it (after a navigation). */
async function render(focus = false): Promise<void> {
  const turn = ++rendering;
  leaveView();
  if (location.pathname.replace(/\/+$/, '') === '/dashboard/accept-invitation') {
    drawHeader();
    document.title = 'Accept an invitation · Dashboard';
    const token = decodeURIComponent(location.hash.slice(1));
    const view = await acceptInvitationPage(token, (fresh) => {
      signedIn(fresh);
      const org = fresh.organizations[0];
      navigate(org ? `/dashboard/orgs/${org.id}` : '/dashboard', { replace: true });
    });
    if (turn === rendering) replace(main, view);
    return;
  }
  if (location.pathname.replace(/\/+$/, '') === '/dashboard/reset-password') {
    drawHeader();
    document.title = 'Reset your password · Dashboard';
    replace(
      main,
      resetPasswordPage(() => {
        // every session of the account has ended, this browser's too
        session = undefined;
        setSession(undefined);
        history.replaceState(null, '', '/dashboard');
        showSignIn('Your new password is set: sign in with it.');
      }),
    );
    if (focus) main.querySelector('input')?.focus();
    return;
  }
  if (!session) {
    showSignIn();
    return;
  }
  const found = match(ROUTES, location.pathname);
  if (!found) {
    replace(main, h('h1', {}, 'Not found'), h('p', {}, 'No page here. ', link('/dashboard', 'Back to the dashboard')));
    return;
  }
  const context: PageContext = {
    params: found.params,
    session,
    navigate,
    refresh: () => void render(),
    onLeave: (cleanup) => {
      // a view superseded while it was loading is left at once
      if (turn === rendering) leaving.push(cleanup);
      else cleanup();
    },
  };
  try {
    const nodes = await found.route.page(context);
    if (turn !== rendering || !session) return;
    document.title = `${found.route.title} · Dashboard`;
    const list = Array.isArray(nodes) ? nodes : [nodes];
    if (list.length > 0) replace(main, ...list);
    if (focus) main.focus();
  } catch (failure) {
    if (turn !== rendering || !session) return;
    replace(main, h('h1', {}, 'Something went wrong'), h('p', { class: 'error', role: 'alert' }, messageOf(failure)));
  }
}

// links inside the app change the view without loading the page again
document.addEventListener('click', (event) => {
  const anchor = (event.target as Element | null)?.closest?.('a[data-link]') as HTMLAnchorElement | null;
  if (!anchor || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  navigate(anchor.pathname);
});
window.addEventListener('popstate', () => void render());

// any 401 (a session that expired or was ended elsewhere): back to the sign-in form
onSignedOut(() => {
  if (session) showSignIn('Your session has ended: sign in again.');
});

async function boot(): Promise<void> {
  // the gateway marks the page when the browser sent no session cookie: then there is none to ask for
  const cookieless = document.querySelector('meta[name="dashboard-session"]')?.getAttribute('content') === 'none';
  if (!cookieless && location.pathname.replace(/\/+$/, '') !== '/dashboard/accept-invitation') {
    try {
      signedIn(await api.session());
    } catch {
      session = undefined;
    }
  }
  await render();
}

void boot();
