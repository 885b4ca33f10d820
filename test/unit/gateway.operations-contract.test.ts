import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OPERATIONS, type Operation } from '@rtm/schemas';
import { buildOfflineGateway } from '../../apps/gateway/src/http/build-openapi-document.ts';

type Host = keyof typeof OPERATIONS;
/** What the contract and a registered route are compared on. */
interface Described {
  method: string;
  path: string;
  operationId: string;
}

/** fastify's `:param` URL as OpenAPI writes it. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const describe = (operation: Operation): Described => ({
  method: operation.method,
  path: openApiPath(operation.url),
  operationId: operation.schema.operationId,
});
const line = (d: Described) => `${d.method} ${d.path} ${d.operationId}`;

/** Every documented /v1 operation a listener serves, from its own OpenAPI document. */
function registered(document: { paths?: Record<string, Record<string, { operationId?: string }>> }): Described[] {
  return Object.entries(document.paths ?? {})
    .filter(([path]) => path.startsWith('/v1/'))
    .flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ method: method.toUpperCase(), path, operationId: operation.operationId ?? '(none)' })),
    );
}

/** Routes without an operation in the catalogue, and operations no route implements. */
function differences(routes: Described[], catalogue: Described[]) {
  const routeLines = new Set(routes.map(line));
  const catalogueLines = new Set(catalogue.map(line));
  return {
    unlisted: [...routeLines].filter((l) => !catalogueLines.has(l)).sort(),
    unimplemented: [...catalogueLines].filter((l) => !routeLines.has(l)).sort(),
  };
}

const duplicates = (values: string[]) => values.filter((value, i) => values.indexOf(value) !== i);

test('every operation of a host has its own operationId and its own method and path', () => {
  for (const host of ['control', 'realtime'] as const) {
    const operations = OPERATIONS[host];
    assert.ok(operations.length > 0, host);
    assert.deepEqual(duplicates(operations.map((o) => o.schema.operationId)), [], `${host}: operationIds`);
    assert.deepEqual(duplicates(operations.map((o) => `${o.method} ${o.url}`)), [], `${host}: method and path`);
  }
});

test('an operation served on both hosts has one method and path, and one operationId names one operation', () => {
  const all = [...OPERATIONS.control, ...OPERATIONS.realtime];
  for (const operation of all) {
    const sameId = all.filter((o) => o.schema.operationId === operation.schema.operationId);
    const sameRoute = all.filter((o) => o.method === operation.method && o.url === operation.url);
    for (const other of sameId) assert.equal(`${other.method} ${other.url}`, `${operation.method} ${operation.url}`, operation.schema.operationId);
    for (const other of sameRoute) assert.equal(other.schema.operationId, operation.schema.operationId, `${operation.method} ${operation.url}`);
  }
});

test('the comparison names a route missing from the catalogue and an operation no route implements', () => {
  const a = { method: 'GET', path: '/v1/a', operationId: 'getA' };
  const b = { method: 'PUT', path: '/v1/b/{id}', operationId: 'putB' };
  assert.deepEqual(differences([a, b], [a, b]), { unlisted: [], unimplemented: [] });
  assert.deepEqual(differences([a, b], [a]), { unlisted: ['PUT /v1/b/{id} putB'], unimplemented: [] });
  assert.deepEqual(differences([a], [a, b]), { unlisted: [], unimplemented: ['PUT /v1/b/{id} putB'] });
});

test('every /v1 route the gateway documents implements an operation of the catalogue, and every operation is served', async () => {
  const { gateway, close } = await buildOfflineGateway();
  try {
    for (const host of ['control', 'realtime'] as const satisfies Host[]) {
      const routes = registered(gateway[host].swagger() as Parameters<typeof registered>[0]);
      assert.ok(routes.length > 0, host);
      const catalogue = OPERATIONS[host].map(describe);
      assert.deepEqual(differences(routes, catalogue), { unlisted: [], unimplemented: [] }, host);
      for (const operation of OPERATIONS[host]) assert.ok(gateway[host].hasRoute({ method: operation.method, url: operation.url }), line(describe(operation)));
    }
  } finally {
    await close();
  }
});
