/**
 * Running the Python SDK's programs from a test: finding python3, one-shot runs, and a program
 * spoken to in JSON lines (stdout one object a line, stdin the answers).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'node:test';

export const PYTHON_SDK = fileURLToPath(new URL('../../sdks/python/', import.meta.url));
export const PYTHON = process.env.PYTHON ?? 'python3';
/** The SDK's own environment (scripts/setup.sh `setup_python_sdk`): setuptools and wheel for the wheel build. */
export const SDK_VENV_PYTHON = `${PYTHON_SDK}.venv/bin/python`;

/** Why Python cannot be used here (for t.skip), or null when `python` answers and is ≥ 3.9. */
export function pythonMissing(python = PYTHON): string | null {
  const probe = spawnSync(python, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) return `${python} not found: ${probe.error?.message ?? probe.stderr.trim()}`;
  const [major, minor] = probe.stdout.trim().split('.').map(Number);
  return major! > 3 || (major === 3 && minor! >= 9) ? null : `${python} is ${probe.stdout.trim()}, the SDK needs 3.9 or later`;
}

export interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end (asynchronously, so the test's cluster keeps being served). */
export function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string | undefined>; timeoutMs?: number } = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

export interface Conversation {
  /** The next line the program prints, parsed; it must be of `kind`. */
  next(kind: string, limitMs?: number): Promise<Record<string, any>>;
  send(message: Record<string, unknown>): void;
  /** The exit status, once the program ends; stderr for the failure message. */
  exited: Promise<{ status: number | null; stderr: string }>;
  child: ChildProcess;
}

/** Starts `python args…` and speaks JSON lines with it; killed when the test ends. */
export function converse(t: TestContext, python: string, args: string[], options: { cwd: string; env: Record<string, string | undefined> }): Conversation {
  const child = spawn(python, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
  t.after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<{ status: number | null; stderr: string }>((resolve) => child.on('close', (status) => resolve({ status, stderr })));
  const lines: string[] = [];
  const wake = new Set<() => void>();
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const w of wake) w();
  });
  return {
    child,
    exited,
    send: (message) => child.stdin!.write(`${JSON.stringify(message)}\n`),
    next(kind, limitMs = 60_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => finish(() => reject(new Error(`no ${kind} line from Python in ${limitMs} ms; stderr:\n${stderr}`))), limitMs);
        const finish = (then: () => void) => {
          clearTimeout(timer);
          wake.delete(check);
          then();
        };
        const check = () => {
          const line = lines.shift();
          if (line === undefined) return;
          const message = JSON.parse(line) as Record<string, any>;
          if (message.kind !== kind) finish(() => reject(new Error(`expected ${kind} from Python, got ${line}; stderr:\n${stderr}`)));
          else finish(() => resolve(message));
        };
        wake.add(check);
        void exited.then(() => {
          if (wake.has(check) && lines.length === 0) finish(() => reject(new Error(`Python ended before ${kind}; stderr:\n${stderr}`)));
        });
        check();
      });
    },
  };
}
