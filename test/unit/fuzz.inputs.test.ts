/**
 * The pure parts of the hostile-input fuzz test: the operations it reads from an OpenAPI
 * document (a route it missed would go unfuzzed), the encodings its generators build on, and the
 * rule an HTTP answer must meet.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deep, encodeAll, forgedJwt, operationsOf } from '../helpers/fuzz-inputs.ts';
import { assertAcceptable } from '../helpers/fuzz-checks.ts';

test('fuzz inputs: operationsOf lists every method of every path, with body keys through $ref and anyOf, and query names', () => {
  const doc = {
    components: {
      schemas: {
        Publish: { type: 'object', properties: { content: {}, type: {} } },
        Extra: { type: 'object', properties: { ephemeral: {} } },
      },
    },
    paths: {
      '/v1/channels/{channelId}/messages': {
        parameters: [{ in: 'path', name: 'channelId' }],
        get: {
          parameters: [
            { in: 'query', name: 'limit' },
            { in: 'path', name: 'channelId' },
            { in: 'query', name: 'before' },
          ],
        },
        post: {
          requestBody: {
            content: { 'application/json': { schema: { anyOf: [{ $ref: '#/components/schemas/Publish' }, { $ref: '#/components/schemas/Extra' }] } } },
          },
        },
      },
      '/v1/config': { put: { requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Extra' } } } } } },
    },
  };
  assert.deepEqual(operationsOf(doc, 'control'), [
    { host: 'control', method: 'GET', path: '/v1/channels/{channelId}/messages', bodyKeys: undefined, queryKeys: ['limit', 'before'] },
    { host: 'control', method: 'POST', path: '/v1/channels/{channelId}/messages', bodyKeys: ['content', 'type', 'ephemeral'], queryKeys: [] },
    { host: 'control', method: 'PUT', path: '/v1/config', bodyKeys: ['ephemeral'], queryKeys: [] },
  ]);
});

test('fuzz inputs: encodeAll percent-encodes every UTF-8 byte, lone surrogates included', () => {
  assert.equal(encodeAll('a/'), '%61%2f');
  assert.equal(encodeAll('\ud800'), '%ef%bf%bd');
  assert.equal(encodeAll(''), '');
});

test('fuzz inputs: deep nests, forgedJwt is three base64url parts of the given header and payload', () => {
  assert.equal(deep(2, '[', ']'), '[[1]]');
  assert.equal(deep(1, '{"op":', '}', '"ping"'), '{"op":"ping"}');
  const [header, payload, signature] = forgedJwt({ alg: 'none' }, { sub: 'u' }).split('.');
  assert.deepEqual(JSON.parse(Buffer.from(header!, 'base64url').toString()), { alg: 'none' });
  assert.deepEqual(JSON.parse(Buffer.from(payload!, 'base64url').toString()), { sub: 'u' });
  assert.equal(Buffer.from(signature!, 'base64url').toString(), 'sig');
});

test('fuzz checks: a success or a 4xx envelope with its header passes; a 5xx, a bare 4xx, a mismatched header or a stack trace fails', () => {
  const envelope = (code: string, extra = '') => ({
    status: 400,
    headers: { 'x-service-error': code },
    text: JSON.stringify({ code, reason: `bad${extra}` }),
  });
  assertAcceptable('ok', { status: 200, headers: {}, text: 'anything' });
  assertAcceptable('envelope', envelope('invalid_request'));
  assert.throws(() => assertAcceptable('5xx', { status: 500, headers: {}, text: '' }), /→ 500/);
  assert.throws(() => assertAcceptable('text', { status: 404, headers: {}, text: 'Not Found' }), /without a JSON envelope/);
  assert.throws(() => assertAcceptable('header', { ...envelope('invalid_request'), headers: { 'x-service-error': 'other' } }), /x-service-error/);
  assert.throws(() => assertAcceptable('stack', envelope('invalid_request', '\n    at thing (file.ts:1:2)')), /stack trace/);
});
