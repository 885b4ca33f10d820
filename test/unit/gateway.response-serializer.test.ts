import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { z } from 'zod';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { BatchPublishResponse, ErrorBody, HistoryResponse, PublishResponse, messageEnvelope } from '@rtm/schemas';
import { compiledSerializerCompiler } from '../../apps/gateway/src/http/response-serializer.ts';

type Route = Parameters<typeof compiledSerializerCompiler>[0];
const route = (schema: z.ZodType): Route => ({ schema, method: 'GET', url: '/x', httpStatus: '200' }) as unknown as Route;
const both = (schema: z.ZodType) => ({ compiled: compiledSerializerCompiler(route(schema)), zod: zodSerializerCompiler(route(schema)) });

test('the compiled serializer writes what the zod serializer wrote, byte for byte', () => {
  const publish = both(PublishResponse);
  assert.equal(publish.compiled({ id: 'msg_1', seq: 7, timestamp: 1_700_000_000_000 }), publish.zod({ id: 'msg_1', seq: 7, timestamp: 1_700_000_000_000 }));
  const error = both(ErrorBody);
  for (const body of [{ code: 'forbidden' }, { code: 'forbidden', reason: 'no "access" \u2028 here' }]) assert.equal(error.compiled(body), error.zod(body));
  const batch = both(BatchPublishResponse);
  const results = { results: [{ id: 'msg_1', seq: 1, timestamp: 2 }, { id: 'msg_2', ephemeral: true }, { error: { code: 'rate_limited', reason: 'over' } }] };
  assert.equal(batch.compiled(results), batch.zod(results));
});

test('history pages with any content carry what the zod serializer carried, content in its own order', () => {
  const history = both(HistoryResponse);
  const envelope = fc.record({
    // "__proto__" as a key of content: zod's copy of the record loses it (it sets the prototype),
    // the compiled serializer writes it as it is; bodies holding it are refused at the edge anyway
    content: fc.dictionary(
      fc.string().filter((key) => key !== '__proto__'),
      fc.jsonValue(),
    ),
    retracted: fc.boolean(),
    to: fc.option(fc.array(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 3 }), { nil: undefined }),
    seq: fc.nat(),
  });
  fc.assert(
    fc.property(fc.array(envelope, { maxLength: 5 }), fc.boolean(), (parts, hasMore) => {
      const messages = parts.map((p) =>
        messageEnvelope({
          id: `msg_${p.seq}`,
          seq: p.seq,
          type: 'message',
          kind: 'user',
          content: p.content,
          sender: { id: 'u', anon: false },
          timestamp: 1,
          retracted: p.retracted,
          ephemeral: false,
          to: p.to,
        }),
      );
      const page = { messages, hasMore };
      const text = history.compiled(page);
      // the same value (the envelope's optional fields may come in another place)…
      assert.deepEqual(JSON.parse(text), JSON.parse(history.zod(page)));
      // …and each content as JSON.stringify writes it, keys in their order
      for (const message of messages) if (message.content) assert.ok(text.includes(`"content":${JSON.stringify(message.content)}`));
    }),
    { numRuns: 300 },
  );
});

test('undeclared properties are left out and a missing required property fails', () => {
  const publish = both(PublishResponse);
  assert.equal(publish.compiled({ id: 'msg_1', seq: 1, timestamp: 2, secret: 'x' }), '{"id":"msg_1","seq":1,"timestamp":2}');
  assert.throws(() => publish.compiled({ id: 'msg_1', seq: 1 }));
});

test('one compiled serializer per schema', () => {
  assert.equal(compiledSerializerCompiler(route(ErrorBody)), compiledSerializerCompiler(route(ErrorBody)));
});
