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
import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ: 100 on every Linux this runs on. */
const CLOCK_TICKS = 100;

/**
 * CPU time a process has used so far (user + system), in µs, from /proc (Linux); NaN when it is
 * gone. Read before and after a phase and divided by what the phase did, it gives CPU µs per
 * message for that process.
 */
export function cpuMicros(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    // fields after the command name (which may hold spaces): utime is the 12th, stime the 13th
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/** utime + stime of `pid`, in seconds; 0 when it is gone. */
function cpuSeconds(pid: number): number {
  const micros = cpuMicros(pid);
  return Number.isNaN(micros) ? 0 : micros / 1e6;
}

/** The pids of the machine's processes whose /proc name is `name` (e.g. `postgres`, `nats-server`). */
export function pidsNamed(name: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/stat`, 'utf8').includes(`(${name})`)) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/**
 * CPU time used so far by every Postgres process of this machine (the server and its backends,
 * as /proc names them), in µs: read around a phase run alone, it is the database's share. A
 * backend that exits during the phase takes its time with it, so this errs low.
 */
export function postgresCpuMicros(): number {
  let total = 0;
  for (const pid of pidsNamed('postgres')) {
    const micros = cpuMicros(pid);
    if (!Number.isNaN(micros)) total += micros;
  }
  return total;
}

/** CPU time every process of the machine used so far (/proc/stat's busy jiffies), in µs. */
export function machineCpuMicros(): number {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
  return ((user! + nice! + system! + irq! + softirq! + steal!) * 1_000_000) / CLOCK_TICKS;
}

/** CPU time this process (the load generator) has used so far, in µs. */
export function selfCpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** What a meter watches: named groups of pids, or a function giving them at each reading. */
export type Groups = Record<string, () => number[]>;

export const byName = (name: string) => () => pidsNamed(name);

/**
 * `root()` and every process descended from it, at each reading (a postmaster and its backends,
 * WAL sender or receiver, writers): one Postgres server of several on the machine. Nothing when
 * `root()` gives no pid.
 */
export const treeOf = (root: () => number | undefined) => (): number[] => {
  const top = root();
  if (top === undefined) return [];
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const tree = new Set(parents.has(top) ? [top] : []);
  for (let grew = tree.size > 0; grew; ) {
    grew = false;
    for (const [pid, ppid] of parents) {
      if (!tree.has(pid) && tree.has(ppid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  return [...tree];
};
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

/** `CPU µs/msg: gateway 14.6, channel-node 15.2, …; total …`, for the groups that spent anything. */
export function perMessage(spent: Record<string, number>, messages: number): string {
  if (messages <= 0) return '';
  // one decimal: a change to a message's path is often a fraction of a µs per process
  const parts = Object.entries(spent)
    .map(([group, seconds]) => [group, ((seconds * 1e6) / messages).toFixed(1)] as const)
    .filter(([, micros]) => micros !== '0.0')
    .map(([group, micros]) => `${group} ${micros}`);
  const total = Object.values(spent).reduce((a, b) => a + b, 0);
  return `CPU µs/msg: ${parts.join(', ')}; total ${((total * 1e6) / messages).toFixed(1)}`;
}
