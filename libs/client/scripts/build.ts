/**
 * `npm run build -w @rtm/client` (or `npm run build:sdk` at the root): the browser bundle
 * (dist/client.js + .map, esbuild) and the type declarations (dist/*.d.ts, tsc).
 */
import { spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { bundleClient, CLIENT_ROOT, DIST_DIR } from './bundle.ts';

await rm(DIST_DIR, { recursive: true, force: true });
const { js } = await bundleClient({ write: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const declarations = spawnSync(process.execPath, [tsc, '-p', `${CLIENT_ROOT}tsconfig.build.json`], { stdio: 'inherit' });
if (declarations.status !== 0) {
  console.error('@rtm/client: tsc could not write the declarations');
  process.exit(declarations.status ?? 1);
}
console.log(`@rtm/client: dist/client.js (${js.byteLength} bytes) and declarations written`);
