/**
 * The SDK packages as a user outside this repository gets them: `npm pack` in each package
 * directory (its prepack builds dist/), then `npm install` of the tarballs into a directory under
 * the system's temporary directory with its own package.json, so nothing resolves through the
 * workspace. One install per test file.
 */
import type { TestContext } from 'node:test';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';

const run = promisify(execFile);
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The repository's own tsc, run by absolute path (types still resolve from the checked directory). */
export const TSC = join(REPO_ROOT, 'node_modules/typescript/bin/tsc');

/** The environment without what an enclosing `npm test` sets for its scripts (workspace, prefix, …). */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
  return { ...env, ...extra };
}

export interface InstalledPackages {
  /** The directory outside the repository, with package.json and node_modules. */
  dir: string;
  /** The tarballs `npm pack` wrote, by package directory (e.g. `libs/client`). */
  tarballs: Record<string, string>;
}

/**
 * Packs `packageDirs` (relative to the repository) into a temporary directory, and installs the
 * tarballs plus `extra` packages from the registry into another one, outside the repository.
 */
export async function packAndInstall(t: TestContext, packageDirs: string[], extra: string[] = []): Promise<InstalledPackages> {
  const packed = await mkdtemp(join(tmpdir(), 'rtm-packed-'));
  const dir = await mkdtemp(join(tmpdir(), 'rtm-out-of-repo-'));
  t.after(() => Promise.all([rm(packed, { recursive: true, force: true }), rm(dir, { recursive: true, force: true })]));
  const tarballs: Record<string, string> = {};
  // one at a time, in order: a package's build may read an earlier one's dist (@rtm/react reads @rtm/client's types)
  for (const packageDir of packageDirs) {
    const destination = join(packed, packageDir.replaceAll('/', '-'));
    await mkdir(destination, { recursive: true });
    try {
      await run('npm', ['pack', '--pack-destination', destination], { cwd: join(REPO_ROOT, packageDir), env: cleanEnv(), maxBuffer: 1 << 24 });
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string };
      throw new Error(`npm pack in ${packageDir} failed:\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`);
    }
    const [file] = (await readdir(destination)).filter((name) => name.endsWith('.tgz'));
    if (!file) throw new Error(`npm pack in ${packageDir} wrote no tarball`);
    tarballs[packageDir] = join(destination, file);
  }
  await writeFile(join(dir, 'package.json'), `${JSON.stringify({ name: 'rtm-outside', private: true, type: 'module' }, null, 2)}\n`);
  try {
    await run('npm', ['install', ...packageDirs.map((packageDir) => tarballs[packageDir]!), ...extra, '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: dir,
      env: cleanEnv(),
      maxBuffer: 1 << 24,
    });
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    throw new Error(`npm install in ${dir} failed:\n${failed.stdout ?? ''}\n${failed.stderr ?? ''}`);
  }
  return { dir, tarballs };
}

/** Runs `command` in `cwd`; resolves with its exit code and output (never rejects on a non-zero exit). */
export async function runIn(cwd: string, command: string, args: string[], env: Record<string, string> = {}, timeoutMs = 120_000) {
  try {
    const { stdout, stderr } = await run(command, args, { cwd, env: cleanEnv(env), timeout: timeoutMs, maxBuffer: 1 << 24 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number | string; stdout?: string; stderr?: string };
    return { code: typeof failed.code === 'number' ? failed.code : 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? String(error) };
  }
}
