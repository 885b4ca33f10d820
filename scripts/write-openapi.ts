/**
 * Writes docs/openapi.json from the gateway's routes (the zod schemas that validate requests),
 * without Postgres, NATS or listening. `--check` writes nothing and exits 1 when the file is
 * missing or differs (CI: someone changed a route and did not run `npm run openapi`).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { buildOpenApiDocument } from '@rtm/gateway/openapi-document';

const FILE = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));

/** Objects with their keys sorted (arrays keep their order): the same routes, the same bytes. */
export function stableJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return `${JSON.stringify(sort(value), null, 2)}\n`;
}

export async function renderOpenApi(): Promise<string> {
  return stableJson(await buildOpenApiDocument());
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = await renderOpenApi();
  if (process.argv.includes('--check')) {
    const current = await readFile(FILE, 'utf8').catch(() => null);
    if (current !== text) {
      process.stderr.write(
        `docs/openapi.json is ${current === null ? 'missing' : 'stale'}: the routes changed. Run \`npm run openapi\` and commit the file.\n`,
      );
      process.exit(1);
    }
    process.stdout.write('docs/openapi.json is up to date\n');
  } else {
    await writeFile(FILE, text);
    process.stdout.write(`wrote docs/openapi.json (${Object.keys((JSON.parse(text) as { paths: object }).paths).length} paths)\n`);
  }
}
