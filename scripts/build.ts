/**
 * `npm run build [-- --out DIR] [--no-check]`: the production build, plain JavaScript that `node` runs with no
 * loader (no tsx, no esbuild at run time). DIR (default `build/`) mirrors the repository:
 *
 *   build/apps/<gateway|channel-node|dispatcher>/src/main.js    the processes
 *   build/scripts/migrate.js, build/scripts/admin.js             the operator's commands
 *   build/libs/<lib>/src/…                                       every lib (tsc, tsconfig.build.json)
 *   build/libs/db/migrations/, build/apps/gateway/src/docs-ui/page/   files read at run time
 *   build/libs/client/dist/client.js(.map)                       the browser SDK (/sdk/client.js)
 *   build/apps/dashboard/dist/                                   the dashboard's web UI (/dashboard)
 *   build/node_modules/@rtm/<name> -> ../../<package dir>        the workspaces, compiled
 *
 * Each compiled workspace gets a package.json of its own whose `exports` name the compiled files
 * (./src/index.ts -> ./src/index.js), and build/node_modules/@rtm/ links to them: Node finds
 * `@rtm/db` there before the repository's node_modules (whose links name the TypeScript sources,
 * which development and the tests keep running through tsx). Third-party packages resolve from
 * the node_modules above DIR, so DIR must be inside the checkout (or, in the image, beside the
 * production node_modules). The gateway serves the bundles by path relative to its own module
 * (../../../dashboard/dist/ from apps/gateway/src/dashboard-ui/), so the same code finds
 * apps/dashboard/dist in the checkout and build/apps/dashboard/dist in the build.
 *
 * DIR is replaced as a whole; a directory that is not a build (no BUILD_MARK) is never removed.
 * tsc type-checks as it compiles; `--no-check` only emits (tsc --noCheck, a third of the time),
 * for a run that has just type-checked the same sources (`npm test` does, before its build test).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildDashboard } from '../apps/dashboard/scripts/build.ts';
import { bundleClient } from '../libs/client/scripts/bundle.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Written into every build: proof that a directory may be replaced by the next one. */
export const BUILD_MARK = '.rtm-build';
/** The workspaces compiled (apps/dashboard is browser code: it is bundled, not compiled). */
const SERVER_APPS = ['gateway', 'channel-node', 'dispatcher'];

interface Manifest {
  name: string;
  main?: string;
  exports?: Record<string, string | Record<string, string>>;
}

/** ./src/x.ts -> ./src/x.js; the publishable packages (exports of dist/) -> their compiled source. */
function compiledExports(manifest: Manifest): Record<string, string> | undefined {
  if (!manifest.exports) return undefined;
  const out: Record<string, string> = {};
  for (const [key, target] of Object.entries(manifest.exports)) {
    if (key === './package.json') continue;
    if (typeof target === 'string') out[key] = target.replace(/\.ts$/, '.js');
    else if (key === '.') out[key] = './src/index.js';
  }
  return out;
}

async function workspaceDirs(): Promise<string[]> {
  const libs = (await readdir(join(ROOT, 'libs'))).filter((name) => existsSync(join(ROOT, 'libs', name, 'src')));
  return [...SERVER_APPS.map((name) => `apps/${name}`), ...libs.map((name) => `libs/${name}`)];
}

/** Files beside the sources that the code reads at run time (HTML, CSS, SQL, …). */
async function copyAssets(out: string, dirs: string[]): Promise<void> {
  for (const dir of dirs) {
    await cp(join(ROOT, dir, 'src'), join(out, dir, 'src'), { recursive: true, filter: (source) => !/\.tsx?$/.test(source) });
  }
  await cp(join(ROOT, 'libs/db/migrations'), join(out, 'libs/db/migrations'), { recursive: true });
}

/** Each workspace's package.json, pointing at its compiled files, and build/node_modules/@rtm/*. */
async function linkWorkspaces(out: string, dirs: string[]): Promise<void> {
  for (const dir of dirs) {
    const manifest = JSON.parse(await readFile(join(ROOT, dir, 'package.json'), 'utf8')) as Manifest;
    const compiled: Record<string, unknown> = { name: manifest.name, private: true, type: 'module' };
    if (manifest.main) compiled.main = manifest.main.replace(/\.ts$/, '.js');
    const exports = compiledExports(manifest);
    if (exports) compiled.exports = exports;
    await mkdir(join(out, dir), { recursive: true });
    await writeFile(join(out, dir, 'package.json'), `${JSON.stringify(compiled, null, 2)}\n`);
    const link = join(out, 'node_modules', manifest.name);
    await mkdir(dirname(link), { recursive: true });
    await symlink(relative(dirname(link), join(out, dir)), link, 'dir');
  }
}

/** The browser SDK and the dashboard, where the compiled gateway looks for them. */
async function writeBundles(out: string): Promise<void> {
  const sdk = await bundleClient({ write: false });
  await mkdir(join(out, 'libs/client/dist'), { recursive: true });
  await writeFile(join(out, 'libs/client/dist/client.js.map'), sdk.map);
  await writeFile(join(out, 'libs/client/dist/client.js'), sdk.js);
  const ui = await buildDashboard({ write: false });
  await mkdir(join(out, 'apps/dashboard/dist'), { recursive: true });
  // app.js last, as `npm run build:dashboard` writes them
  for (const name of ['index.html', 'app.css', 'app.js.map', 'app.js'] as const) await writeFile(join(out, 'apps/dashboard/dist', name), ui[name]);
}

function compile(out: string, check: boolean): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const args = [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', out, ...(check ? [] : ['--noCheck'])];
  const run = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`tsc failed (exit ${run.status ?? run.signal})`);
}

export async function buildAll(out: string, options: { check: boolean } = { check: true }): Promise<void> {
  if (existsSync(out)) {
    const entries = await readdir(out);
    if (entries.length > 0 && !entries.includes(BUILD_MARK)) throw new Error(`${out} exists and is not a build (no ${BUILD_MARK}): not replacing it`);
    await rm(out, { recursive: true, force: true });
  }
  await mkdir(out, { recursive: true });
  const dirs = await workspaceDirs();
  compile(out, options.check);
  await copyAssets(out, dirs);
  await linkWorkspaces(out, dirs);
  await writeBundles(out);
  // build/scripts/*.js and every workspace are ES modules wherever DIR is
  await writeFile(join(out, 'package.json'), `${JSON.stringify({ name: 'rtm-build', private: true, type: 'module' }, null, 2)}\n`);
  await writeFile(join(out, BUILD_MARK), `${new Date().toISOString()}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { out: { type: 'string', default: 'build' }, 'no-check': { type: 'boolean', default: false } } });
  const out = resolve(ROOT, values.out!);
  const started = Date.now();
  await buildAll(out, { check: !values['no-check'] });
  console.log(
    `built ${relative(ROOT, out) || '.'} in ${((Date.now() - started) / 1000).toFixed(1)} s: node ${relative(process.cwd(), join(out, 'apps/gateway/src/main.js'))}`,
  );
}
