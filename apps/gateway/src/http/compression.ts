/**
 * Response compression on both listeners.
 *
 * - Answers made per request (JSON of the API, the error envelope): @fastify/compress, brotli,
 *   gzip or deflate as the request's Accept-Encoding prefers, for bodies of COMPRESS_MIN_BYTES or
 *   more; smaller ones cost more to compress than they save. Brotli at quality 4 (the plugin's
 *   default, a fraction of its CPU at 11 for a few % more bytes).
 * - Never: the event stream (`text/event-stream`, written on the hijacked reply, which no onSend
 *   hook sees, and refused by the type test besides), WebSocket upgrades (no reply body),
 *   requests with a body (request decompression stays off: bodies are JSON as sent), 304s.
 * - Static files and the interface documents (sendAsset): compressed once per file and encoding,
 *   off the event loop (zlib's thread pool), and kept with the file: the hot path sends bytes. Each
 *   encoding is a representation of its own: its own strong ETag (`"<tag>-br"`), so a 304 answers
 *   exactly what the client holds, and `vary: accept-encoding` for caches.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notModified, type Asset } from './built-assets.ts';

/** Bodies smaller than this go as they are. */
export const COMPRESS_MIN_BYTES = 1024;
/** Brotli quality of answers compressed per request (0-11). */
const BROTLI_QUALITY = 4;
/**
 * Brotli quality of files compressed once and kept: higher, since it is paid once per file (and
 * per origin for the interface documents), still well under a second for the 410 KB OpenAPI
 * document (docs/benchmarks.md, "Compression").
 */
const ASSET_BROTLI_QUALITY = 9;

/** Registers compression on a listener: before its routes (the plugin hooks each route as it is added). */
export async function installCompression(app: FastifyInstance): Promise<void> {
  await app.register(fastifyCompress, {
    global: true,
    globalDecompression: false,
    threshold: COMPRESS_MIN_BYTES,
    encodings: ['br', 'gzip', 'deflate'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
  });
}

export type AssetEncoding = 'br' | 'gzip';

/**
 * The encoding to send a compressible file in: brotli, else gzip, as Accept-Encoding allows
 * (a `q=0` refuses one; `*` allows both); undefined: the file as it is.
 */
export function assetEncoding(acceptEncoding: string | string[] | undefined): AssetEncoding | undefined {
  if (acceptEncoding === undefined) return undefined;
  const q = new Map<string, number>();
  for (const part of (Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const weight = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p)).find((m) => m !== null);
    const value = weight ? Number(weight[1]) : 1;
    q.set(name === 'x-gzip' ? 'gzip' : name, Number.isNaN(value) ? 0 : value);
  }
  const allowed = (name: AssetEncoding) => (q.get(name) ?? q.get('*') ?? 0) > 0;
  if (allowed('br')) return 'br';
  if (allowed('gzip')) return 'gzip';
  return undefined;
}

/** Text is worth compressing; images and fonts are compressed already. */
export function compressibleAsset(asset: Pick<Asset, 'body' | 'type'>): boolean {
  return asset.body.length >= COMPRESS_MIN_BYTES && /^text\/|json|javascript|xml|svg/.test(asset.type);
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Each file's compressed forms, made on first request and dropped with the file (a reload makes new ones). */
const encoded = new WeakMap<Asset, Map<AssetEncoding, Promise<Buffer>>>();

export function encodedBody(asset: Asset, encoding: AssetEncoding): Promise<Buffer> {
  let forms = encoded.get(asset);
  if (!forms) encoded.set(asset, (forms = new Map()));
  let body = forms.get(encoding);
  if (!body) {
    body =
      encoding === 'br'
        ? brotli(asset.body, { params: { [constants.BROTLI_PARAM_QUALITY]: ASSET_BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: asset.body.length } })
        : gzipped(asset.body, { level: 9 });
    // a failure is not kept: the next request tries again
    body.catch(() => forms.delete(encoding));
    forms.set(encoding, body);
  }
  return body;
}

/** The ETag of one encoding of a file: a representation of its own. */
export function encodedEtag(etag: string, encoding: AssetEncoding | undefined): string {
  return encoding === undefined ? etag : etag.replace(/"$/, `-${encoding}"`);
}

/** `vary` with `value` added (once). */
function addVary(reply: FastifyReply, value: string): void {
  const current = reply.getHeader('vary');
  const names =
    current === undefined
      ? []
      : String(current)
          .split(',')
          .map((name) => name.trim());
  if (!names.some((name) => name.toLowerCase() === value)) reply.header('vary', [...names, value].filter(Boolean).join(', '));
}

/**
 * Sends a file: its ETag (per encoding), 304 when If-None-Match names it, else the bytes, compressed
 * when the file is worth it and the client accepts brotli or gzip. Cache-Control and the other
 * headers are the caller's.
 */
export async function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: Asset): Promise<FastifyReply> {
  const compressible = compressibleAsset(asset);
  const encoding = compressible ? assetEncoding(request.headers['accept-encoding']) : undefined;
  if (compressible) addVary(reply, 'accept-encoding');
  const etag = encodedEtag(asset.etag, encoding);
  reply.header('etag', etag);
  if (notModified(request.headers['if-none-match'], etag)) return reply.code(304).send();
  reply.type(asset.type);
  if (encoding === undefined) return reply.send(asset.body);
  return reply.header('content-encoding', encoding).send(await encodedBody(asset, encoding));
}
