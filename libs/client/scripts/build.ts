/**
 * `npm run build -w @rtm/client` (or `npm run build:sdk` at the root; and `prepack`, so
 * `npm pack` works from a fresh clone): the browser bundle (dist/client.js + .map, esbuild), the
 * type declarations (dist/*.d.ts, tsc, checked to import nothing undeclared) and the LICENSE.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { assertDeclarations, copyLicense, emitDeclarations, newBuildDir, replaceDist } from '../../../scripts/package-build.ts';
import { BUNDLE_FILE, bundleClient, CLIENT_ROOT } from './bundle.ts';

// written beside dist/ and moved in file by file: the gateway serving dist/client.js (and a
// concurrent build) never sees it missing
const out = await newBuildDir(CLIENT_ROOT);
let js: Uint8Array;
try {
  const bundle = await bundleClient({ write: false });
  js = bundle.js;
  await writeFile(join(out, BUNDLE_FILE), bundle.js);
  await writeFile(join(out, `${BUNDLE_FILE}.map`), bundle.map);
  emitDeclarations(CLIENT_ROOT, out);
  await assertDeclarations(CLIENT_ROOT, out);
  await replaceDist(CLIENT_ROOT, out);
} finally {
  await rm(out, { recursive: true, force: true });
}
await copyLicense(CLIENT_ROOT);
console.log(`@rtm/client: dist/client.js (${js.byteLength} bytes) and declarations written`);
