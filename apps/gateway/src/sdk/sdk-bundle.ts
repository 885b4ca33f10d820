/**
 * `GET /sdk/client.js` and `GET /sdk/client.js.map` on the realtime edge: the browser bundle of
 * @rtm/client, so a page can `import { createClient } from '<realtime edge>/sdk/client.js'`.
 *
 * The files are libs/client/dist/client.js (+ .map) beside this module's tree, written by
 * `npm run build:sdk` (which `npm start` and `npm test` run when the bundle is missing or older
 * than the source) and by `npm run build` (build/libs/client/dist/ for the compiled gateway), and
 * reloaded when rebuilt (http/built-assets.ts). The gateway never bundles: no esbuild at run time.
 * Served with `content-type: text/javascript`, a strong ETag (304 on If-None-Match) and
 * `cache-control: public, max-age=300`: the URL is not versioned, so browsers revalidate within
 * five minutes of a deploy. Without the files, 503 `unavailable` naming the missing one.
 */
import { fileURLToPath } from 'node:url';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '@rtm/errors';
import type { Logger } from '@rtm/ops';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { assetOf, createBuiltAssets, type BuiltAssets } from '../http/built-assets.ts';
import { sendAsset } from '../http/compression.ts';

const DIST_DIR = fileURLToPath(new URL('../../../../libs/client/dist/', import.meta.url));
/** Compiled (build/…/sdk-bundle.js): the build's bundle, which `npm run build` writes. */
const COMPILED = import.meta.url.endsWith('.js');
const BUNDLE = 'client.js';
const FILES = [BUNDLE, `${BUNDLE}.map`] as const;
type BundleFile = (typeof FILES)[number];
const CACHE_CONTROL = 'public, max-age=300';

export type SdkBundle = BuiltAssets<BundleFile>;

export function createSdkBundle(log: Logger, options: { dir?: string } = {}): SdkBundle {
  return createBuiltAssets({
    log,
    title: 'the SDK bundle',
    label: 'sdk bundle',
    dir: options.dir ?? DIST_DIR,
    dirName: COMPILED ? 'build/libs/client/dist' : 'libs/client/dist',
    command: COMPILED ? 'npm run build' : 'npm run build:sdk',
    files: FILES,
    assetsOf: (files) =>
      new Map([
        [BUNDLE, assetOf(files[BUNDLE], 'text/javascript; charset=utf-8')],
        [`${BUNDLE}.map`, assetOf(files[`${BUNDLE}.map`], 'application/json; charset=utf-8')],
      ]),
    main: BUNDLE,
  });
}

/** Realtime edge: the routes, started and stopped with the listener. */
export async function sdkBundleRoutes(app: ZodApp, deps: GatewayDeps) {
  const bundle = createSdkBundle(deps.log);
  await bundle.start();
  app.addHook('onClose', async () => bundle.stop());

  const serve = (name: BundleFile) => async (request: FastifyRequest, reply: FastifyReply) => {
    const asset = bundle.asset(name);
    if (!asset) throw new ServiceError('unavailable', bundle.problem ?? 'the SDK bundle is not available');
    reply.header('cache-control', CACHE_CONTROL).header('x-content-type-options', 'nosniff');
    return sendAsset(request, reply, asset);
  };
  // not API operations: hidden from OpenAPI like the sockets, documented in libs/client/README.md
  app.get('/sdk/client.js', { schema: { hide: true } }, serve(BUNDLE));
  app.get('/sdk/client.js.map', { schema: { hide: true } }, serve(`${BUNDLE}.map`));
}
