/**
 * `npm run build -w @rtm/react` (and `prepack`, so `npm pack` works from a fresh clone):
 * dist/index.js (esbuild; react and @rtm/client stay imports: they are peer dependencies), the
 * declarations (tsc, checked to import only react and @rtm/client, whose own declarations it
 * reads from libs/client/dist) and the LICENSE.
 * See scripts/package-build.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { assertDeclarations, bundlePackage, copyLicense, emitDeclarations, newBuildDir, replaceDist } from '../../../scripts/package-build.ts';

const PACKAGE_DIR = fileURLToPath(new URL('../', import.meta.url));

// tsc reads @rtm/client's types as a user would, from its dist/ (built first in a fresh clone)
if (!existsSync(`${PACKAGE_DIR}../client/dist/index.d.ts`)) {
  const built = spawnSync('npm', ['run', 'build'], { cwd: `${PACKAGE_DIR}../client`, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('@rtm/react: could not build @rtm/client first');
}
const out = await newBuildDir(PACKAGE_DIR);
try {
  await bundlePackage(PACKAGE_DIR, out, { node: false });
  emitDeclarations(PACKAGE_DIR, out);
  await assertDeclarations(PACKAGE_DIR, out);
  await replaceDist(PACKAGE_DIR, out);
} finally {
  await rm(out, { recursive: true, force: true });
}
await copyLicense(PACKAGE_DIR);
console.log('@rtm/react: dist/index.js and declarations written');
