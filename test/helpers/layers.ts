/**
 * The layer check (`layers.json` at the repository's root, run by test/unit/layers.test.ts): reads
 * the imports of every TypeScript file under apps/*\/src, apps/*\/scripts, libs/*\/src,
 * libs/*\/scripts and scripts/, and rejects
 * - `upward`: a package importing a package of a higher layer, or of its own layer unless the
 *   table's `sameLayer` allows that pair;
 * - `undeclared` / `unused`: an @rtm import its package.json does not list, or a listed @rtm
 *   dependency nothing imports (dependencies, devDependencies or peerDependencies);
 * - `cross-package`: a relative import that leaves its package (`../../libs/x/src/…`). Build
 *   scripts are no package's surface, so two exceptions: a package's build script may reach the
 *   repository's build helpers (`buildHelpers`), and a dev script (`devScripts`, e.g. the build)
 *   may reach a package's build scripts;
 * - `build-script` / `test-helper`: a run-time import of a build script (a `scripts/` folder)
 *   from an app's or a lib's src or from a production script, or of test/ from anything but a dev
 *   script (`devScripts`). `import type` and `export type` are erased before anything runs, so
 *   they are allowed here (and only here: a type still ties its packages together for the other
 *   rules);
 * - `circle`: packages that import each other round a circle;
 * - `unlisted`: a package the table does not place, or places twice, or that does not exist.
 * Only literal specifiers are read: `import(\`…${x}\`)` is not followed.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';

export interface LayerTable {
  /** Lowest first: a package may import the packages of the layers below its own. */
  layers: { name: string; about: string; packages: string[] }[];
  sameLayer: { from: string; to: string; why: string }[];
  buildHelpers: string[];
  devScripts: string[];
  /** Imports let through for now; each says why and goes when its cause does. */
  temporaryExceptions: { file: string; import: string; why: string }[];
}

export interface PackageInfo {
  name: string;
  /** Its folder, repository-relative (`libs/auth`); '' for the repository's root (`scripts/`). */
  dir: string;
  /** The @rtm packages its package.json lists (null for the root, which links every workspace). */
  declared: Set<string> | null;
}

/** A repository as the check sees it: its packages and the source of each file it reads. */
export interface Tree {
  packages: PackageInfo[];
  files: Map<string, string>;
}

export type Rule = 'upward' | 'undeclared' | 'unused' | 'cross-package' | 'build-script' | 'test-helper' | 'circle' | 'unlisted';

export interface Violation {
  rule: Rule;
  /** Where: `file:line`, or a package's name. */
  at: string;
  message: string;
}

export interface Import {
  specifier: string;
  typeOnly: boolean;
  line: number;
}

export const ROOT_PACKAGE = 'rtm';
const SCRIPT_ROOTS = ['src', 'scripts'];

/**
 * The source with its comments and the insides of template literals blanked (same length, same
 * lines), so an import named in a comment or generated into a template is not read as one.
 */
function codeOnly(source: string): string {
  const out = source.split('');
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  let i = 0;
  let last = ''; // the last significant character, to tell a regular expression from a division
  while (i < source.length) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      const end = source.indexOf('\n', i);
      const stop = end === -1 ? source.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? source.length : end + 2;
      blank(i, stop);
      i = stop;
    } else if (c === "'" || c === '"') {
      let k = i + 1;
      while (k < source.length && source[k] !== c && source[k] !== '\n') k += source[k] === '\\' ? 2 : 1;
      i = k + 1;
      last = c;
    } else if (c === '`') {
      let k = i + 1;
      while (k < source.length && source[k] !== '`') k += source[k] === '\\' ? 2 : 1;
      blank(i + 1, k);
      i = k + 1;
      last = c;
    } else if (c === '/' && (last === '' || '(,=:[!&|?{};+-*%<>~^'.includes(last))) {
      // a regular expression literal: skip to its closing slash (outside a character class)
      let k = i + 1;
      let inClass = false;
      while (k < source.length && source[k] !== '\n') {
        const d = source[k]!;
        if (d === '\\') k++;
        else if (d === '[') inClass = true;
        else if (d === ']') inClass = false;
        else if (d === '/' && !inClass) break;
        k++;
      }
      blank(i, k + 1);
      i = k + 1;
      last = '/';
    } else {
      if (!/\s/.test(c)) last = c;
      i++;
    }
  }
  return out.join('');
}

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** Every literal import and re-export of a module: static, side-effect and dynamic. */
export function importsOf(source: string): Import[] {
  const code = codeOnly(source);
  const found: Import[] = [];
  // a statement runs from its keyword at the start of a line to the next one (or a semicolon)
  const starts = [...code.matchAll(/^[ \t]*(import|export)\b/gm)].map((m) => m.index);
  starts.forEach((start, k) => {
    const end = Math.min(starts[k + 1] ?? code.length, code.indexOf(';', start) === -1 ? code.length : code.indexOf(';', start) + 1);
    const m = /^\s*(?:import(\s+type\b)?(?:[^'"]*?)\bfrom|export(\s+type\b)?\s*(?:\*|\{)[^'"]*?\bfrom)\s*(['"])([^'"\n]+)\3/.exec(code.slice(start, end));
    if (m) found.push({ specifier: m[4]!, typeOnly: (m[1] ?? m[2]) !== undefined, line: lineAt(code, start) });
  });
  for (const m of code.matchAll(/^[ \t]*import\s*(['"])([^'"\n]+)\1/gm)) found.push({ specifier: m[2]!, typeOnly: false, line: lineAt(code, m.index) });
  for (const m of code.matchAll(/\bimport\s*\(\s*(['"])([^'"\n]+)\1/g)) found.push({ specifier: m[2]!, typeOnly: false, line: lineAt(code, m.index) });
  return found.sort((a, b) => a.line - b.line);
}

/** `@rtm/webhooks/signature` → `@rtm/webhooks`. */
const packageNameOf = (specifier: string) => specifier.split('/').slice(0, 2).join('/');

/** Reads the real repository at `root`. */
export function readTree(root: string): Tree {
  const packages: PackageInfo[] = [{ name: ROOT_PACKAGE, dir: '', declared: null }];
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = posix.join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== 'dist') walk(path);
      else if (entry.isFile() && /\.tsx?$/.test(entry.name)) files.set(path, readFileSync(join(root, path), 'utf8'));
    }
  };
  for (const group of ['apps', 'libs']) {
    for (const name of readdirSync(join(root, group)).sort()) {
      const dir = `${group}/${name}`;
      if (!existsSync(join(root, dir, 'package.json'))) continue;
      const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as Record<string, Record<string, string> | string>;
      const declared = new Set<string>();
      for (const field of ['dependencies', 'devDependencies', 'peerDependencies']) {
        for (const dep of Object.keys((manifest[field] as Record<string, string> | undefined) ?? {})) if (dep.startsWith('@rtm/')) declared.add(dep);
      }
      packages.push({ name: manifest.name as string, dir, declared });
      for (const sub of SCRIPT_ROOTS) if (existsSync(join(root, dir, sub))) walk(`${dir}/${sub}`);
    }
  }
  walk('scripts');
  return { packages, files };
}

/** The package a repository path belongs to (the root's for anything outside apps/* and libs/*). */
function ownerOf(path: string, packages: PackageInfo[]): PackageInfo {
  let best = packages.find((p) => p.dir === '')!;
  for (const p of packages) if (p.dir !== '' && path.startsWith(`${p.dir}/`) && p.dir.length > best.dir.length) best = p;
  return best;
}

const isBuildScript = (path: string) => /^(apps|libs)\/[^/]+\/scripts\//.test(path) || path.startsWith('scripts/');

/** Every violation of `table` in `tree`, in a stable order (none: the tree keeps its layers). */
export function checkLayers(tree: Tree, table: LayerTable): Violation[] {
  const violations: Violation[] = [];
  const layerOf = new Map<string, number>();
  table.layers.forEach((layer, index) => {
    for (const name of layer.packages) {
      if (layerOf.has(name)) violations.push({ rule: 'unlisted', at: name, message: `${name} is placed in two layers` });
      layerOf.set(name, index);
    }
  });
  const known = new Set(tree.packages.map((p) => p.name));
  for (const p of tree.packages) if (!layerOf.has(p.name)) violations.push({ rule: 'unlisted', at: p.name, message: `${p.name} has no layer in layers.json` });
  for (const name of layerOf.keys())
    if (!known.has(name)) violations.push({ rule: 'unlisted', at: name, message: `layers.json places ${name}, which is not a package` });
  const sameLayer = new Set(table.sameLayer.map((edge) => `${edge.from} ${edge.to}`));
  const excepted = new Set(table.temporaryExceptions.map((e) => `${e.file} ${e.import}`));
  const devScripts = new Set(table.devScripts);
  const buildHelpers = new Set(table.buildHelpers);
  const imported = new Map<string, Set<string>>(tree.packages.map((p) => [p.name, new Set()]));

  for (const [file, source] of [...tree.files].sort(([a], [b]) => a.localeCompare(b))) {
    const owner = ownerOf(file, tree.packages);
    const isSrc = owner.dir !== '' && file.startsWith(`${owner.dir}/src/`);
    const isProductionScript = file.startsWith('scripts/') && !devScripts.has(file);
    for (const { specifier, typeOnly, line } of importsOf(source)) {
      if (excepted.has(`${file} ${specifier}`)) continue;
      const at = `${file}:${line}`;
      const report = (rule: Rule, message: string) => violations.push({ rule, at, message: `${message} (${specifier})` });
      if (specifier.startsWith('@rtm/')) {
        const target = packageNameOf(specifier);
        if (target === owner.name) continue;
        imported.get(owner.name)!.add(target);
        if (!known.has(target)) {
          report('undeclared', `${target} is not a package of this repository`);
          continue;
        }
        if (owner.declared && !owner.declared.has(target)) report('undeclared', `${owner.name} imports ${target} but its package.json does not list it`);
        const from = layerOf.get(owner.name);
        const to = layerOf.get(target);
        if (from === undefined || to === undefined) continue;
        if (to > from || (to === from && !sameLayer.has(`${owner.name} ${target}`))) {
          report('upward', `${owner.name} (${table.layers[from]!.name}) imports ${target} (${table.layers[to]!.name})`);
        }
        continue;
      }
      if (!specifier.startsWith('.')) continue;
      const path = posix.normalize(posix.join(posix.dirname(file), specifier));
      if (path.startsWith('test/')) {
        if (!typeOnly && !devScripts.has(file)) report('test-helper', 'a test helper loaded outside the tests and the dev scripts');
        continue;
      }
      const targetOwner = ownerOf(path, tree.packages);
      const buildReach = (isBuildScript(file) && !isSrc && buildHelpers.has(path)) || (devScripts.has(file) && isBuildScript(path));
      if (targetOwner !== owner && !buildReach) {
        report('cross-package', `a relative import from ${owner.name} into ${targetOwner.name}: import it by its package name`);
      }
      if (!typeOnly && isBuildScript(path) && (isSrc || (isProductionScript && (!path.startsWith('scripts/') || devScripts.has(path))))) {
        report('build-script', `${isSrc ? 'run-time code' : 'a production script'} loads a build script`);
      }
    }
  }

  for (const p of tree.packages) {
    if (!p.declared) continue;
    for (const dep of p.declared) {
      if (!imported.get(p.name)!.has(dep)) violations.push({ rule: 'unused', at: p.name, message: `${p.name} lists ${dep}, which none of its files imports` });
    }
  }
  for (const circle of circles(imported))
    violations.push({ rule: 'circle', at: circle[0]!, message: `packages import each other: ${[...circle, circle[0]].join(' -> ')}` });
  return violations;
}

/** The strongly connected groups of more than one package (Tarjan), each as one path round it. */
export function circles(graph: Map<string, Set<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return groups;
}
