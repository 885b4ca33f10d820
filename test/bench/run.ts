/**
 * `npm run bench [-- name…]`: runs each `test/bench/<name>.bench.ts` (all by default) one after
 * another, each in its own process, so one benchmark's leftovers never load the next. Each
 * prints its own details; at the end one table lists every goal the benchmarks reported
 * (report.ts): our figure, the baseline measured in the same run, the ratio and whether the goal
 * is met. BENCH_REPEAT=3 runs the whole set three times and the table shows each goal's median
 * ratio (with every run's ratio beside it).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatRatio, type GoalRow } from './report.ts';

const dir = fileURLToPath(new URL('./', import.meta.url));
const wanted = process.argv.slice(2);
const repeat = Math.max(1, Number(process.env.BENCH_REPEAT ?? 1));
const files = readdirSync(dir)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => wanted.length === 0 || wanted.includes(file.replace(/\.bench\.ts$/, '')))
  .sort();
if (files.length === 0) {
  process.stderr.write(`no benchmark matches ${wanted.join(', ')}\n`);
  process.exit(64);
}
const scratch = mkdtempSync(join(tmpdir(), 'rtm-bench-'));
const runs: GoalRow[][] = [];
let failed = false;
for (let run = 0; run < repeat; run++) {
  const report = join(scratch, `run-${run}.jsonl`);
  for (const file of files) {
    process.stdout.write(`\n=== ${file}${repeat > 1 ? ` (run ${run + 1} of ${repeat})` : ''}\n`);
    const result = spawnSync(process.execPath, ['--import', 'tsx', dir + file], {
      stdio: 'inherit',
      env: { ...process.env, BENCH_REPORT: report },
    });
    if (result.status !== 0) failed = true;
  }
  runs.push(
    existsSync(report)
      ? readFileSync(report, 'utf8')
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as GoalRow)
      : [],
  );
}
rmSync(scratch, { recursive: true, force: true });
printTable(runs);
process.exit(failed ? 1 : 0);

function printTable(all: GoalRow[][]): void {
  const paths = [...new Set(all.flat().map((row) => row.path))];
  if (paths.length === 0) return;
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const lines = [
    repeat > 1 ? `\nGoals: medians of ${repeat} runs (each run's ratio in brackets)\n` : '\nGoals\n',
    '| path | goal | measured | baseline (same run) | ratio | met |',
    '|---|---|---|---|---|---|',
  ];
  for (const path of paths) {
    const rows = all.map((run) => run.find((row) => row.path === path)).filter((row): row is GoalRow => row !== undefined);
    const mid = median(rows.map((row) => row.ratio));
    const row = rows.find((r) => r.ratio === mid)!;
    const each = rows.length > 1 ? ` [${rows.map((r) => formatRatio(r.ratio)).join(' / ')}]` : '';
    lines.push(`| ${path} | ${row.goal} | ${row.measured} | ${row.baseline || '—'} | ${formatRatio(mid)}${each} | ${row.met ? 'yes' : 'no'} |`);
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
