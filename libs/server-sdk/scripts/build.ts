/**
 * `npm run build -w @rtm/server` (and `prepack`, so `npm pack` works from a fresh clone):
 * dist/index.js (esbuild; openapi-fetch stays an import, the webhook verifier of @rtm/webhooks is
 * bundled in), the declarations (tsc; src/schema.d.ts copied as is, the types of @rtm/errors and
 * @rtm/webhooks/signature copied under dist/vendor/) and the LICENSE. See scripts/package-build.ts.
 */
import { copyFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { assertDeclarations, bundlePackage, copyLicense, emitDeclarations, readManifest, vendorWorkspaceDeclarations } from '../../../scripts/package-build.ts';

const PACKAGE_DIR = fileURLToPath(new URL('../', import.meta.url));

await rm(`${PACKAGE_DIR}dist`, { recursive: true, force: true });
await bundlePackage(PACKAGE_DIR, { node: true });
emitDeclarations(PACKAGE_DIR);
await copyFile(`${PACKAGE_DIR}src/schema.d.ts`, `${PACKAGE_DIR}dist/schema.d.ts`);
await vendorWorkspaceDeclarations(PACKAGE_DIR, await readManifest(PACKAGE_DIR));
await assertDeclarations(PACKAGE_DIR);
await copyLicense(PACKAGE_DIR);
console.log('@rtm/server: dist/index.js and declarations written');
