/**
 * Writes the Python SDK's generated modules (sdks/python/src/rtm_server/models.py and
 * operations.py) from docs/openapi.json. The kept Python generators (openapi-python-client,
 * datamodel-code-generator) would add runtime dependencies and are not installable everywhere
 * this repository is built, so the models come from this script: TypedDicts from the standard
 * library only.
 *
 *   npx tsx scripts/generate-python-sdk.ts                    write them
 *   npx tsx scripts/generate-python-sdk.ts --check            exit 1 when the committed ones differ
 *   … --input other.json --out dir                            another document / output folder
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join, relative } from 'node:path';
import { apiModel } from './python-sdk/openapi-model.ts';
import { renderModels, renderOperations } from './python-sdk/render.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DEFAULT_INPUT = join(ROOT, 'docs/openapi.json');
export const DEFAULT_OUT = join(ROOT, 'sdks/python/src/rtm_server');

/** The generated files (name → text) for the OpenAPI document at `input`. */
export async function renderPythonSdk(input = DEFAULT_INPUT): Promise<Record<string, string>> {
  const model = apiModel(JSON.parse(await readFile(input, 'utf8')));
  return { 'models.py': renderModels(model), 'operations.py': renderOperations(model) };
}

/** The files of `out` that differ from what `input` generates (missing ones included). */
export async function staleFiles(input = DEFAULT_INPUT, out = DEFAULT_OUT): Promise<string[]> {
  const stale: string[] = [];
  for (const [name, text] of Object.entries(await renderPythonSdk(input))) {
    const current = await readFile(join(out, name), 'utf8').catch(() => null);
    if (current !== text) stale.push(join(out, name));
  }
  return stale;
}

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(name);
  return at >= 0 && process.argv[at + 1] ? process.argv[at + 1]! : fallback;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const input = option('--input', DEFAULT_INPUT);
  const out = option('--out', DEFAULT_OUT);
  const shown = (path: string) => relative(process.cwd(), path) || path;
  if (process.argv.includes('--check')) {
    const stale = await staleFiles(input, out);
    if (stale.length > 0) {
      process.stderr.write(
        `${stale.map(shown).join(', ')} ${stale.length === 1 ? 'is' : 'are'} stale: run \`npx tsx scripts/generate-python-sdk.ts\` and commit.\n`,
      );
      process.exit(1);
    }
    process.stdout.write(`the Python SDK's generated modules are up to date\n`);
  } else {
    await mkdir(out, { recursive: true });
    for (const [name, text] of Object.entries(await renderPythonSdk(input))) {
      await writeFile(join(out, name), text);
      process.stdout.write(`wrote ${shown(join(out, name))}\n`);
    }
  }
}
