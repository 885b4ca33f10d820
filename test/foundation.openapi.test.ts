import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { renderOpenApi } from '../scripts/write-openapi.ts';
import { DEFAULT_ORIGINS, withServers } from '@rtm/api-docs';
import { startCluster } from './helpers/cluster.ts';
import { request } from './helpers/http.ts';

const FILE = new URL('../docs/openapi.json', import.meta.url);

test('openapi - docs/openapi.json is current and both hosts serve it without credentials', async (t) => {
  const committed = await readFile(FILE, 'utf8');

  await t.test('docs/openapi.json matches the routes (run `npm run openapi` when this fails)', async () => {
    assert.ok(committed === (await renderOpenApi()), 'docs/openapi.json is stale: run `npm run openapi` and commit it');
  });

  const doc = JSON.parse(committed) as {
    openapi: string;
    info: { version: string; license?: unknown };
    servers: unknown[];
    paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
    components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
  };

  await t.test('OpenAPI 3.1.0, interface version 1.0.0, every $ref resolves', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.version, '1.0.0');
    assert.deepEqual(doc.info.license, { identifier: 'MIT', name: 'MIT' }, 'the licence of LICENSE');
    for (const path of ['/v1/tokens', '/v1/tokens/anonymous', '/v1/me']) assert.ok(doc.paths[path], path);
    const refs = [...committed.matchAll(/"\$ref": "#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    for (const ref of new Set(refs)) assert.ok(doc.components.schemas[ref], `unresolved $ref ${ref}`);
    for (const scheme of ['secretKey', 'publishableKey', 'publishableKeyHeader', 'userToken']) {
      assert.ok(doc.components.securitySchemes[scheme], scheme);
    }
  });

  await t.test('GET /openapi.json on both hosts serves the same document, without credentials', async () => {
    const cluster = await startCluster(t, { gateways: 1 });
    const { controlUrl, realtimeUrl } = cluster.gateways[0]!;
    const control = await request(controlUrl, 'GET', '/openapi.json');
    const realtime = await request(realtimeUrl, 'GET', '/openapi.json');
    assert.equal(control.status, 200);
    assert.equal(realtime.status, 200);
    assert.match(control.headers.get('content-type') ?? '', /^application\/json/);
    assert.deepEqual(control.body, realtime.body);
    // the running gateway serves what the file says (key order aside), but for its servers: the
    // file names the default ports on localhost, the gateway itself (test/docs.reference.test.ts)
    assert.deepEqual(withServers(control.body, DEFAULT_ORIGINS), doc);
    assert.notDeepEqual(control.body.servers, doc.servers);
  });
});
