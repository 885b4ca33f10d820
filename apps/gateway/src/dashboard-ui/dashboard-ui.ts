/**
 * The dashboard's web UI at `/dashboard` on the control plane: the static files of
 * apps/dashboard (index.html, app.js, app.js.map, app.css), written by `npm run build:dashboard`
 * (which `npm start` and `npm test` run when the build is missing or older than the source) and
 * by `npm run build` (into build/apps/dashboard/dist/ for the compiled gateway).
 *
 * They are read from ../../../dashboard/dist/ beside this module (apps/dashboard/dist/ from the
 * sources, build/apps/dashboard/dist/ from the build) and reloaded when rebuilt
 * (http/built-assets.ts). The gateway never builds them: no bundler runs in production.
 *
 * Routes: `/dashboard/assets/<file>` serves a file (ETag, 304 on If-None-Match,
 * `cache-control: public, max-age=300`); every other path under `/dashboard` (the UI's own
 * views, `/dashboard/accept-invitation#<token>` among them) serves index.html with
 * `cache-control: no-cache` and `vary: cookie`, and the UI draws the view of the URL. Without a
 * session cookie the page says so (`<meta name="dashboard-session" content="none">`) and the UI
 * shows the sign-in form without asking for the session (whose 401 browsers log as an error).
 * Every answer carries a strict Content-Security-Policy: scripts, styles and requests only from
 * this origin (WebSockets also to the realtime edge, for the live views), no inline script or
 * style, no frames, no plugins, no base or form target elsewhere. Without the files, 503
 * `unavailable` naming the missing file and the command that writes it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '@rtm/errors';
import type { Logger } from '@rtm/ops';
import { fileURLToPath } from 'node:url';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { assetOf, createBuiltAssets, type Asset, type BuiltAssets } from '../http/built-assets.ts';
import { sendAsset } from '../http/compression.ts';

/**
 * The UI's Content-Security-Policy: scripts, styles and requests from this origin only, plus
 * WebSockets to the realtime edge (`realtimeOrigin`, for the live views), nothing inline.
 */
export function dashboardCsp(realtimeOrigin: string | null): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self'${realtimeOrigin === null ? '' : ` ${realtimeOrigin}`}`,
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Where the dashboard's build writes its files, relative to this module in both trees. */
const DIST_DIR = fileURLToPath(new URL('../../../dashboard/dist/', import.meta.url));
/** Compiled (build/…/dashboard-ui.js): the build's files, which `npm run build` writes. */
const COMPILED = import.meta.url.endsWith('.js');

/**
 * The files of a build, as served under /dashboard/assets/ (index.html: every page). The same
 * list as apps/dashboard/scripts/build.ts writes (test/dashboard.ui.test.ts compares them): the
 * gateway does not import the build script, which needs esbuild.
 */
export const DASHBOARD_FILES = ['index.html', 'app.js', 'app.js.map', 'app.css'] as const;
export type DashboardFile = (typeof DASHBOARD_FILES)[number];

const TYPES: Record<DashboardFile, string> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.js.map': 'application/json; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

export type DashboardUi = BuiltAssets<AssetName>;

/** index.html for a request without a session cookie: tells the UI to show the sign-in form at once. */
export const SIGNED_OUT_PAGE = 'index.signed-out.html';
type AssetName = DashboardFile | typeof SIGNED_OUT_PAGE;

function assetsOf(files: Record<DashboardFile, Uint8Array>): Map<AssetName, Asset> {
  const assets = new Map<AssetName, Asset>(DASHBOARD_FILES.map((name) => [name, assetOf(files[name], TYPES[name])]));
  // without the cookie the session is known to be absent: asking for it would only log a 401
  const page = Buffer.from(files['index.html']).toString('utf8');
  const marked = page.replace('<meta charset="utf-8">', '<meta charset="utf-8">\n<meta name="dashboard-session" content="none">');
  assets.set(SIGNED_OUT_PAGE, assetOf(Buffer.from(marked), TYPES['index.html']));
  return assets;
}

const SESSION_COOKIE = /(?:^|;\s*)dashboard_session=[^;\s]/;

export function createDashboardUi(log: Logger, options: { dir?: string } = {}): DashboardUi {
  return createBuiltAssets({
    log,
    title: 'the dashboard UI',
    label: 'dashboard ui',
    dir: options.dir ?? DIST_DIR,
    dirName: COMPILED ? 'build/apps/dashboard/dist' : 'apps/dashboard/dist',
    command: COMPILED ? 'npm run build' : 'npm run build:dashboard',
    files: DASHBOARD_FILES,
    assetsOf,
    main: 'app.js',
  });
}

/** Control plane: the UI's routes, started and stopped with the listener. */
export async function dashboardUiRoutes(app: ZodApp, deps: GatewayDeps) {
  const ui = createDashboardUi(deps.log);
  await ui.start();
  app.addHook('onClose', async () => ui.stop());

  const send = (request: FastifyRequest, reply: FastifyReply, name: AssetName) => {
    reply
      .header('content-security-policy', dashboardCsp(deps.realtimeEndpoint.wsOriginFor(request)))
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'no-referrer');
    const asset = ui.asset(name);
    if (!asset) throw new ServiceError('unavailable', ui.problem ?? 'the dashboard UI is not available');
    const page = name === 'index.html' || name === SIGNED_OUT_PAGE;
    reply.header('cache-control', page ? 'no-cache' : 'public, max-age=300');
    if (page) reply.header('vary', 'cookie');
    return sendAsset(request, reply, asset);
  };
  const page = async (request: FastifyRequest, reply: FastifyReply) =>
    send(request, reply, SESSION_COOKIE.test(request.headers.cookie ?? '') ? 'index.html' : SIGNED_OUT_PAGE);

  // not API operations: hidden from OpenAPI, described in docs/dashboard.md
  app.get('/dashboard/assets/:file', { schema: { hide: true } }, async (request, reply) => {
    const { file } = request.params as { file: string };
    if (file === 'index.html' || !(DASHBOARD_FILES as readonly string[]).includes(file)) {
      throw new ServiceError('not_found', `no dashboard asset ${JSON.stringify(file.slice(0, 64))}`);
    }
    return send(request, reply, file as DashboardFile);
  });
  app.get('/dashboard', { schema: { hide: true } }, page);
  app.get('/dashboard/*', { schema: { hide: true } }, page);
}
