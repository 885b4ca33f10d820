/**
 * `npm run build -w @rtm/client` (or `npm run build:sdk` at the root; and `prepack`, so
 * `npm pack` works from a fresh clone): the browser bundle (dist/client.js + .map, esbuild), the
 * type declarations (dist/*.d.ts, tsc, checked to import nothing undeclared) and the LICENSE.
 */
import { rm } from 'node:fs/promises';
import { assertDeclarations, copyLicense, emitDeclarations } from '../../../scripts/package-build.ts';
import { bundleClient, CLIENT_ROOT, DIST_DIR } from './bundle.ts';

await rm(DIST_DIR, { recursive: true, force: true });
const { js } = await bundleClient({ write: true });
emitDeclarations(CLIENT_ROOT);
await assertDeclarations(CLIENT_ROOT);
await copyLicense(CLIENT_ROOT);
console.log(`@rtm/client: dist/client.js (${js.byteLength} bytes) and declarations written`);
