/**
 * The build of the publishable packages (@rtm/client, @rtm/server, @rtm/react): what each
 * package's `npm run build` (and so its `prepack`) does, so `npm pack` works from a fresh clone.
 *
 * - JavaScript: one ES module per package, bundled by esbuild. A bare import is left to npm only
 *   when the package declares it (`dependencies` or `peerDependencies`); another workspace of this
 *   repository (`@rtm/…`, not declared) is bundled in; anything else fails the build.
 * - Types: tsc's declarations (one .d.ts per source file). A declaration that imports another
 *   workspace gets that workspace's declarations copied under dist/vendor/, and its import
 *   rewritten to them: nothing published names a package it does not declare.
 * - `checkDeclarations` then reads every .d.ts of dist/: each relative import must be a file of
 *   dist/, each bare one a declared package (or a Node built-in); the build fails otherwise.
 * - Everything is written to a fresh directory beside dist/ first (`newBuildDir`), then moved into
 *   dist/ file by file (`replaceDist`, each a rename): a gateway serving libs/client/dist, or a
 *   second build running at the same time (two test files packing), never sees a missing file.
 */
import { spawnSync } from 'node:child_process';
import { builtinModules, createRequire } from 'node:module';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';

export const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

export async function readManifest(packageDir: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as Manifest;
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
export function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

const isBuiltin = (specifier: string) => specifier.startsWith('node:') || builtinModules.includes(specifier);
const declaredOf = (manifest: Manifest) => new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);

/**
 * esbuild plugin: declared packages stay imports, workspaces are bundled, Node built-ins stay
 * imports (`node` platform only), and any other bare import is an error naming it.
 */
export function declaredDependencies(manifest: Manifest, options: { node: boolean }): Plugin {
  const declared = declaredOf(manifest);
  return {
    name: 'declared-dependencies',
    setup(on) {
      on.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        if (options.node && isBuiltin(args.path)) return { external: true };
        const name = packageNameOf(args.path);
        if (declared.has(name)) return { external: true };
        if (name.startsWith('@rtm/')) return undefined;
        return { errors: [{ text: `${args.path} is imported but ${manifest.name} does not declare ${name} in dependencies or peerDependencies` }] };
      });
    },
  };
}

/** A new empty directory beside the package's dist/, where a build writes before `replaceDist`. */
export async function newBuildDir(packageDir: string): Promise<string> {
  return mkdtemp(join(packageDir, '.dist-'));
}

/**
 * Moves every file of `built` into the package's dist/ (one rename each, so a reader sees the old
 * file or the new one, never none), removes the files of dist/ the build did not write, and
 * removes `built`.
 */
export async function replaceDist(packageDir: string, built: string): Promise<void> {
  const dist = join(packageDir, 'dist');
  await mkdir(dist, { recursive: true });
  const files = (await readdir(built, { recursive: true, withFileTypes: true })).filter((entry) => entry.isFile());
  const wanted = new Set<string>();
  for (const entry of files) {
    const from = join(entry.parentPath, entry.name);
    const to = join(dist, relative(built, from));
    wanted.add(to);
    await mkdir(dirname(to), { recursive: true });
    await rename(from, to);
  }
  for (const entry of await readdir(dist, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && !wanted.has(path)) await rm(path, { force: true });
  }
  await rm(built, { recursive: true, force: true });
}

/** Bundles `src/index.ts` of the package into `<outDir>/index.js` (readable: servers and bundlers read it). */
export async function bundlePackage(packageDir: string, outDir: string, options: { node: boolean }): Promise<void> {
  const manifest = await readManifest(packageDir);
  await build({
    entryPoints: [join(packageDir, 'src/index.ts')],
    outfile: join(outDir, 'index.js'),
    bundle: true,
    format: 'esm',
    platform: options.node ? 'node' : 'neutral',
    target: ['es2022', 'node20'],
    legalComments: 'none',
    plugins: [declaredDependencies(manifest, options)],
    logLevel: 'warning',
  });
}

const tscBin = () => createRequire(import.meta.url).resolve('typescript/bin/tsc');

function tsc(args: string[], what: string): void {
  const run = spawnSync(process.execPath, [tscBin(), ...args], { stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`tsc could not write ${what}`);
}

/** tsc's declarations of the package, from its tsconfig.build.json, into `outDir`. */
export function emitDeclarations(packageDir: string, outDir: string): void {
  tsc(['-p', join(packageDir, 'tsconfig.build.json'), '--outDir', outDir], `the declarations of ${packageDir}`);
}

/** Every .d.ts under `dir`, as absolute paths. */
export async function declarationFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.d.ts')).map((entry) => join(entry.parentPath, entry.name));
}

const IMPORT_SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]+)\2/g;

/** The module specifiers a declaration file imports or re-exports. */
export function specifiersOf(text: string): string[] {
  return [...text.matchAll(IMPORT_SPECIFIER)].map((match) => match[3]!);
}

/** The source file a workspace specifier (`@rtm/webhooks/signature`) stands for, from its `exports`. */
async function workspaceSource(specifier: string): Promise<string> {
  const name = packageNameOf(specifier);
  for (const group of ['libs', 'apps']) {
    for (const folder of await readdir(join(REPO_ROOT, group))) {
      const dir = join(REPO_ROOT, group, folder);
      if (!existsSync(join(dir, 'package.json'))) continue;
      const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as { name: string; exports?: Record<string, unknown> };
      if (manifest.name !== name) continue;
      const entry = manifest.exports?.[`.${specifier.slice(name.length)}`];
      const target = typeof entry === 'string' ? entry : (entry as { default?: string } | undefined)?.default;
      if (!target?.endsWith('.ts')) throw new Error(`${specifier}: no TypeScript source in the exports of ${name}`);
      return resolve(dir, target);
    }
  }
  throw new Error(`${specifier}: no workspace of that name`);
}

/**
 * Copies the declarations of the workspaces that the declarations under `dist` import (and of
 * those they import) to `dist`/vendor/<group>/<folder>/…, and points the imports at them.
 */
export async function vendorWorkspaceDeclarations(dist: string, manifest: Manifest): Promise<void> {
  const vendor = join(dist, 'vendor');
  const declared = declaredOf(manifest);
  const isVendored = (specifier: string) => specifier.startsWith('@rtm/') && !declared.has(packageNameOf(specifier));
  const done = new Set<string>();
  for (;;) {
    const wanted = new Map<string, string>(); // specifier → source file
    for (const file of await declarationFiles(dist)) {
      for (const specifier of specifiersOf(await readFile(file, 'utf8'))) {
        if (isVendored(specifier) && !done.has(specifier)) wanted.set(specifier, await workspaceSource(specifier));
      }
    }
    if (wanted.size === 0) return;
    tsc(
      [
        '--declaration',
        '--emitDeclarationOnly',
        '--module',
        'NodeNext',
        '--moduleResolution',
        'NodeNext',
        '--target',
        'ES2022',
        '--types',
        'node',
        '--strict',
        '--skipLibCheck',
        '--allowImportingTsExtensions',
        '--rootDir',
        REPO_ROOT,
        '--outDir',
        vendor,
        ...new Set(wanted.values()),
      ],
      `the declarations of ${[...wanted.keys()].join(', ')}`,
    );
    for (const file of await declarationFiles(dist)) {
      const text = await readFile(file, 'utf8');
      const rewritten = await replaceAsync(text, async (specifier) => {
        if (!isVendored(specifier)) return specifier;
        const source = wanted.get(specifier) ?? (await workspaceSource(specifier));
        const target = join(vendor, relative(REPO_ROOT, source)).replace(/\.ts$/, '.js');
        const path = relative(dirname(file), target).split(sep).join('/');
        return path.startsWith('.') ? path : `./${path}`;
      });
      if (rewritten !== text) await writeFile(file, rewritten);
    }
    for (const specifier of wanted.keys()) done.add(specifier);
  }
}

async function replaceAsync(text: string, map: (specifier: string) => Promise<string>): Promise<string> {
  const replacements = await Promise.all([...text.matchAll(IMPORT_SPECIFIER)].map((match) => map(match[3]!)));
  let index = 0;
  return text.replace(IMPORT_SPECIFIER, (_whole, lead: string, quote: string) => `${lead}${quote}${replacements[index++]}${quote}`);
}

/**
 * Every import of every .d.ts under `dist`: relative ones must name a declaration under `dist`
 * (`.js` and `.ts` stand for `.d.ts`), bare ones a declared package or a Node built-in. Returns
 * the problems, one line each, with paths as in the package (`dist/…`).
 */
export async function checkDeclarations(dist: string, manifest: Manifest): Promise<string[]> {
  const declared = declaredOf(manifest);
  const problems: string[] = [];
  const files = await declarationFiles(dist);
  if (files.length === 0) problems.push(`${manifest.name}: no .d.ts under dist/`);
  for (const file of files) {
    const where = `dist/${relative(dist, file).split(sep).join('/')}`;
    for (const specifier of specifiersOf(await readFile(file, 'utf8'))) {
      if (specifier.startsWith('.')) {
        const base = resolve(dirname(file), specifier).replace(/(\.d)?\.(js|ts)$/, '');
        if (!existsSync(`${base}.d.ts`)) problems.push(`${where} imports ${specifier}, which is not in dist/`);
      } else if (!isBuiltin(specifier) && !declared.has(packageNameOf(specifier)) && !declared.has(`@types/${packageNameOf(specifier)}`)) {
        problems.push(`${where} imports ${specifier}, which ${manifest.name} does not declare`);
      }
    }
  }
  return problems;
}

/** Fails the build when `checkDeclarations` finds anything. */
export async function assertDeclarations(packageDir: string, dist: string): Promise<void> {
  const manifest = await readManifest(packageDir);
  const problems = await checkDeclarations(dist, manifest);
  if (problems.length > 0) throw new Error(`${manifest.name}: the declarations are not self-contained:\n  ${problems.join('\n  ')}`);
}

/** The root LICENSE, copied beside the package's manifest (npm packs it); written by a rename. */
export async function copyLicense(packageDir: string): Promise<void> {
  const temporary = join(packageDir, `.LICENSE-${process.pid}`);
  await copyFile(join(REPO_ROOT, 'LICENSE'), temporary);
  await rename(temporary, join(packageDir, 'LICENSE'));
}
