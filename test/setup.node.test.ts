/**
 * scripts/setup.sh's `setup_node`: `npm start`, `npm test` and `npm run test:cluster` run on
 * Node 24, installed project-locally from the npm registry when the machine's node is older.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runSetup } from './helpers/setup-script.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const major = (version: string) => Number(version.replace(/^v/, '').split('.')[0]);

test('setup - setup_node installs the wanted Node into .tools/ only when the machine has an older one', () => {
  // a Node newer than any there is: what would be installed, and from where (dry run)
  const newer = runSetup('setup_node && echo DONE', { env: { RTM_NODE: '99' } });
  assert.equal(newer.code, 0, newer.output);
  assert.match(newer.output, /installing Node 99 into \.tools\/node99 \(npm package node@99\)/);
  assert.match(newer.output, /dry run: npm install --prefix \.tools\/node99 node@\^99/);

  // the running Node's own major: nothing to install, PATH as it was
  const before = runSetup('echo "PATH=$PATH"').output;
  const same = runSetup('setup_node && echo "PATH=$PATH"', { env: { RTM_NODE: String(major(process.version)) } });
  assert.equal(same.code, 0, same.output);
  assert.equal(same.output, before);

  const system = runSetup('setup_node && echo "PATH=$PATH"', { env: { RTM_NODE: 'system' } });
  assert.equal(system.code, 0, system.output);
  assert.equal(system.output, before);

  const wrong = runSetup('setup_node && echo DONE', { env: { RTM_NODE: 'latest' } });
  assert.equal(wrong.code, 1);
  assert.match(wrong.output, /RTM_NODE must be a major version of Node \(e\.g\. 24 or 22\) or 'system', not 'latest'/);
});

test('setup - by default the scripts run on Node 24 or newer, and call setup_node before the rest', () => {
  // for real: the machine's node when it is new enough, else .tools/node24 (installed if missing)
  const real = runSetup('setup_node && node -p process.versions.node && command -v node', { real: true });
  assert.equal(real.code, 0, real.output);
  const version = /^\d+\.\d+\.\d+$/m.exec(real.output)?.[0];
  const path = /^\/.*\/node$/m.exec(real.output)?.[0];
  assert.ok(version && major(version) >= 24, real.output);
  if (major(process.version) < 24 && !process.env.PATH!.split(':')[0]!.includes('/.tools/node')) {
    assert.equal(path, `${ROOT}.tools/node24/node_modules/.bin/node`);
  }
  for (const script of ['start.sh', 'test.sh', 'test-cluster.sh']) {
    assert.match(readFileSync(`${ROOT}scripts/${script}`, 'utf8'), /^setup_node\nsetup_all$/m, `${script} calls setup_node first`);
  }
});
