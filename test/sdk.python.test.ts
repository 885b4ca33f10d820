/**
 * The Python server SDK (sdks/python): its own unit tests and strict type check, its live program
 * against a real cluster (a token it mints opens a socket here that sees what it publishes; history
 * pages; an endpoint managed; real deliveries verified and an altered body refused), and the wheel
 * installed into a virtual environment outside the repository, running the README's quick start.
 * Skipped, saying why, where python3, venv or the SDK's set-up environment is missing.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCluster } from './helpers/cluster.ts';
import { openSocket } from './helpers/ws.ts';
import { runSetup } from './helpers/setup-script.ts';
import { PYTHON, PYTHON_SDK, SDK_VENV_PYTHON, converse, pythonMissing, run } from './helpers/python.ts';

const ROOT = join(PYTHON_SDK, '../..');
/** The environment of a Python child: ours without PYTHONPATH, plus `extra`. */
const pythonEnv = (extra: Record<string, string>) => {
  const env: Record<string, string | undefined> = { ...process.env, ...extra };
  if (!('PYTHONPATH' in extra)) delete env.PYTHONPATH;
  return env;
};

test('Python server SDK - npm test sets it up and checks its models; without python3 nothing fails', () => {
  const missing = runSetup('PYTHON=/nonexistent/python3; setup_python_sdk && echo DONE');
  assert.equal(missing.code, 0, missing.output);
  assert.match(missing.output, /no \/nonexistent\/python3: the Python SDK's tests will be skipped/);
  assert.match(missing.output, /^DONE$/m);
  const testScript = readFileSync(join(ROOT, 'scripts/test.sh'), 'utf8');
  assert.match(testScript, /^setup_python_sdk$/m);
  assert.match(testScript, /^npx tsx scripts\/generate-python-sdk\.ts --check$/m);
  assert.doesNotMatch(readFileSync(join(ROOT, 'scripts/start.sh'), 'utf8'), /setup_python_sdk/);
});

test('Python server SDK', async (t) => {
  const missing = pythonMissing();
  if (missing) {
    t.skip(missing);
    return;
  }

  await t.test('its unit tests pass and pyright strict finds nothing', async () => {
    const unit = await run(PYTHON, ['-m', 'unittest', 'discover', '-s', 'tests', '-t', '.'], { cwd: PYTHON_SDK, env: pythonEnv({ PYTHONPATH: 'src' }) });
    assert.equal(unit.status, 0, unit.stderr);
    assert.match(unit.stderr, /Ran [1-9]\d* tests/);
    const typed = await run(process.execPath, [join(ROOT, 'node_modules/pyright/index.js'), '-p', PYTHON_SDK], { cwd: ROOT });
    assert.equal(typed.status, 0, typed.stdout + typed.stderr);
    assert.match(typed.stdout, /0 errors/);
  });

  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1, dispatchers: 1, env: { WEBHOOK_RETRY_SCHEDULE: '200ms' } });
  const gw = cluster.gateways[0]!;

  await t.test('mints, publishes, pages, manages an endpoint and verifies real deliveries', async (st) => {
    const env = await cluster.createEnvironment();
    const py = converse(st, PYTHON, ['tests/live_cluster.py'], {
      cwd: PYTHON_SDK,
      env: pythonEnv({ PYTHONPATH: 'src', RTM_CONTROL_URL: gw.controlUrl, RTM_SECRET_KEY: env.secretKey }),
    });
    const { token, channel } = await py.next('token');
    const socket = openSocket(gw.realtimeUrl, `/v1/channels/${channel}?token=${token}`);
    st.after(() => socket.close());
    await socket.waitFor('ready', (f) => f.op === 'ready', 30_000);
    py.send({ kind: 'subscribed' });
    const { id } = await py.next('published');
    const frame = await socket.waitFor('the message published from Python', (f) => JSON.stringify(f).includes(id), 30_000);
    assert.match(JSON.stringify(frame), /from python/);
    py.send({ kind: 'seen' });
    const done = await py.next('done', 180_000);
    // the test event, the message, the one after rotation (and any retry): every one verified by the receiver
    assert.ok(done.deliveries >= 3, `deliveries: ${done.deliveries}`);
    assert.deepEqual(new Set(done.verdicts), new Set([200]));
    const exit = await py.exited;
    assert.equal(exit.status, 0, exit.stderr);
  });

  await t.test('a program outside the repository installs the built wheel and runs the quick start', async (st) => {
    if (!existsSync(SDK_VENV_PYTHON)) {
      st.skip('no sdks/python/.venv (scripts/setup.sh setup_python_sdk makes it): the wheel is not built');
      return;
    }
    const tools = await run(SDK_VENV_PYTHON, ['-c', 'import setuptools, wheel'], { env: pythonEnv({}) });
    if (tools.status !== 0) {
      st.skip(`sdks/python/.venv has no setuptools or wheel (pip's index could not provide them): ${tools.stderr.trim().split('\n').pop()}`);
      return;
    }
    const dir = await mkdtemp(join(tmpdir(), 'rtm-python-sdk-'));
    st.after(() => rm(dir, { recursive: true, force: true }));
    // built from a copy: setuptools leaves build/ and *.egg-info beside the sources, and reuses them
    const source = join(dir, 'source');
    await cp(PYTHON_SDK, source, { recursive: true, filter: (path) => !/(^|\/)(\.venv|build|dist|__pycache__|[^/]*\.egg-info)$/.test(path) });
    const built = await run(SDK_VENV_PYTHON, ['-m', 'pip', 'wheel', '--no-deps', '--no-build-isolation', '--no-index', '-w', join(dir, 'dist'), source], {
      env: pythonEnv({}),
      timeoutMs: 180_000,
    });
    assert.equal(built.status, 0, built.stdout + built.stderr);
    const [wheel] = (await readdir(join(dir, 'dist'))).filter((name) => name.endsWith('.whl'));
    assert.match(wheel ?? '', /^rtm_server-1\.0\.0-py3-none-any\.whl$/);

    const venv = await run(PYTHON, ['-m', 'venv', join(dir, 'venv')], { env: pythonEnv({}) });
    if (venv.status !== 0) {
      st.skip(`${PYTHON} -m venv failed (python3-venv missing?): ${venv.stderr.trim().split('\n').pop()}`);
      return;
    }
    const python = join(dir, 'venv/bin/python');
    // no index: the wheel has no dependencies
    const installed = await run(python, ['-m', 'pip', 'install', '--no-index', '--no-deps', join(dir, 'dist', wheel!)], { cwd: dir, env: pythonEnv({}) });
    assert.equal(installed.status, 0, installed.stdout + installed.stderr);
    const where = await run(
      python,
      ['-c', 'import rtm_server, os; print(rtm_server.__file__); print(os.path.exists(os.path.join(os.path.dirname(rtm_server.__file__), "py.typed")))'],
      {
        cwd: dir,
        env: pythonEnv({}),
      },
    );
    const [file, typedMarker] = where.stdout.trim().split('\n');
    assert.ok(file?.startsWith(join(dir, 'venv')), `imported from ${file}`);
    assert.equal(typedMarker, 'True', 'py.typed is in the wheel');

    const env = await cluster.createEnvironment();
    await copyFile(join(PYTHON_SDK, 'examples/quickstart.py'), join(dir, 'quickstart.py'));
    const quick = await run(python, ['quickstart.py'], {
      cwd: dir,
      env: pythonEnv({ RTM_CONTROL_URL: gw.controlUrl, RTM_SECRET_KEY: env.secretKey }),
      timeoutMs: 120_000,
    });
    assert.equal(quick.status, 0, quick.stdout + quick.stderr);
    assert.match(quick.stdout, /^token for alice expires at /m);
    assert.match(quick.stdout, /^verified delivery of msg_\w+$/m);
  });
});
