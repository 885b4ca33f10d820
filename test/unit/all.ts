/**
 * Runs every unit test file in one process (`npm run test:unit`, and first in `npm test`): unit
 * tests start no processes and touch no network, so they share one module graph and finish in
 * seconds instead of paying a TypeScript loader start-up per file.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
for (const name of readdirSync(dir).sort()) {
  if (!name.endsWith('.test.ts')) continue;
  if (only.length > 0 && !only.some((part) => name.includes(part))) continue;
  await import(pathToFileURL(join(dir, name)).href);
}
