/**
 * Runs child processes and keeps them running: `npm start`'s process manager.
 *
 * A child's states: starting → running (it printed its `listening` line) → exited. An exit while
 * the supervisor is not stopping is a crash: the child is started again after a backoff
 * (0.5 s, 1 s, 2 s … 30 s; reset once it has stayed up for a minute). Exit code 78 is a
 * configuration error, which a restart cannot fix: the supervisor stops everything instead.
 * `stop()` sends SIGTERM to every child (each drains and exits 0), waits, and SIGKILLs whatever
 * is left after the grace period. A child that did not drain (it ended by a signal, or with a
 * non-zero code) is named in the log and makes the supervisor end non-zero (`stopOutcome`).
 *
 * Children run in their own process groups, so a Ctrl-C in the terminal reaches the supervisor
 * only and each child gets exactly one SIGTERM from it (a second signal would make a child skip
 * its drain).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { createInterface } from 'node:readline';
import { formatLogLine } from './format-log-line.ts';

export interface ChildSpec {
  name: string;
  /** Arguments to `node` (e.g. ['--import', 'tsx', 'apps/gateway/src/main.ts']). */
  args: string[];
  env: NodeJS.ProcessEnv;
}

interface Child {
  spec: ChildSpec;
  index: number;
  process: ChildProcess | null;
  startedAt: number;
  failures: number;
  restartTimer: NodeJS.Timeout | null;
}

interface Events {
  /** A child printed its `{"msg":"listening",…}` line (ports it bound). */
  listening: [name: string, info: Record<string, unknown>];
  /** A child exited while the supervisor was running; `restartInMs` null: not restarted. */
  exited: [name: string, code: number | null, signal: NodeJS.Signals | null, restartInMs: number | null];
  /** Everything has stopped; the exit code the supervisor should end with. */
  stopped: [code: number];
}

const CONFIG_ERROR_EXIT = 78;
const STABLE_MS = 60_000;
/** The supervisor's exit code when a child did not drain during stop. */
export const UNCLEAN_STOP_EXIT = 1;

/** How one child ended after the stop's SIGTERM. */
export interface ChildEnd {
  name: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * The supervisor's exit code after a stop and a line for every child that did not drain: only a
 * child that exited 0 drained; one ended by a signal (its SIGTERM handler was not installed yet,
 * or the grace period ran out and it was SIGKILLed) or with another code did not. The code asked
 * for (78 after a configuration error) wins over the generic 1.
 */
export function stopOutcome(requested: number, ends: readonly ChildEnd[]): { code: number; problems: { name: string; line: string }[] } {
  const problems = ends
    .filter((end) => end.code !== 0)
    .map((end) => ({
      name: end.name,
      line: end.signal ? `ended by ${end.signal} during stop: it did not drain` : `exited with code ${end.code} during stop: it did not drain cleanly`,
    }));
  return { code: requested !== 0 ? requested : problems.length ? UNCLEAN_STOP_EXIT : 0, problems };
}

/**
 * Calls `onGone` once when this process's parent has gone (its parent process id changed: the
 * orphan was adopted by init or a subreaper). `npm start` runs the supervisor under npm and a
 * shell; a SIGTERM to npm ends npm and that shell but never reaches the supervisor, which must
 * still stop the cluster it runs. The timer does not keep the process alive.
 */
export function watchParent(onGone: () => void, options: { intervalMs?: number; ppid?: () => number } = {}): () => void {
  const ppid = options.ppid ?? (() => process.ppid);
  const parent = ppid();
  const timer = setInterval(() => {
    if (ppid() === parent) return;
    clearInterval(timer);
    onGone();
  }, options.intervalMs ?? 250);
  timer.unref();
  return () => clearInterval(timer);
}

export class Supervisor extends EventEmitter<Events> {
  private readonly children: Child[] = [];
  private readonly cwd: string;
  private readonly colour: boolean;
  private readonly graceMs: number;
  private readonly write: (line: string) => void;
  private stopping: Promise<number> | null = null;

  constructor(options: { cwd: string; colour: boolean; graceMs?: number; write?: (line: string) => void }) {
    super();
    this.cwd = options.cwd;
    this.colour = options.colour;
    this.graceMs = options.graceMs ?? 20_000;
    this.write = options.write ?? ((line) => process.stdout.write(`${line}\n`));
    // the supervisor itself dying (an uncaught error) must not leave orphans behind
    process.once('exit', () => {
      for (const child of this.children) child.process?.kill('SIGKILL');
    });
  }

  add(spec: ChildSpec): void {
    // a stop that came first (a signal while `npm start` was still setting up) starts nothing
    if (this.stopping) return;
    const child: Child = { spec, index: this.children.length, process: null, startedAt: 0, failures: 0, restartTimer: null };
    this.children.push(child);
    this.launch(child);
  }

  private get width(): number {
    return Math.max(...this.children.map((c) => c.spec.name.length));
  }

  private print(child: Child, line: string): void {
    this.write(formatLogLine(child.spec.name, line, { colour: this.colour, index: child.index, width: this.width }));
  }

  private launch(child: Child): void {
    child.restartTimer = null;
    child.startedAt = Date.now();
    const proc = spawn(process.execPath, child.spec.args, {
      cwd: this.cwd,
      env: child.spec.env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child.process = proc;
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      this.print(child, line);
      if (line.startsWith('{"msg":"listening"')) {
        try {
          this.emit('listening', child.spec.name, JSON.parse(line) as Record<string, unknown>);
        } catch {
          // not the announcement after all
        }
      }
    });
    createInterface({ input: proc.stderr! }).on('line', (line) => this.print(child, line));
    proc.once('error', (error) => this.print(child, `could not start: ${error.message}`));
    proc.once('exit', (code, signal) => this.exited(child, proc, code, signal));
  }

  private exited(child: Child, proc: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (child.process !== proc) return;
    child.process = null;
    if (this.stopping) return;
    if (code === CONFIG_ERROR_EXIT) {
      this.print(child, 'exited with a configuration error (78): stopping everything');
      this.emit('exited', child.spec.name, code, signal, null);
      void this.stop(CONFIG_ERROR_EXIT);
      return;
    }
    if (Date.now() - child.startedAt >= STABLE_MS) child.failures = 0;
    const delay = Math.min(30_000, 500 * 2 ** child.failures);
    child.failures += 1;
    this.print(child, `exited (${signal ?? `code ${code}`}); restarting in ${delay} ms`);
    this.emit('exited', child.spec.name, code, signal, delay);
    child.restartTimer = setTimeout(() => this.launch(child), delay);
  }

  /** SIGTERM to all, wait (SIGKILL after the grace period); resolves with the exit code. */
  stop(code = 0): Promise<number> {
    this.stopping ??= (async () => {
      const running = this.children.filter((c) => {
        if (c.restartTimer) clearTimeout(c.restartTimer);
        return c.process !== null;
      });
      const ends = await Promise.all(
        running.map(async (child): Promise<ChildEnd> => {
          const proc = child.process!;
          const gone = new Promise<ChildEnd>((resolve) => proc.once('exit', (exitCode, signal) => resolve({ name: child.spec.name, code: exitCode, signal })));
          proc.kill('SIGTERM');
          const timer = setTimeout(() => {
            this.print(child, `still running after ${this.graceMs} ms: SIGKILL`);
            proc.kill('SIGKILL');
          }, this.graceMs);
          const end = await gone;
          clearTimeout(timer);
          return end;
        }),
      );
      const outcome = stopOutcome(code, ends);
      for (const problem of outcome.problems) {
        const child = this.children.find((c) => c.spec.name === problem.name)!;
        this.print(child, problem.line);
      }
      this.emit('stopped', outcome.code);
      return outcome.code;
    })();
    return this.stopping;
  }

  /** A second Ctrl-C: no more waiting. */
  killAll(): void {
    for (const child of this.children) child.process?.kill('SIGKILL');
  }
}
