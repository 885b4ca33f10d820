/**
 * The layer check (layers.json, test/helpers/layers.ts): the repository keeps its layers, and the
 * check does catch what it promises to, on trees planted here in memory (no real file is touched).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { checkLayers, circles, importsOf, readTree, ROOT_PACKAGE, type LayerTable, type Tree, type Violation } from '../helpers/layers.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TABLE = JSON.parse(readFileSync(`${ROOT}layers.json`, 'utf8')) as LayerTable;
const REAL = readTree(ROOT);

const show = (violations: Violation[]) => violations.map((v) => `${v.rule} ${v.at}: ${v.message}`).join('\n');
const rules = (violations: Violation[]) => violations.map((v) => `${v.rule} ${v.at}`).sort();

/** The real tree with `files` added or replaced (in memory). */
function planted(files: Record<string, string>): Tree {
  return { packages: REAL.packages, files: new Map([...REAL.files, ...Object.entries(files)]) };
}

test('the repository keeps its layers: no upward, undeclared or cross-package import, no circle', () => {
  const violations = checkLayers(REAL, TABLE);
  assert.deepEqual(violations, [], `layers.json is broken:\n${show(violations)}`);
  assert.ok(REAL.files.size > 300, `read only ${REAL.files.size} files`);
});

test('every temporary exception still matches an import (an empty one is removed, not kept)', () => {
  for (const exception of TABLE.temporaryExceptions) {
    const source = REAL.files.get(exception.file);
    assert.ok(source, `${exception.file} does not exist: remove its exception from layers.json`);
    const specifiers = importsOf(source).map((i) => i.specifier);
    assert.ok(specifiers.includes(exception.import), `${exception.file} no longer imports ${exception.import}: remove its exception from layers.json`);
  }
});

test('a planted upward import fails, with the layers named', () => {
  const violations = checkLayers(planted({ 'libs/errors/src/planted.ts': "import { createPool } from '@rtm/db';\n" }), TABLE);
  assert.deepEqual(rules(violations), ['undeclared libs/errors/src/planted.ts:1', 'upward libs/errors/src/planted.ts:1']);
  assert.match(show(violations), /@rtm\/errors \(rules\) imports @rtm\/db \(platform\)/);
});

test('a planted cross-package relative import fails, even when type-only', () => {
  const files = {
    'libs/auth/src/planted.ts': "import type { Pool } from '../../db/src/pool.ts';\n",
    'apps/gateway/src/planted.ts': "export { decide } from '../../../libs/rules/src/permissions.ts';\n",
  };
  const violations = checkLayers(planted(files), TABLE);
  assert.deepEqual(rules(violations), ['cross-package apps/gateway/src/planted.ts:1', 'cross-package libs/auth/src/planted.ts:1']);
  assert.match(show(violations), /from @rtm\/auth into @rtm\/db/);
});

test('a run-time import of a build script or a test helper fails; a type-only one does not', () => {
  const violations = checkLayers(
    planted({
      'libs/client/src/planted.ts': "const { bundleClient } = await import('../scripts/bundle.ts');\nimport type { X } from '../scripts/bundle.ts';\n",
      'scripts/planted.ts': "import { eventually } from '../test/helpers/eventually.ts';\nimport type { Cluster } from '../test/helpers/cluster.ts';\n",
      'scripts/admin.ts': `${REAL.files.get('scripts/admin.ts')}\nimport '../libs/client/scripts/build.ts';\n`,
    }),
    TABLE,
  );
  assert.deepEqual(
    rules(violations).filter((r) => !r.startsWith('cross-package')),
    [
      'build-script libs/client/src/planted.ts:1',
      `build-script scripts/admin.ts:${REAL.files.get('scripts/admin.ts')!.split('\n').length + 1}`,
      'test-helper scripts/planted.ts:1',
    ],
  );
  // a dev script may load test helpers (the screenshots drive a test cluster)
  assert.ok(TABLE.devScripts.includes('scripts/dashboard-screenshots.ts'));
  assert.ok(importsOf(REAL.files.get('scripts/dashboard-screenshots.ts')!).some((i) => i.specifier.startsWith('../test/')));
});

test('an import the package.json does not list fails, and so does a listed dependency nobody imports', () => {
  const tree: Tree = {
    packages: [
      { name: ROOT_PACKAGE, dir: '', declared: null },
      { name: '@rtm/a', dir: 'libs/a', declared: new Set(['@rtm/c']) },
      { name: '@rtm/b', dir: 'libs/b', declared: new Set() },
      { name: '@rtm/c', dir: 'libs/c', declared: new Set() },
    ],
    files: new Map([['libs/a/src/index.ts', "import { b } from '@rtm/b/sub';\n"]]),
  };
  const table: LayerTable = {
    layers: [
      { name: 'low', about: '', packages: ['@rtm/b', '@rtm/c'] },
      { name: 'high', about: '', packages: ['@rtm/a', ROOT_PACKAGE] },
    ],
    sameLayer: [],
    buildHelpers: [],
    devScripts: [],
    temporaryExceptions: [],
  };
  assert.deepEqual(rules(checkLayers(tree, table)), ['undeclared libs/a/src/index.ts:1', 'unused @rtm/a']);
  // an unplaced package, and a same-layer import without an allowance
  const flat: LayerTable = { ...table, layers: [{ name: 'one', about: '', packages: ['@rtm/a', '@rtm/b', ROOT_PACKAGE] }] };
  tree.packages[1]!.declared = new Set(['@rtm/b']);
  assert.deepEqual(rules(checkLayers(tree, flat)), ['unlisted @rtm/c', 'upward libs/a/src/index.ts:1']);
});

test('packages that import each other round a circle fail', () => {
  const graph = new Map([
    ['@rtm/auth', new Set(['@rtm/webhooks'])],
    ['@rtm/webhooks', new Set(['@rtm/schemas'])],
    ['@rtm/schemas', new Set(['@rtm/auth', '@rtm/errors'])],
    ['@rtm/errors', new Set<string>()],
  ]);
  assert.deepEqual(circles(graph), [['@rtm/auth', '@rtm/schemas', '@rtm/webhooks']]);
  const tree: Tree = {
    packages: [
      { name: ROOT_PACKAGE, dir: '', declared: null },
      { name: '@rtm/a', dir: 'libs/a', declared: new Set(['@rtm/b']) },
      { name: '@rtm/b', dir: 'libs/b', declared: new Set(['@rtm/a']) },
    ],
    files: new Map([
      ['libs/a/src/index.ts', "export * from '@rtm/b';\n"],
      ['libs/b/src/index.ts', "import type { A } from '@rtm/a';\n"],
    ]),
  };
  const table: LayerTable = {
    layers: [{ name: 'one', about: '', packages: ['@rtm/a', '@rtm/b', ROOT_PACKAGE] }],
    sameLayer: [
      { from: '@rtm/a', to: '@rtm/b', why: '' },
      { from: '@rtm/b', to: '@rtm/a', why: '' },
    ],
    buildHelpers: [],
    devScripts: [],
    temporaryExceptions: [],
  };
  assert.deepEqual(rules(checkLayers(tree, table)), ['circle @rtm/a']);
});

test('imports are read from code only: not from comments or templates; type-only as such', () => {
  const source = [
    "import { a } from './a.ts';",
    '/** import { no } from "./comment.ts"; */',
    "// import { no } from './line-comment.ts';",
    'const generated = `',
    "import { no } from './template.ts';",
    '`;',
    'import type { T } from "./types.ts";',
    "import { type U } from './inline-type.ts';",
    'export type V = { w: string }',
    "export * from './all.ts';",
    "import './side-effect.ts';",
    "const lazy = await import('./lazy.ts');",
    "const re = /'/;",
    'export {',
    '  b,',
    "} from './b.ts';",
  ].join('\n');
  assert.deepEqual(
    importsOf(source).map((i) => `${i.line} ${i.specifier}${i.typeOnly ? ' type' : ''}`),
    ['1 ./a.ts', '7 ./types.ts type', '8 ./inline-type.ts', '10 ./all.ts', '11 ./side-effect.ts', '12 ./lazy.ts', '14 ./b.ts'],
  );
});
