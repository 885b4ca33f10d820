import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildAsyncApiDocument } from '@rtm/api-docs';
import { inlineDefs } from '../../libs/api-docs/src/json-schema.ts';

/** Every `$ref` of a document, with where it is. */
function refsOf(node: unknown, at = '#', out: [string, string][] = []): [string, string][] {
  if (Array.isArray(node)) node.forEach((item, i) => refsOf(item, `${at}/${i}`, out));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push([at, value]);
      else refsOf(value, `${at}/${key}`, out);
    }
  }
  return out;
}

/** A `$ref` resolved against the document's root, as a reader of the document resolves it. */
function resolves(doc: unknown, ref: string): boolean {
  if (!ref.startsWith('#/')) return false;
  let node: unknown = doc;
  for (const key of ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))) {
    if (node === null || typeof node !== 'object' || !(key in node)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

test('api-docs - inlineDefs replaces references into $defs by their definitions, nested ones too', () => {
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    properties: {
      reactions: { $ref: '#/$defs/Summary', description: 'kept' },
      list: { type: 'array', items: { $ref: '#/$defs/Count' } },
      other: { $ref: '#/components/schemas/Elsewhere' },
    },
    $defs: {
      Summary: { type: 'object', additionalProperties: { $ref: '#/$defs/Count' }, description: 'replaced' },
      Count: { type: 'integer' },
    },
  };
  assert.deepEqual(inlineDefs(schema), {
    type: 'object',
    properties: {
      reactions: { type: 'object', additionalProperties: { type: 'integer' }, description: 'kept' },
      list: { type: 'array', items: { type: 'integer' } },
      other: { $ref: '#/components/schemas/Elsewhere' },
    },
  });
  assert.throws(() => inlineDefs({ $ref: '#/$defs/Missing' }), /names no definition/);
});

// docs/asyncapi.yaml is the built document written out (test/foundation.asyncapi.test.ts holds them equal)
test('api-docs - every $ref of the AsyncAPI document and of docs/openapi.json resolves from the document root', () => {
  const asyncapi = buildAsyncApiDocument();
  const openapi = JSON.parse(readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
  for (const [name, doc] of [
    ['the AsyncAPI document', asyncapi],
    ['docs/openapi.json', openapi],
  ] as const) {
    const broken = refsOf(doc).filter(([, ref]) => !resolves(doc, ref));
    assert.deepEqual(broken, [], `${name}: references that resolve to nothing`);
  }
});

test('api-docs - every client frame of the AsyncAPI document has a summary', () => {
  const doc = buildAsyncApiDocument() as { channels: { connect: { messages: Record<string, { summary?: string }> } } };
  const missing = Object.entries(doc.channels.connect.messages)
    .filter(([name, message]) => name.startsWith('client.') && !message.summary)
    .map(([name]) => name);
  assert.deepEqual(missing, []);
});

test('api-docs - the event stream documents the frames of the channel sequence: messages, changes, skips', () => {
  const doc = buildAsyncApiDocument() as { channels: { events: { messages: Record<string, { payload: { properties: Record<string, unknown> } }> } } };
  const messages = doc.channels.events.messages;
  for (const key of ['message', 'update', 'summary', 'retract', 'skip']) {
    assert.ok(messages[`event.${key}`], `event.${key} is documented`);
  }
  assert.ok('eventSeq' in messages['event.update']!.payload.properties);
  assert.ok('reactions' in messages['event.summary']!.payload.properties);
});
