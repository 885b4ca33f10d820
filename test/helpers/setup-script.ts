import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Runs functions of scripts/setup.sh (`calls`, e.g. `setup_postgres && echo DONE`) in a clean
 * environment: a dry run (SETUP_DRY_RUN=1, nothing installed or started) unless `real`.
 */
export function runSetup(calls: string, options: { real?: boolean; env?: Record<string, string> } = {}) {
  const result = spawnSync('bash', ['-c', `source scripts/setup.sh; ${calls}`], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...(options.real ? {} : { SETUP_DRY_RUN: '1' }), ...options.env },
    encoding: 'utf8',
  });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}
