import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@rtm/ops';
import { runSetup } from './helpers/setup-script.ts';
import { createDashboardUi } from '../apps/gateway/src/dashboard-ui/dashboard-ui.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const DIST = join(ROOT, 'apps/dashboard/dist');
const log = createLogger({ level: 'silent', name: 'test' });

/** Runs a function of scripts/setup.sh (dry run unless `real`). */
const setup = (fn: string, real = false) => runSetup(fn, { real });

test('dashboard ui - setup builds apps/dashboard/dist when it is missing or older than the source', async () => {
  const built = setup('setup_dashboard_ui', true);
  assert.equal(built.code, 0, built.output);
  for (const file of ['index.html', 'app.js', 'app.js.map', 'app.css']) await stat(join(DIST, file));
  const fresh = setup('setup_dashboard_ui && echo DONE');
  assert.equal(fresh.output.trim(), 'DONE');
  const app = join(DIST, 'app.js');
  const { atime, mtime } = await stat(app);
  try {
    await utimes(app, new Date(0), new Date(0));
    const stale = setup('setup_dashboard_ui');
    assert.match(stale.output, /building the dashboard UI/);
    assert.match(stale.output, /dry run: npm run --silent build:dashboard/);
  } finally {
    await utimes(app, atime, mtime);
  }
  const js = await readFile(app, 'utf8');
  assert.ok(!/innerHTML|outerHTML|insertAdjacentHTML|document\.write/.test(js), 'no markup from strings in the UI');
});

test('dashboard ui - without a build the gateway builds the files in memory; without either, a reason for the 503', async (t) => {
  assert.equal(setup('setup_dashboard_ui', true).code, 0);
  const empty = await mkdtemp(join(tmpdir(), 'rtm-dashboard-empty-'));
  t.after(() => rm(empty, { recursive: true, force: true }));
  const inMemory = createDashboardUi(log, { dir: `${empty}/` });
  await inMemory.start();
  t.after(() => inMemory.stop());
  for (const name of ['index.html', 'app.js', 'app.js.map', 'app.css'] as const) {
    const asset = inMemory.asset(name);
    assert.ok(asset, inMemory.problem);
    assert.equal(asset.body.toString(), await readFile(join(DIST, name), 'utf8'), `${name}: the same as npm run build:dashboard`);
  }

  const broken = createDashboardUi(log, { dir: `${empty}/`, build: async () => Promise.reject(new Error('esbuild is not installed')) });
  await broken.start();
  t.after(() => broken.stop());
  assert.equal(broken.asset('index.html'), undefined);
  assert.match(broken.problem!, /esbuild is not installed.*npm run build:dashboard/);
});
