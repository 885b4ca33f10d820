import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '@rtm/ops';
import { runSetup } from './helpers/setup-script.ts';
import { createDashboardUi, DASHBOARD_FILES } from '../apps/gateway/src/dashboard-ui/dashboard-ui.ts';
import { buildDashboard } from '../apps/dashboard/scripts/build.ts';

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

test('dashboard ui - the gateway only serves the build: a missing file is a 503 reason naming it', async (t) => {
  assert.equal(setup('setup_dashboard_ui', true).code, 0);
  // the gateway's list of files is the one the build writes (it does not import the build script)
  const built = await buildDashboard({ write: false });
  assert.deepEqual(Object.keys(built).sort(), [...DASHBOARD_FILES].sort());

  const empty = await mkdtemp(join(tmpdir(), 'rtm-dashboard-empty-'));
  t.after(() => rm(empty, { recursive: true, force: true }));
  const none = createDashboardUi(log, { dir: `${empty}/` });
  await none.start();
  t.after(() => none.stop());
  assert.equal(none.asset('index.html'), undefined, 'nothing is built in memory');
  assert.match(none.problem!, /apps\/dashboard\/dist\/index\.html is missing.*npm run build:dashboard/);

  // half a build (app.js missing) is not served either
  await writeFile(join(empty, 'index.html'), await readFile(join(DIST, 'index.html')));
  const half = createDashboardUi(log, { dir: `${empty}/` });
  await half.start();
  t.after(() => half.stop());
  assert.equal(half.asset('index.html'), undefined);
  assert.match(half.problem!, /app\.js is missing/);

  const served = createDashboardUi(log, { dir: `${DIST}/` });
  await served.start();
  t.after(() => served.stop());
  for (const name of DASHBOARD_FILES) {
    assert.equal(served.asset(name)?.body.toString(), await readFile(join(DIST, name), 'utf8'), `${name}: the file of npm run build:dashboard`);
  }
});
