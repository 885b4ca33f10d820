/**
 * Response serializers compiled from the routes' zod schemas: each response schema is turned into
 * JSON Schema once (zod's own conversion) and compiled by fast-json-stringify, the serializer
 * Fastify uses for JSON Schema routes. Why: the zod serializer encodes every response through zod
 * (a walk and a copy of the whole value) and then calls JSON.stringify; for a publish's
 * `{id, seq, timestamp}` that is ~4.8 µs against ~0.2 µs compiled, on every request of the
 * hottest route, and it grows with a history page's messages.
 *
 * What a response carries is the same: declared properties only (zod strips unknown keys; the
 * compiled schemas say `additionalProperties: false`), `content` and other open values written
 * by JSON.stringify. A required property that is missing still fails the response (500), as
 * before; values of the wrong type are no longer caught here (they are the handlers' types).
 * A schema zod cannot express as JSON Schema keeps the zod serializer.
 */
import fastJsonStringify from 'fast-json-stringify';
import { z } from 'zod';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';

type Serialize = (data: unknown) => string;
type RouteSchema = Parameters<typeof zodSerializerCompiler>[0];

/** One compiled serializer per schema object: ErrorBody and friends are shared by every route. */
const compiled = new WeakMap<object, Serialize>();

function compile(schema: z.ZodType): Serialize | undefined {
  let json: unknown;
  try {
    json = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'throw' });
  } catch {
    return undefined;
  }
  try {
    return fastJsonStringify(json as Parameters<typeof fastJsonStringify>[0]) as Serialize;
  } catch {
    return undefined;
  }
}

export function compiledSerializerCompiler(route: RouteSchema): Serialize {
  const schema = route.schema as unknown;
  if (!(schema instanceof z.ZodType)) return zodSerializerCompiler(route);
  let serialize = compiled.get(schema);
  if (!serialize) {
    serialize = compile(schema) ?? zodSerializerCompiler(route);
    compiled.set(schema, serialize);
  }
  return serialize;
}
