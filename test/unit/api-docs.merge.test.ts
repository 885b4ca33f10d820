import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConnectFrame, SERVER_FRAMES } from '@rtm/schemas';
import { ASYNCAPI_PATH, DEFAULT_ORIGINS, buildAsyncApiDocument, mergeOpenApi, withServers } from '@rtm/api-docs';

const errorRef = { $ref: '#/components/schemas/Error' };
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

/** One host's document as @fastify/swagger writes it, reduced to what the merge reads. */
function hostDoc(paths: Record<string, Record<string, unknown>>, schemas: Record<string, unknown> = {}) {
  return { openapi: '3.1.0', paths, components: { schemas } };
}

test('api-docs - an operation on both hosts is one operation with both credentials and both servers', () => {
  const publish = (security: string) => ({ operationId: 'publishMessage', security: [{ [security]: [] }], responses: { 201: json({}) } });
  const merged = mergeOpenApi(hostDoc({ '/v1/x': { post: publish('secretKey') } }), hostDoc({ '/v1/x': { post: publish('userToken') } }));
  const item = merged.paths!['/v1/x']!;
  assert.deepEqual((item.post as { security: unknown[] }).security, [{ secretKey: [] }, { userToken: [] }]);
  assert.deepEqual(
    (item.servers as { url: string }[]).map((server) => server.url),
    ['{base_url}', '{realtime_url}'],
  );
});

test('api-docs - an operation taking the same credentials on both hosts lists each credential once', () => {
  const mint = { operationId: 'mintAnonymousToken', security: [{ secretKey: [] }, { publishableKey: [] }], responses: { 201: json({}) } };
  const merged = mergeOpenApi(hostDoc({ '/v1/t': { post: mint } }), hostDoc({ '/v1/t': { post: mint } }));
  assert.deepEqual((merged.paths!['/v1/t']!.post as { security: unknown[] }).security, [{ secretKey: [] }, { publishableKey: [] }]);
});

test('api-docs - the same method and path with two operationIds is refused', () => {
  assert.throws(
    () => mergeOpenApi(hostDoc({ '/v1/x': { get: { operationId: 'a' } } }), hostDoc({ '/v1/x': { get: { operationId: 'b' } } })),
    /GET \/v1\/x: operationId a on one host, b on the other/,
  );
});

test('api-docs - control-plane operations document 429; 429 and 503 carry retry-after; descriptions name the error codes', () => {
  const merged = mergeOpenApi(
    hostDoc({ '/v1/c': { get: { operationId: 'c', responses: { 200: json({}), 503: json(errorRef) } } } }),
    hostDoc({ '/v1/r': { get: { operationId: 'r', responses: { 200: json({}) } } } }),
  );
  const control = (merged.paths!['/v1/c']!.get as { responses: Record<string, { description: string; headers?: Record<string, unknown> }> }).responses;
  const realtime = (merged.paths!['/v1/r']!.get as { responses: Record<string, unknown> }).responses;
  assert.deepEqual(Object.keys(control), ['200', '429', '503']);
  assert.equal(control['200']!.description, 'OK');
  assert.ok(control['429']!.headers?.['retry-after'] && control['503']!.headers?.['retry-after']);
  assert.match(control['429']!.description, /`rate_limited`/);
  assert.match(control['503']!.description, /`unavailable`/);
  assert.deepEqual(Object.keys(realtime), ['200'], 'the realtime edge does not get a 429 added');
});

test('api-docs - an optional body is not required, and the marker does not reach the document', () => {
  const merged = mergeOpenApi(
    hostDoc({ '/v1/b': { put: { operationId: 'b', 'x-optional-body': true, requestBody: { required: true, ...json({}) } } } }),
    hostDoc({}),
  );
  const put = merged.paths!['/v1/b']!.put as Record<string, unknown>;
  assert.equal((put.requestBody as { required: boolean }).required, false);
  assert.equal('x-optional-body' in put, false);
});

test('api-docs - only component schemas reached from the paths (transitively) are kept', () => {
  const merged = mergeOpenApi(
    hostDoc(
      { '/v1/s': { get: { operationId: 's', responses: { 200: json({ $ref: '#/components/schemas/Outer' }) } } } },
      { Outer: { properties: { inner: { $ref: '#/components/schemas/Inner' } } }, Inner: { type: 'string' }, Orphan: { type: 'number' } },
    ),
    hostDoc({}),
  );
  assert.deepEqual(Object.keys(merged.components!.schemas as object).sort(), ['Inner', 'Outer']);
});

test('api-docs - withServers points every server object at a deployment and changes nothing else', () => {
  const merged = mergeOpenApi(hostDoc({ '/v1/c': { get: { operationId: 'c' } } }), hostDoc({ '/v1/r': { get: { operationId: 'r' } } }));
  const origins = { control: 'https://api.example.test', realtime: 'https://rt.example.test' };
  const moved = withServers(merged, origins);
  const defaults = (servers: unknown) =>
    (servers as { variables: Record<string, { default: string }> }[]).map((server) => Object.values(server.variables)[0]!.default);
  assert.deepEqual(defaults(moved.servers), [origins.control, origins.realtime]);
  assert.deepEqual(defaults(moved.paths!['/v1/r']!.servers), [origins.realtime]);
  assert.deepEqual(defaults(merged.servers), [DEFAULT_ORIGINS.control, DEFAULT_ORIGINS.realtime], 'the original is untouched');
  assert.deepEqual(moved.components, merged.components);
});

test('api-docs - the AsyncAPI document names the realtime origin and a message for every client op and server frame', () => {
  const doc = buildAsyncApiDocument('https://rt.example.test') as {
    asyncapi: string;
    servers: Record<string, { host: string }>;
    channels: { connect: { messages: Record<string, unknown> } };
  };
  assert.equal(doc.asyncapi, '3.0.0');
  assert.ok(Object.values(doc.servers).some((server) => server.host === 'rt.example.test'));
  const messages = Object.keys(doc.channels.connect.messages);
  // message names are the ops in camel case (`ban-member` is `client.banMember`)
  const clientOps = ConnectFrame.options.map((option) => option.shape.op.value.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()));
  assert.deepEqual(messages.filter((name) => name.startsWith('client.')).sort(), clientOps.map((op) => `client.${op}`).sort());
  assert.equal(messages.filter((name) => name.startsWith('server.')).length, Object.keys(SERVER_FRAMES).length);
  assert.equal(ASYNCAPI_PATH, '/asyncapi.json');
});
