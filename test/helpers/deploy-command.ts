/**
 * What every check of the files under deploy/ shares (test/helpers/deploy-checks.ts): the
 * repository's root, the configuration variables each process reads (libs/config), and which
 * process a command line starts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CONFIG_VARIABLES } from '@rtm/config';
import { NODE_FLAGS } from '@rtm/ops';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const read = (path: string) => readFileSync(`${ROOT}${path}`, 'utf8');

export type Kind = 'gateway' | 'channel-node' | 'dispatcher' | 'migrate';
export const KINDS = ['gateway', 'channel-node', 'dispatcher'] as const;

// ---------------------------------------------------------------- environment variable names

/** Variables each process's configuration schema reads (libs/config); migrate reads the shared part. */
export function configVariables(kind: Kind): Set<string> {
  if (kind !== 'migrate') return new Set(CONFIG_VARIABLES[kind]);
  return new Set(CONFIG_VARIABLES.gateway.filter((v) => CONFIG_VARIABLES['channel-node'].includes(v) && CONFIG_VARIABLES.dispatcher.includes(v)));
}
const ALL_VARIABLES = new Set(KINDS.flatMap((k) => CONFIG_VARIABLES[k]));

export function unknownVariables(where: string, kind: Kind | 'any', names: Iterable<string>): string[] {
  const known = kind === 'any' ? ALL_VARIABLES : configVariables(kind);
  return [...names]
    .filter((n) => !known.has(n))
    .map((n) => `${where}: ${n} is not a configuration variable of ${kind === 'any' ? 'any process' : `the ${kind}`}`);
}

// ---------------------------------------------------------------- process commands

/**
 * Which process a command line starts, or a problem: it must be node itself running a compiled
 * entry point of `npm run build` (build/apps/<kind>/src/main.js, build/scripts/migrate.js) with
 * no loader (no tsx: production runs JavaScript), and with the node options that process runs
 * with (libs/ops/src/node-flags.ts) before the entry point.
 */
export function checkCommand(where: string, words: readonly string[]): { kind?: Kind; problems: string[] } {
  let rest = [...words];
  while (rest[0] && /^[A-Z_][A-Z0-9_]*=/.test(rest[0])) rest = rest.slice(1); // VAR=value prefixes
  if (rest[0] === '/usr/bin/tini' || rest[0] === 'tini') rest = rest.slice(rest[1] === '--' ? 2 : 1);
  const problems: string[] = [];
  if (words.some((w) => /(^|\/)(npm|npx|yarn|pnpm)$/.test(w))) problems.push(`${where}: starts the process through a package manager (${words.join(' ')})`);
  if (!/^(\/usr\/(local\/)?bin\/)?node$/.test(rest[0] ?? '')) problems.push(`${where}: does not start node directly (${words.join(' ')})`);
  if (rest.some((w) => w === 'tsx' || /^--(import|loader|require)\b/.test(w) || w === '-r')) {
    problems.push(`${where}: loads code before the entry point (tsx?): production runs the build with plain node (${words.join(' ')})`);
  }
  const i = rest.findIndex((w, n) => n > 0 && !w.startsWith('-') && rest[n - 1] !== '--import');
  const entry = i > 0 ? rest[i] : undefined;
  if (!entry || !/^build\/.*\.js$/.test(entry))
    return { problems: [...problems, `${where}: no 'node build/<entry point>.js' of npm run build (${words.join(' ')})`] };
  const source = entry.replace(/^build\//, '').replace(/\.js$/, '.ts');
  if (!existsSync(`${ROOT}${source}`)) problems.push(`${where}: ${entry} is not built from anything (no ${source})`);
  const kind = /^build\/apps\/(gateway|channel-node|dispatcher)\/src\/main\.js$/.exec(entry)?.[1] as (typeof KINDS)[number] | undefined;
  const options = rest
    .slice(1, i)
    .filter((w) => !/^--(import|loader|require)$/.test(w) && w !== 'tsx')
    .join(' ');
  if (entry === 'build/scripts/migrate.js') {
    if (options) problems.push(`${where}: migrate runs with node's defaults, not '${options}'`);
    return { kind: 'migrate', problems };
  }
  if (!kind) problems.push(`${where}: ${entry} is not a process entry point`);
  else if (options !== NODE_FLAGS[kind].join(' '))
    problems.push(`${where}: the ${kind} runs with node options '${NODE_FLAGS[kind].join(' ')}' (libs/ops/src/node-flags.ts), not '${options}'`);
  return { kind, problems };
}
