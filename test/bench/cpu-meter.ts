/**
 * CPU time spent by each process of a benchmark during a window, so a case can report CPU µs per
 * message for every process (the service's, Postgres, NATS and the load generator itself), read
 * from /proc (user + system time, in clock ticks of 10 ms: over a window of seconds and thousands
 * of messages that resolution is ample).
 *
 * Postgres is every process named `postgres` (the backends of every connection, the WAL writer
 * and the checkpointer included: what a message costs the database); NATS is `nats-server`. A
 * process that exits within the window loses its time from the sum, so windows are taken while
 * the pools are steady.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const TICK_SECONDS = 0.01;

/** utime + stime of `pid`, in seconds; 0 when it is gone. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces: count the fields after its closing parenthesis
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_SECONDS;
  } catch {
    return 0;
  }
}

function pidsNamed(name: string): number[] {
  try {
    return execFileSync('pgrep', ['-x', name], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** What a meter watches: named groups of pids, or a function giving them at each reading. */
export type Groups = Record<string, () => number[]>;

export const byName = (name: string) => () => pidsNamed(name);
export const self = () => [process.pid];

function read(groups: Groups): Map<string, Map<number, number>> {
  const out = new Map<string, Map<number, number>>();
  for (const [group, pids] of Object.entries(groups)) out.set(group, new Map(pids().map((pid) => [pid, cpuSeconds(pid)])));
  return out;
}

/** Starts a window; `end()` gives each group's CPU seconds within it (pids present at both readings). */
export function cpuWindow(groups: Groups): { end: () => Record<string, number> } {
  const before = read(groups);
  return {
    end() {
      const after = read(groups);
      const spent: Record<string, number> = {};
      for (const [group, pids] of after) {
        let total = 0;
        for (const [pid, seconds] of pids) {
          const start = before.get(group)?.get(pid);
          if (start !== undefined) total += Math.max(0, seconds - start);
        }
        spent[group] = total;
      }
      return spent;
    },
  };
}

/** `gateway 61 µs, channel-node 30 µs, …` per message, for the groups that spent anything. */
export function perMessage(spent: Record<string, number>, messages: number): string {
  if (messages <= 0) return '';
  const parts = Object.entries(spent)
    .map(([group, seconds]) => [group, Math.round((seconds * 1e6) / messages)] as const)
    .filter(([, micros]) => micros > 0)
    .map(([group, micros]) => `${group} ${micros}`);
  const total = Object.values(spent).reduce((a, b) => a + b, 0);
  return `CPU µs/msg: ${parts.join(', ')}; total ${Math.round((total * 1e6) / messages)}`;
}
