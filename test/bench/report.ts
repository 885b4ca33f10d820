/**
 * One row per goal, for the table `npm run bench` prints at the end. A benchmark calls
 * `reportGoal` for each goal it measures (its figure, the baseline measured in the same run, and
 * the ratio); when run through `test/bench/run.ts` the rows go to the file named by
 * BENCH_REPORT (JSON lines), which run.ts reads after every benchmark has ended. Run alone, a
 * benchmark prints its rows itself and nothing is written.
 */
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';

export interface GoalRow {
  /** What is measured, e.g. "server publish, 1,000 channels". */
  path: string;
  /** The goal as a rule, e.g. "≥ 5× naive". */
  goal: string;
  /** Our figure, with its unit (e.g. "4,504 msg/s"). */
  measured: string;
  /** The baseline's name and figure in the same run (e.g. "naive pg 2,883 msg/s"); "" when the goal is absolute. */
  baseline: string;
  /** measured ÷ baseline, or the figure itself for an absolute goal (ms, bytes). */
  ratio: number;
  /** Whether the goal is met by this run. */
  met: boolean;
}

export function reportGoal(row: GoalRow): void {
  const file = process.env.BENCH_REPORT;
  if (file) appendFileSync(file, `${JSON.stringify(row)}\n`);
  else process.stdout.write(`goal: ${row.path}: ${row.measured} vs ${row.baseline || '—'} → ${formatRatio(row.ratio)} (${row.goal}: ${row.met ? 'met' : 'not met'})\n`);
}

export function formatRatio(ratio: number): string {
  return ratio >= 100 ? ratio.toFixed(0) : ratio >= 10 ? ratio.toFixed(1) : ratio.toFixed(2);
}

/** Thousands separated, no decimals (msg/s, deliveries/s). */
export const perSecond = (value: number, unit = 'msg/s'): string => `${Math.round(value).toLocaleString('en-US')} ${unit}`;

/**
 * CPU time a process has used so far (user + system), in µs, from /proc (Linux). Read before and
 * after a phase and divided by what the phase did, it gives CPU µs per message for that process.
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
/** USER_HZ: 100 on every Linux this runs on. */
const CLOCK_TICKS = 100;

/**
 * CPU time used so far by every Postgres process of this machine (the server and its backends,
 * as /proc names them), in µs: read around a phase run alone, it is the database's share. A
 * backend that exits during the phase takes its time with it, so this errs low.
 */
export function postgresCpuMicros(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      total += cpuMicros(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** CPU time every process of the machine used so far (/proc/stat's busy jiffies), in µs. */
export function machineCpuMicros(): number {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
  return ((user! + nice! + system! + irq! + softirq! + steal!) * 1_000_000) / CLOCK_TICKS;
}
