/**
 * CONTRIBUTING.md's map of the code names every app, every lib, and every folder of the gateway and of the edge:
 * a folder added without a word about it (or a stale name left behind) fails here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const contributing = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');
const foldersOf = (dir: string) =>
  readdirSync(join(ROOT, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== 'dist')
    .map((entry) => entry.name);

test('CONTRIBUTING map: every app and lib has its row', () => {
  const missing = [...foldersOf('apps').map((name) => `apps/${name}`), ...foldersOf('libs').map((name) => `libs/${name}`)]
    .filter((path) => existsSync(join(ROOT, path, 'package.json')))
    .filter((path) => !contributing.includes(`| \`${path}\` |`));
  assert.deepEqual(missing, []);
});

for (const path of ['apps/gateway', 'libs/edge']) {
  test(`CONTRIBUTING map: every folder of ${path} is named in its row, and every folder named there exists`, () => {
    const row = contributing.split('\n').find((line) => line.startsWith(`| \`${path}\` |`));
    assert.ok(row, `a row for ${path}`);
    const folders = foldersOf(`${path}/src`);
    assert.deepEqual(
      folders.filter((name) => !row.includes(`\`${name}/\``)),
      [],
    );
    const named = [...row.matchAll(/`([a-z-]+)\/`/g)].map((m) => m[1]!);
    assert.deepEqual(
      named.filter((name) => !folders.includes(name)),
      [],
    );
  });
}
