/**
 * The browser bundle of @rtm/client, in one place: `npm run build:sdk` writes it to dist/, and the
 * root's `npm run build` (scripts/build.ts) writes it into build/libs/client/dist/. The gateway
 * only serves it (apps/gateway/src/sdk/sdk-bundle.ts), never builds it.
 * One ES module, minified, with a linked source map; no dependencies (the SDK has none in browsers).
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

export const CLIENT_ROOT = fileURLToPath(new URL('../', import.meta.url));
export const DIST_DIR = fileURLToPath(new URL('../dist/', import.meta.url));
export const BUNDLE_FILE = 'client.js';

export interface BundleFiles {
  js: Uint8Array;
  map: Uint8Array;
}

/** Builds dist/client.js and dist/client.js.map; `write: false` keeps them in memory. */
export async function bundleClient(options: { write: boolean }): Promise<BundleFiles> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
    outfile: `${DIST_DIR}${BUNDLE_FILE}`,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    sourcemap: 'linked',
    legalComments: 'none',
    write: options.write,
    logLevel: 'silent',
  });
  if (options.write) {
    const { readFile } = await import('node:fs/promises');
    return { js: await readFile(`${DIST_DIR}${BUNDLE_FILE}`), map: await readFile(`${DIST_DIR}${BUNDLE_FILE}.map`) };
  }
  const js = result.outputFiles!.find((file) => file.path.endsWith('.js'));
  const map = result.outputFiles!.find((file) => file.path.endsWith('.js.map'));
  if (!js || !map) throw new Error('esbuild produced no bundle');
  return { js: js.contents, map: map.contents };
}
