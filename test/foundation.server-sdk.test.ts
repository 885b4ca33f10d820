/**
 * The server SDK follows docs/openapi.json: its generated types are current, and every
 * operation of the control plane has a method that calls it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { renderSchemaTypes, SCHEMA_FILE } from '../libs/server-sdk/scripts/generate.ts';

const DOCUMENT = new URL('../docs/openapi.json', import.meta.url);
// the client's methods, and those it takes from endpoints.ts and message-changes.ts
const CLIENT_SOURCES = ['client.ts', 'endpoints.ts', 'message-changes.ts'].map((file) => new URL(`../libs/server-sdk/src/${file}`, import.meta.url));
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

type Operation = { operationId?: string; tags?: string[] };
type Doc = { paths: Record<string, Record<string, Operation> & { servers?: Array<{ url: string }> }> };

test('server SDK - generated types are current and every control-plane operation has a method', async (t) => {
  await t.test('libs/server-sdk/src/schema.d.ts matches docs/openapi.json (run `npm run sdk:generate` when this fails)', async () => {
    const committed = await readFile(SCHEMA_FILE, 'utf8').catch(() => '(missing)');
    assert.ok(committed === (await renderSchemaTypes()), 'schema.d.ts is stale: run `npm run sdk:generate` and commit it');
  });

  // the dashboard's routes are for people signed in with a session cookie, not for a backend's secret key
  await t.test('every secret-key operation served on the control plane is called by the client', async () => {
    const doc = JSON.parse(await readFile(DOCUMENT, 'utf8')) as Doc;
    const source = (await Promise.all(CLIENT_SOURCES.map((file) => readFile(file, 'utf8')))).join('\n');
    const missing: string[] = [];
    let count = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      if (!item.servers?.some((server) => server.url === '{base_url}')) continue;
      for (const method of METHODS.filter((m) => m in item)) {
        if (item[method]!.tags?.includes('dashboard')) continue;
        count++;
        if (!source.includes(`api.${method.toUpperCase()}('${path}'`)) missing.push(`${method.toUpperCase()} ${path} (${item[method]!.operationId})`);
      }
    }
    assert.ok(count >= 24, `${count} control-plane operations`);
    assert.deepEqual(missing, [], 'operations without an SDK method');
  });
});
