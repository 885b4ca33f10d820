/**
 * `GET /sdk/client.js` and `GET /sdk/client.js.map` on the realtime edge: the browser bundle of
 * @rtm/client, so a page can `import { createClient } from '<realtime edge>/sdk/client.js'`.
 *
 * start(): reads libs/client/dist/client.js (+ .map), written by `npm run build:sdk` (which
 *          `npm start` and `npm test` run when the bundle is missing or older than the source).
 *          When it is missing the same bundle is built in memory with esbuild (nothing is written,
 *          so a read-only checkout and many gateways starting at once are fine). The directory is
 *          watched, so a rebuild while the gateway runs is served at once.
 * stop():  stops watching.
 * Served with `content-type: text/javascript`, a strong ETag (304 on If-None-Match) and
 * `cache-control: public, max-age=300`: the URL is not versioned, so browsers revalidate within
 * five minutes of a deploy. If neither the file nor a build is available, 503 `unavailable`.
 */
import { createHash } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '@rtm/errors';
import type { Logger } from '@rtm/ops';
import type { ZodApp } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';

const DIST_DIR = fileURLToPath(new URL('../../../../libs/client/dist/', import.meta.url));
const BUNDLE = 'client.js';
const CACHE_CONTROL = 'public, max-age=300';

/** A static file served with a strong ETag (shared with the dashboard UI's files). */
export interface Asset {
  body: Buffer;
  etag: string;
  type: string;
}

export interface SdkBundle {
  start(): Promise<void>;
  stop(): void;
  /** The asset of `name` ('client.js' or 'client.js.map'), or undefined while none is available. */
  asset(name: string): Asset | undefined;
  /** Why there is no bundle, when there is none. */
  readonly problem: string | undefined;
}

export function assetOf(body: Uint8Array, type: string): Asset {
  const buffer = Buffer.from(body);
  return { body: buffer, etag: `"${createHash('sha256').update(buffer).digest('base64url').slice(0, 32)}"`, type };
}

/** Builds the bundle in memory (esbuild, the options of `npm run build:sdk`). */
async function buildInMemory(): Promise<{ js: Uint8Array; map: Uint8Array }> {
  const { bundleClient } = await import('../../../../libs/client/scripts/bundle.ts');
  return bundleClient({ write: false });
}

export function createSdkBundle(
  log: Logger,
  options: { dir?: string; build?: () => Promise<{ js: Uint8Array; map: Uint8Array }> } = {},
): SdkBundle {
  const dir = options.dir ?? DIST_DIR;
  const build = options.build ?? buildInMemory;
  let assets: Map<string, Asset> | undefined;
  let problem: string | undefined;
  let watcher: FSWatcher | undefined;
  let reloadTimer: ReturnType<typeof setTimeout> | undefined;

  const readDist = async (): Promise<Map<string, Asset> | undefined> => {
    try {
      const [js, map] = await Promise.all([readFile(dir + BUNDLE), readFile(`${dir}${BUNDLE}.map`)]);
      return new Map([
        [BUNDLE, assetOf(js, 'text/javascript; charset=utf-8')],
        [`${BUNDLE}.map`, assetOf(map, 'application/json; charset=utf-8')],
      ]);
    } catch {
      return undefined;
    }
  };

  const buildAssets = async (): Promise<Map<string, Asset>> => {
    const { js, map } = await build();
    return new Map([
      [BUNDLE, assetOf(js, 'text/javascript; charset=utf-8')],
      [`${BUNDLE}.map`, assetOf(map, 'application/json; charset=utf-8')],
    ]);
  };

  const watchDist = () => {
    try {
      watcher = watch(dir, () => {
        // a build writes two files: reload once it is done
        clearTimeout(reloadTimer);
        reloadTimer = setTimeout(async () => {
          const fresh = await readDist();
          if (fresh) {
            assets = fresh;
            problem = undefined;
            log.info({ etag: fresh.get(BUNDLE)!.etag }, 'sdk bundle reloaded');
          }
        }, 200);
      });
      watcher.on('error', () => watcher?.close());
      watcher.unref();
    } catch {
      // no dist directory: nothing to watch
    }
  };

  return {
    get problem() {
      return problem;
    },
    async start() {
      assets = await readDist();
      if (!assets) {
        try {
          assets = await buildAssets();
          log.info('sdk bundle: libs/client/dist has none (run npm run build:sdk); built in memory');
        } catch (error) {
          problem = `the SDK bundle is not built and could not be built here (${error instanceof Error ? error.message.split('\n')[0] : String(error)}): run npm run build:sdk`;
          log.error({ err: error }, 'sdk bundle unavailable');
        }
      }
      watchDist();
    },
    stop() {
      clearTimeout(reloadTimer);
      watcher?.close();
      watcher = undefined;
    },
    asset(name) {
      return assets?.get(name);
    },
  };
}

/** True when `If-None-Match` names the asset's ETag (or is `*`). */
export function notModified(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const tags = (Array.isArray(header) ? header.join(',') : header).split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  return tags.includes(etag) || tags.includes('*');
}

/** Realtime edge: the routes, started and stopped with the listener. */
export async function sdkBundleRoutes(app: ZodApp, deps: GatewayDeps) {
  const bundle = createSdkBundle(deps.log);
  await bundle.start();
  app.addHook('onClose', async () => bundle.stop());

  const serve = (name: string) => async (request: FastifyRequest, reply: FastifyReply) => {
    const asset = bundle.asset(name);
    if (!asset) throw new ServiceError('unavailable', bundle.problem ?? 'the SDK bundle is not available');
    reply.header('etag', asset.etag).header('cache-control', CACHE_CONTROL).header('x-content-type-options', 'nosniff');
    if (notModified(request.headers['if-none-match'], asset.etag)) return reply.code(304).send();
    return reply.type(asset.type).send(asset.body);
  };
  // not API operations: hidden from OpenAPI like the sockets, documented in libs/client/README.md
  app.get('/sdk/client.js', { schema: { hide: true } }, serve(BUNDLE));
  app.get('/sdk/client.js.map', { schema: { hide: true } }, serve(`${BUNDLE}.map`));
}
