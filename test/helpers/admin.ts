import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface AdminResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the admin CLI (scripts/admin.ts) as an operator would, against a cluster's database and
 * NATS (`cluster.env`), with `input` on its standard input when given. Resolves with its exit
 * code and output; never throws on a non-zero exit.
 */
export function runAdmin(env: Record<string, string>, args: string[], options: { input?: string } = {}): Promise<AdminResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    if (options.input !== undefined) child.stdin!.end(options.input);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs the admin CLI and parses its JSON output; throws with its stderr when it fails. */
export async function admin<T = any>(env: Record<string, string>, args: string[]): Promise<T> {
  const result = await runAdmin(env, args);
  if (result.code !== 0) throw new Error(`admin ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as T;
}
