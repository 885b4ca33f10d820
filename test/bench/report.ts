/**
 * One row per goal, for the table `npm run bench` prints at the end. A benchmark calls
 * `reportGoal` for each goal it measures (its figure, the baseline measured in the same run, and
 * the ratio); when run through `test/bench/run.ts` the rows go to the file named by
 * BENCH_REPORT (JSON lines), which run.ts reads after every benchmark has ended. Run alone, a
 * benchmark prints its rows itself and nothing is written.
 */
import { appendFileSync } from 'node:fs';

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
  else
    process.stdout.write(
      `goal: ${row.path}: ${row.measured} vs ${row.baseline || '—'} → ${formatRatio(row.ratio)} (${row.goal}: ${row.met ? 'met' : 'not met'})\n`,
    );
}

export function formatRatio(ratio: number): string {
  return ratio >= 100 ? ratio.toFixed(0) : ratio >= 10 ? ratio.toFixed(1) : ratio.toFixed(2);
}

/** Thousands separated, no decimals (msg/s, deliveries/s). */
export const perSecond = (value: number, unit = 'msg/s'): string => `${Math.round(value).toLocaleString('en-US')} ${unit}`;
