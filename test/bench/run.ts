/**
 * `npm run bench [-- name…]`: runs each `test/bench/<name>.bench.ts` (all by default) one after
 * another, each in its own process, so one benchmark's leftovers never load the next. Each
 * prints its own table, comparing against a baseline measured in the same run.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('./', import.meta.url));
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((file) => file.endsWith('.bench.ts'))
  .filter((file) => wanted.length === 0 || wanted.includes(file.replace(/\.bench\.ts$/, '')))
  .sort();
if (files.length === 0) {
  process.stderr.write(`no benchmark matches ${wanted.join(', ')}\n`);
  process.exit(64);
}
let failed = false;
for (const file of files) {
  process.stdout.write(`\n=== ${file}\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', dir + file], { stdio: 'inherit' });
  if (result.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
