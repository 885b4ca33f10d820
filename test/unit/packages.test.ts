/**
 * The publishable packages without packing them: each manifest has what `npm pack` and a user
 * outside the repository need, each carries the root LICENSE, and the build's two guards (the
 * esbuild plugin that refuses an undeclared import, the check of the declarations' imports)
 * refuse what they must. test/packages.out-of-repo.test.ts packs and installs them for real.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { checkDeclarations, declaredDependencies, packageNameOf, REPO_ROOT, specifiersOf, type Manifest } from '../../scripts/package-build.ts';

const PUBLISHED: Record<string, string> = { 'libs/client': '@rtm/client', 'libs/server-sdk': '@rtm/server', 'libs/react': '@rtm/react' };

/** The Node lines `npm test` runs on (setup_node: 24 by default, RTM_NODE=22): the root's `engines`. */
const NODE_ENGINES = '^22.12.0 || >=24.0.0';

test('packages - every package.json (root, apps, libs) says the same tested Node versions', async () => {
  const dirs = ['.', ...(['apps', 'libs'] as const).flatMap((top) => readdirSync(join(REPO_ROOT, top)).map((name) => `${top}/${name}`))];
  for (const dir of dirs) {
    const file = join(REPO_ROOT, dir, 'package.json');
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(await readFile(file, 'utf8')) as PackageJson;
    assert.deepEqual(manifest.engines, { node: NODE_ENGINES }, `${dir}/package.json engines`);
  }
});

interface PackageJson extends Manifest {
  private?: boolean;
  license?: string;
  type?: string;
  files?: string[];
  exports?: Record<string, { types?: string; default?: string } | string>;
  scripts?: Record<string, string>;
  engines?: { node?: string };
}

for (const [dir, name] of Object.entries(PUBLISHED)) {
  test(`packages - ${dir} is publishable: manifest, exports to dist, prepack, LICENSE`, async () => {
    const manifest = JSON.parse(await readFile(join(REPO_ROOT, dir, 'package.json'), 'utf8')) as PackageJson;
    assert.equal(manifest.name, name);
    assert.equal(manifest.private, undefined, 'not private');
    assert.equal(manifest.license, 'MIT');
    assert.equal(manifest.type, 'module');
    assert.deepEqual(manifest.engines, { node: NODE_ENGINES }, 'the Node versions the root says are tested');
    assert.ok(manifest.files?.includes('dist'), 'files holds dist');
    assert.ok(manifest.files?.includes('README.md'), 'files holds README.md');
    assert.match(await readFile(join(REPO_ROOT, dir, 'README.md'), 'utf8'), /## Installing|Installing outside this repository/);
    const main = manifest.exports?.['.'];
    assert.ok(main && typeof main === 'object', 'exports["."] has conditions');
    assert.match(main.types ?? '', /^\.\/dist\/.*\.d\.ts$/);
    assert.match(main.default ?? '', /^\.\/dist\/.*\.js$/);
    assert.equal(manifest.scripts?.prepack, 'npm run build', 'npm pack builds first');
    const needed = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})];
    for (const other of needed.filter((dep) => dep.startsWith('@rtm/'))) {
      assert.ok(Object.values(PUBLISHED).includes(other), `${other} is not a published package: bundle it instead`);
    }
    assert.equal(await readFile(join(REPO_ROOT, dir, 'LICENSE'), 'utf8'), await readFile(join(REPO_ROOT, 'LICENSE'), 'utf8'));
  });
}

test('packages - packageNameOf and specifiersOf', () => {
  assert.equal(packageNameOf('@rtm/webhooks/signature'), '@rtm/webhooks');
  assert.equal(packageNameOf('openapi-fetch'), 'openapi-fetch');
  assert.equal(packageNameOf('react/jsx-runtime'), 'react');
  const text = `import { type A } from './a.ts';\nexport * from "b";\nexport type { C } from './c.js';\ntype D = import('d').D;\nimport 'e';\n`;
  assert.deepEqual(specifiersOf(text), ['./a.ts', 'b', './c.js', 'd', 'e']);
});

test('packages - checkDeclarations refuses an undeclared package and a missing relative declaration', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'rtm-decl-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await mkdir(join(dir, 'dist/vendor'), { recursive: true });
  const manifest: Manifest = { name: '@rtm/x', dependencies: { 'openapi-fetch': '1' }, peerDependencies: { react: '>=18' } };
  await writeFile(
    join(dir, 'dist/index.d.ts'),
    `import type { Client } from 'openapi-fetch';\nimport type { FC } from 'react';\nimport type { K } from 'node:crypto';\nexport * from './a.ts';\nexport * from './vendor/b.js';\n`,
  );
  await writeFile(join(dir, 'dist/a.d.ts'), 'export type A = 1;\n');
  await writeFile(join(dir, 'dist/vendor/b.d.ts'), 'export type B = 1;\n');
  assert.deepEqual(await checkDeclarations(join(dir, 'dist'), manifest), []);

  await writeFile(
    join(dir, 'dist/a.d.ts'),
    `import type { ErrorCode } from '@rtm/errors';\nimport type { X } from 'zod';\nexport type { Y } from './gone.js';\n`,
  );
  assert.deepEqual(await checkDeclarations(join(dir, 'dist'), manifest), [
    'dist/a.d.ts imports @rtm/errors, which @rtm/x does not declare',
    'dist/a.d.ts imports zod, which @rtm/x does not declare',
    'dist/a.d.ts imports ./gone.js, which is not in dist/',
  ]);
  await rm(join(dir, 'dist'), { recursive: true });
  await mkdir(join(dir, 'dist'));
  assert.deepEqual(await checkDeclarations(join(dir, 'dist'), manifest), ['@rtm/x: no .d.ts under dist/']);
});

test('packages - the bundle refuses an undeclared import and keeps declared ones as imports', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'rtm-bundle-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const entry = join(dir, 'index.ts');
  const bundle = (manifest: Manifest) =>
    build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'node',
      logLevel: 'silent',
      plugins: [declaredDependencies(manifest, { node: true })],
    });

  await writeFile(
    entry,
    `import createClient from 'openapi-fetch';\nimport { createHmac } from 'node:crypto';\nexport const x = [createClient, createHmac];\n`,
  );
  const ok = await bundle({ name: '@rtm/x', dependencies: { 'openapi-fetch': '^0.17.0' } });
  const js = ok.outputFiles[0]!.text;
  assert.match(js, /from "openapi-fetch"/);
  assert.match(js, /from "node:crypto"/);
  await assert.rejects(bundle({ name: '@rtm/x' }), /openapi-fetch is imported but @rtm\/x does not declare openapi-fetch/);
});
