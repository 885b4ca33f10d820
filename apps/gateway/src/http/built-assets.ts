/**
 * Static files a build step writes into a directory (the SDK bundle, the dashboard UI), served
 * by the gateway with strong ETags.
 *
 * start(): reads the files from `dir`. The gateway only serves them: it never builds them (no
 *          bundler at run time; `npm run build` writes them for production, set-up for
 *          development). When one is missing, `problem` says which and how to build it, and the
 *          routes answer 503 with it. The directory is watched, so a rebuild while the gateway
 *          runs is served at once (the files are read again 200 ms after the last change, once
 *          the build has written them all).
 * stop():  stops watching.
 */
import { createHash } from 'node:crypto';
import { watch, type FSWatcher } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Logger } from '@rtm/ops';

/** A static file served with a strong ETag. */
export interface Asset {
  body: Buffer;
  etag: string;
  type: string;
}

export function assetOf(body: Uint8Array, type: string): Asset {
  const buffer = Buffer.from(body);
  return { body: buffer, etag: `"${createHash('sha256').update(buffer).digest('base64url').slice(0, 32)}"`, type };
}

/** True when `If-None-Match` names the asset's ETag (or is `*`). */
export function notModified(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const tags = (Array.isArray(header) ? header.join(',') : header).split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  return tags.includes(etag) || tags.includes('*');
}

export interface BuiltAssets<N extends string> {
  start(): Promise<void>;
  stop(): void;
  /** The asset of `name`, or undefined while none is available. */
  asset(name: N): Asset | undefined;
  /** Why there are no files, when there are none. */
  readonly problem: string | undefined;
}

export function createBuiltAssets<F extends string, N extends string>(options: {
  log: Logger;
  /** What the files are, for people: `the SDK bundle` (its 503 reason) and `sdk bundle` (log lines). */
  title: string;
  label: string;
  /** The directory the build writes (ending in `/`), and its name and command for messages. */
  dir: string;
  dirName: string;
  command: string;
  /** The files the build writes. */
  files: readonly F[];
  /** The assets served from the files' bytes. */
  assetsOf: (files: Record<F, Uint8Array>) => Map<N, Asset>;
  /** The asset whose ETag a reload logs. */
  main: N;
}): BuiltAssets<N> {
  const { log, dir } = options;
  let assets: Map<N, Asset> | undefined;
  let problem: string | undefined;
  let watcher: FSWatcher | undefined;
  let reloadTimer: ReturnType<typeof setTimeout> | undefined;

  /** The assets, or why there are none (the first file that could not be read). */
  const readDist = async (): Promise<Map<N, Asset> | string> => {
    const bodies: Uint8Array[] = [];
    for (const name of options.files) {
      try {
        bodies.push(await readFile(dir + name));
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        return code === 'ENOENT' ? `${options.dirName}/${name} is missing` : `${options.dirName}/${name} cannot be read (${code ?? String(error)})`;
      }
    }
    return options.assetsOf(Object.fromEntries(options.files.map((name, i) => [name, bodies[i]!])) as unknown as Record<F, Uint8Array>);
  };

  const watchDist = () => {
    try {
      watcher = watch(dir, () => {
        clearTimeout(reloadTimer);
        reloadTimer = setTimeout(async () => {
          const fresh = await readDist();
          if (typeof fresh !== 'string') {
            assets = fresh;
            problem = undefined;
            log.info({ etag: fresh.get(options.main)?.etag }, `${options.label} reloaded`);
          }
        }, 200);
      });
      watcher.on('error', () => watcher?.close());
      watcher.unref();
    } catch {
      // no dist directory: nothing to watch
    }
  };

  return {
    get problem() {
      return problem;
    },
    async start() {
      const read = await readDist();
      if (typeof read === 'string') {
        problem = `${options.title} is not built (${read}): run ${options.command}`;
        log.error({ dir }, `${options.label} unavailable: ${problem}`);
      } else {
        assets = read;
      }
      watchDist();
    },
    stop() {
      clearTimeout(reloadTimer);
      watcher?.close();
      watcher = undefined;
    },
    asset(name) {
      return assets?.get(name);
    },
  };
}
