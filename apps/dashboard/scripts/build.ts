/**
 * The dashboard's static files, in one place: `npm run build:dashboard` writes them to
 * apps/dashboard/dist/ (set-up runs it for development), and `npm run build` (scripts/build.ts)
 * writes the same files into build/apps/dashboard/dist/. The gateway only serves them
 * (apps/gateway/src/dashboard-ui/dashboard-ui.ts, whose DASHBOARD_FILES lists the same names).
 *
 * index.html is copied as it is; app.css is src/app.css followed by uPlot's stylesheet (the usage
 * charts); src/main.ts and what it imports become one minified ES module, app.js, with a linked
 * source map. Nothing is loaded from elsewhere: uPlot is bundled into app.js.
 */
import { build } from 'esbuild';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

export const DASHBOARD_ROOT = fileURLToPath(new URL('../', import.meta.url));
export const DIST_DIR = fileURLToPath(new URL('../dist/', import.meta.url));
const SRC_DIR = fileURLToPath(new URL('../src/', import.meta.url));
const UPLOT_CSS = createRequire(import.meta.url).resolve('uplot/dist/uPlot.min.css');

/** The file names of a build, as served under /dashboard/assets/ (index.html: every page). */
export const DASHBOARD_FILES = ['index.html', 'app.js', 'app.js.map', 'app.css'] as const;
export type DashboardFile = (typeof DASHBOARD_FILES)[number];

/** Builds the files; `write: true` also writes them to dist/. */
export async function buildDashboard(options: { write: boolean }): Promise<Record<DashboardFile, Uint8Array>> {
  const result = await build({
    entryPoints: [`${SRC_DIR}main.ts`],
    outfile: `${DIST_DIR}app.js`,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    sourcemap: 'linked',
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const js = result.outputFiles.find((file) => file.path.endsWith('.js'));
  const map = result.outputFiles.find((file) => file.path.endsWith('.js.map'));
  if (!js || !map) throw new Error('esbuild produced no bundle');
  const files: Record<DashboardFile, Uint8Array> = {
    'index.html': await readFile(`${SRC_DIR}index.html`),
    'app.js': js.contents,
    'app.js.map': map.contents,
    'app.css': Buffer.concat([await readFile(`${SRC_DIR}app.css`), Buffer.from('\n'), await readFile(UPLOT_CSS)]),
  };
  if (options.write) {
    await mkdir(DIST_DIR, { recursive: true });
    // app.js last: the gateway watches dist/ and set-up compares source times with it
    for (const name of ['index.html', 'app.css', 'app.js.map', 'app.js'] as const) await writeFile(`${DIST_DIR}${name}`, files[name]);
  }
  return files;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await buildDashboard({ write: true });
  console.log(`dashboard built in ${DIST_DIR}`);
}
