/**
 * The interface documents and their rendered reference, on both hosts (control plane and realtime
 * edge), public like the documents themselves: no credential, no rate limit (limits only count
 * authenticated requests), hidden from OpenAPI.
 *
 * - `GET /openapi.json`: the OpenAPI document of both hosts, its servers at CONTROL_PUBLIC_URL and
 *   REALTIME_PUBLIC_URL, else where the request's client reached this gateway (http/public-endpoint.ts,
 *   which honours TRUST_PROXY); docs/openapi.json is the same document with the default ports on
 *   localhost.
 * - `GET /asyncapi.json`: the AsyncAPI document of the socket `/v1/connect` (docs/asyncapi.yaml), its
 *   server the realtime edge as above.
 *   Both documents are serialised once per pair of origins (a few kept), with an ETag (304 on
 *   If-None-Match) and `cache-control: no-cache`, and compressed once per encoding (http/compression.ts).
 * - `GET /docs` (and `/docs/`): the API reference, Swagger UI (swagger-ui-dist from node_modules)
 *   drawing `/openapi.json`. `GET /docs/assets/<file>`: its files (ETag, 304 on If-None-Match,
 *   `cache-control: public, max-age=300`, brotli or gzip when the client accepts it). Every answer under
 *   /docs carries a strict Content-Security-Policy: scripts, styles, images, fonts and requests
 *   from this origin only, nothing inline, no frames, no forms. An unknown asset is 404 `not_found`;
 *   swagger-ui-dist missing is 503 `unavailable`.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '@rtm/errors';
import type { ZodApp, Host } from '../http/public-app.ts';
import type { GatewayDeps } from '../deps.ts';
import { assetOf, type Asset } from '../http/built-assets.ts';
import { sendAsset } from '../http/compression.ts';
import { ASYNCAPI_PATH, DEFAULT_ORIGINS, asyncApiServers, buildAsyncApiDocument, withServers, type ServerOrigins } from '@rtm/api-docs';

/** The reference page's Content-Security-Policy: everything from this origin, nothing inline. */
export const REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE_DIR = fileURLToPath(new URL('./page/', import.meta.url));

/** The files under /docs/assets/: where each is read from, and its type. */
const ASSETS: Record<string, { from: 'page' | 'swagger-ui'; type: string }> = {
  'reference.js': { from: 'page', type: 'text/javascript; charset=utf-8' },
  'reference.css': { from: 'page', type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { from: 'swagger-ui', type: 'text/javascript; charset=utf-8' },
  'swagger-ui-bundle.js.map': { from: 'swagger-ui', type: 'application/json; charset=utf-8' },
  'swagger-ui.css': { from: 'swagger-ui', type: 'text/css; charset=utf-8' },
  'swagger-ui.css.map': { from: 'swagger-ui', type: 'application/json; charset=utf-8' },
  'favicon-32x32.png': { from: 'swagger-ui', type: 'image/png' },
};
const PAGE = 'index.html';

/** Documents kept per pair of origins (each a few hundred KB, and its compressed forms). */
const DOCUMENTS_KEPT = 8;

/** The page and its files, read once, on the first request for any of them. */
async function loadAssets(): Promise<Map<string, Asset>> {
  try {
    const swaggerUiDir = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    const files: [string, string, string][] = [
      [PAGE, join(PAGE_DIR, PAGE), 'text/html; charset=utf-8'],
      ...Object.entries(ASSETS).map(([name, { from, type }]): [string, string, string] => [name, join(from === 'page' ? PAGE_DIR : swaggerUiDir, name), type]),
    ];
    const entries = await Promise.all(files.map(async ([name, path, type]): Promise<[string, Asset]> => [name, assetOf(await readFile(path), type)]));
    return new Map(entries);
  } catch (error) {
    throw new ServiceError('unavailable', `the API reference is not available (is swagger-ui-dist installed? run npm ci): ${(error as Error).message}`);
  }
}

/** Both hosts: the documents and the reference. `openapi`: the merged document (servers at the defaults). */
export async function referenceRoutes(app: ZodApp, host: Host, deps: GatewayDeps, openapi: () => Record<string, unknown>) {
  const originsFor = (request: FastifyRequest): ServerOrigins => ({
    control: deps.controlEndpoint.httpOriginFor(request, host === 'control') ?? DEFAULT_ORIGINS.control,
    realtime: deps.realtimeEndpoint.httpOriginFor(request, host === 'realtime') ?? DEFAULT_ORIGINS.realtime,
  });
  let asyncapi: Record<string, unknown> | undefined;
  let assets: Promise<Map<string, Asset>> | undefined;
  // the documents as served, by origins: the origins come from the request (its Host header when
  // no public URL is set), so only a few are kept, the oldest dropped first
  const documents = new Map<string, Asset>();
  const documentAsset = (key: string, make: () => unknown): Asset => {
    let asset = documents.get(key);
    if (!asset) {
      if (documents.size >= DOCUMENTS_KEPT) documents.delete(documents.keys().next().value!);
      documents.set(key, (asset = assetOf(Buffer.from(JSON.stringify(make())), 'application/json; charset=utf-8')));
    }
    return asset;
  };
  const sendDocument = (request: FastifyRequest, reply: FastifyReply, name: string, make: (origins: ServerOrigins) => unknown) => {
    const origins = originsFor(request);
    reply.header('cache-control', 'no-cache');
    return sendAsset(
      request,
      reply,
      documentAsset(`${name} ${origins.control} ${origins.realtime}`, () => make(origins)),
    );
  };

  const send = async (request: FastifyRequest, reply: FastifyReply, name: string) => {
    reply
      .header('content-security-policy', REFERENCE_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'no-referrer');
    // a failed read is tried again by the next request
    const loaded = (assets ??= loadAssets().catch((error: unknown) => {
      assets = undefined;
      throw error;
    }));
    const asset = (await loaded).get(name)!;
    reply.header('cache-control', name === PAGE ? 'no-cache' : 'public, max-age=300');
    return sendAsset(request, reply, asset);
  };

  // not API operations: hidden from OpenAPI like the sockets, described in docs/interface.md
  const hidden = { schema: { hide: true } };
  app.get('/openapi.json', hidden, async (request, reply) => sendDocument(request, reply, 'openapi', (origins) => withServers(openapi(), origins)));
  app.get(ASYNCAPI_PATH, hidden, async (request, reply) =>
    sendDocument(request, reply, 'asyncapi', (origins) => {
      asyncapi ??= buildAsyncApiDocument();
      return { ...asyncapi, servers: asyncApiServers(origins.realtime) };
    }),
  );
  app.get('/docs', hidden, async (request, reply) => send(request, reply, PAGE));
  app.get('/docs/', hidden, async (request, reply) => send(request, reply, PAGE));
  app.get('/docs/assets/:file', hidden, async (request, reply) => {
    const { file } = request.params as { file: string };
    if (!Object.hasOwn(ASSETS, file)) throw new ServiceError('not_found', `no API reference asset ${JSON.stringify(file.slice(0, 64))}`);
    return send(request, reply, file);
  });
}
