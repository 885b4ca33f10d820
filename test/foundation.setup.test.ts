import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { runSetup } from './helpers/setup-script.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Runs functions of scripts/setup.sh in a throwaway bash, in dry-run mode (nothing installed or started). */
const setup = (calls: string, env: Record<string, string>) => runSetup(calls, { env });

/** A port nothing listens on (bound, then released). */
async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

test('setup - with nothing at the configured addresses it starts private Postgres and NATS instances', async () => {
  const [pgPort, natsPort] = [await unusedPort(), await unusedPort()];
  const { code, output } = setup('setup_postgres && setup_nats && echo DONE', {
    DATABASE_URL: `postgres://postgres@127.0.0.1:${pgPort}/rtm`,
    NATS_URL: `nats://127.0.0.1:${natsPort}`,
  });
  assert.equal(code, 0, output);
  assert.match(output, new RegExp(`no Postgres at 127\\.0\\.0\\.1:${pgPort}: starting a private instance`));
  assert.match(output, /initdb -D \S+\/postgres -U postgres --auth=trust/);
  assert.match(output, new RegExp(`pg_ctl start -w -D \\S+/postgres .*-p ${pgPort} -c listen_addresses=127\\.0\\.0\\.1`));
  assert.match(output, new RegExp(`nats-server -a 127\\.0\\.0\\.1 -p ${natsPort} -js -sd \\S+/\\.data/nats`));
  assert.match(output, /DONE/);
});

test('setup - services that answer are used as they are; a remote address that does not answer is an error', () => {
  // this machine's Postgres and NATS answer at the defaults: nothing to do (and JetStream is checked)
  const running = setup('setup_postgres && setup_nats && echo DONE', {
    DATABASE_URL: `${process.env.TEST_DATABASE_SERVER ?? 'postgres://postgres@127.0.0.1:5432'}/rtm`,
    NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
  });
  assert.equal(running.code, 0, running.output);
  assert.equal(running.output.trim(), 'DONE');

  const remote = setup('setup_postgres', { DATABASE_URL: 'postgres://postgres@db.example.invalid:5432/rtm' });
  assert.equal(remote.code, 1);
  assert.match(remote.output, /no Postgres answers at db\.example\.invalid:5432 \(DATABASE_URL\)/);
  const remoteNats = setup('setup_nats', { NATS_URL: 'nats://nats.example.invalid:4222' });
  assert.equal(remoteNats.code, 1);
  assert.match(remoteNats.output, /no NATS answers at nats\.example\.invalid:4222 \(NATS_URL\)/);
});

test('setup - a URL host is never run as shell text: $(…) in DATABASE_URL or NATS_URL is refused and runs nothing', async () => {
  const { existsSync, rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  // a relative name: a host ends at the first '/', and setup runs in the repository root
  const name = `setup-injection-${process.pid}-${Date.now()}`;
  const marker = join(ROOT, name);
  try {
    for (const [fn, variable, url] of [
      ['setup_postgres', 'DATABASE_URL', `postgres://u@h$(touch\${IFS}${name}):5432/d`],
      ['setup_postgres', 'DATABASE_URL', `postgres://u@h\`touch\${IFS}${name}\`:5432/d`],
      ['setup_nats', 'NATS_URL', `nats://h$(touch\${IFS}${name}):4222`],
      ['setup_nats', 'NATS_URL', `nats://127.0.0.1;touch\${IFS}${name};:4222`],
    ] as const) {
      const result = setup(fn, { [variable]: url });
      assert.ok(!existsSync(marker), `${variable}=${url} ran a command`);
      assert.notEqual(result.code, 0, `${url}: ${result.output}`);
    }
  } finally {
    rmSync(marker, { force: true });
  }
});

test('setup - npm test installs Debian chromium only when the browser is missing; CHROMIUM_PATH must name a binary', () => {
  // present (this machine's /usr/bin/chromium, or a stand-in that is surely executable): nothing to do
  const present = setup(`RTM_CHROMIUM_DEFAULT=${process.execPath}; setup_chromium && echo DONE`, {});
  assert.equal(present.code, 0, present.output);
  assert.equal(present.output.trim(), 'DONE');

  const missing = setup('RTM_CHROMIUM_DEFAULT=/nonexistent/chromium; setup_chromium && echo DONE', {});
  assert.equal(missing.code, 0, missing.output);
  assert.match(missing.output, /no \/nonexistent\/chromium: installing Chromium for the browser tests/);
  assert.match(missing.output, /dry run: .*apt-get install -y -qq chromium\n/);
  assert.match(missing.output, /DONE/);

  const named = setup('setup_chromium', { CHROMIUM_PATH: process.execPath });
  assert.equal(named.code, 0, named.output);
  const wrong = setup('setup_chromium', { CHROMIUM_PATH: '/nonexistent/chrome' });
  assert.equal(wrong.code, 1);
  assert.match(wrong.output, /CHROMIUM_PATH=\/nonexistent\/chrome is not an executable file/);
  assert.doesNotMatch(wrong.output, /apt-get/);

  // `npm test` asks for it; `npm start` does not (a browser is not needed to run the service)
  const testScript = readFileSync(`${ROOT}scripts/test.sh`, 'utf8');
  const startScript = readFileSync(`${ROOT}scripts/start.sh`, 'utf8');
  assert.match(testScript, /^setup_chromium$/m);
  assert.doesNotMatch(startScript, /setup_chromium/);
});

test('setup - npm run test:cluster installs Debian haproxy only when it is missing', () => {
  const present = setup(`RTM_HAPROXY=${process.execPath}; setup_haproxy && echo DONE`, {});
  assert.equal(present.code, 0, present.output);
  assert.equal(present.output.trim(), 'DONE');

  const missing = setup('RTM_HAPROXY=/nonexistent/haproxy; setup_haproxy && echo DONE', {});
  assert.equal(missing.code, 0, missing.output);
  assert.match(missing.output, /no \/nonexistent\/haproxy: installing HAProxy for the cluster test/);
  assert.match(missing.output, /dry run: .*apt-get install -y -qq haproxy\n/);
  assert.match(missing.output, /DONE/);

  // the cluster test asks for it; `npm test` and `npm start` do not
  assert.match(readFileSync(`${ROOT}scripts/test-cluster.sh`, 'utf8'), /^setup_haproxy$/m);
  for (const script of ['test.sh', 'start.sh']) assert.doesNotMatch(readFileSync(`${ROOT}scripts/${script}`, 'utf8'), /setup_haproxy/);
});

test('setup - npm run test:cluster installs Debian pg_auto_failover for the Postgres found, only when it is missing', () => {
  const missing = setup('RTM_PG_AUTOCTL=/nonexistent/pg_autoctl; setup_auto_failover && echo DONE', {});
  assert.equal(missing.code, 0, missing.output);
  const major = /no pg_auto_failover for Postgres (\d+): installing it for the cluster test/.exec(missing.output)?.[1];
  assert.ok(major, missing.output);
  assert.match(missing.output, new RegExp(`dry run: .*apt-get install -y -qq postgresql-${major}-auto-failover\n`));
  assert.match(missing.output, /DONE/);

  // the cluster test asks for it; `npm test` and `npm start` do not
  assert.match(readFileSync(`${ROOT}scripts/test-cluster.sh`, 'utf8'), /^setup_auto_failover$/m);
  for (const script of ['test.sh', 'start.sh']) assert.doesNotMatch(readFileSync(`${ROOT}scripts/${script}`, 'utf8'), /setup_auto_failover/);
});
