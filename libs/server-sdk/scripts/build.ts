/**
 * `npm run build -w @rtm/server` (and `prepack`, so `npm pack` works from a fresh clone):
 * dist/index.js (esbuild; openapi-fetch stays an import, the webhook verifier of @rtm/webhooks is
 * bundled in), the declarations (tsc; src/schema.d.ts copied as is, the types of @rtm/errors and
 * @rtm/webhooks/signature copied under dist/vendor/) and the LICENSE. See scripts/package-build.ts.
 */
import { copyFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  assertDeclarations,
  bundlePackage,
  copyLicense,
  emitDeclarations,
  newBuildDir,
  readManifest,
  replaceDist,
  vendorWorkspaceDeclarations,
} from '../../../scripts/package-build.ts';

const PACKAGE_DIR = fileURLToPath(new URL('../', import.meta.url));

const out = await newBuildDir(PACKAGE_DIR);
try {
  await bundlePackage(PACKAGE_DIR, out, { node: true });
  emitDeclarations(PACKAGE_DIR, out);
  await copyFile(join(PACKAGE_DIR, 'src/schema.d.ts'), join(out, 'schema.d.ts'));
  await vendorWorkspaceDeclarations(out, await readManifest(PACKAGE_DIR));
  await assertDeclarations(PACKAGE_DIR, out);
  await replaceDist(PACKAGE_DIR, out);
} finally {
  await rm(out, { recursive: true, force: true });
}
await copyLicense(PACKAGE_DIR);
console.log('@rtm/server: dist/index.js and declarations written');
