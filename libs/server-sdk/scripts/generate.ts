/**
 * Writes src/schema.d.ts, the TypeScript types of docs/openapi.json (openapi-typescript), which
 * the client is typed with. `--check` writes nothing and exits 1 when the committed file differs
 * (the OpenAPI document changed and `npm run generate -w @rtm/server` was not run).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const DOCUMENT = new URL('../../../docs/openapi.json', import.meta.url);
export const SCHEMA_FILE = fileURLToPath(new URL('../src/schema.d.ts', import.meta.url));

const HEADER = `/**
 * Generated from docs/openapi.json by openapi-typescript: run \`npm run generate -w @rtm/server\`
 * (or \`npm run sdk:generate\` at the root) after the document changes. Do not edit by hand.
 */

`;

/** The text src/schema.d.ts must hold for the current docs/openapi.json. */
export async function renderSchemaTypes(): Promise<string> {
  const document = JSON.parse(await readFile(DOCUMENT, 'utf8')) as Parameters<typeof openapiTS>[0];
  const ast = await openapiTS(document, { silent: true });
  return HEADER + astToString(ast);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = await renderSchemaTypes();
  if (process.argv.includes('--check')) {
    const current = await readFile(SCHEMA_FILE, 'utf8').catch(() => null);
    if (current !== text) {
      process.stderr.write(
        `libs/server-sdk/src/schema.d.ts is ${current === null ? 'missing' : 'stale'}: run \`npm run generate -w @rtm/server\` and commit it.\n`,
      );
      process.exit(1);
    }
    process.stdout.write('libs/server-sdk/src/schema.d.ts is up to date\n');
  } else {
    await writeFile(SCHEMA_FILE, text);
    process.stdout.write('wrote libs/server-sdk/src/schema.d.ts\n');
  }
}
