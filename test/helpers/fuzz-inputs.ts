/**
 * The generated bad input of the hostile-input fuzz test (test/hostile.fuzz.test.ts): nasty
 * strings, numbers and values, raw path segments, query values and bodies no JSON serialiser would
 * produce, forged credentials, the client frames of the sockets, and the operations of a served
 * OpenAPI document (so a new route is fuzzed without touching the test).
 */
import fc from 'fast-check';

export const NASTY_STRINGS = [
  '',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfffy',
  '\u202e\u0301',
  '💥'.repeat(40),
  'x'.repeat(129),
  'x'.repeat(5_000),
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "'; drop table messages; --",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection probe, meant literally
  '${jndi:ldap://x}',
  '99999999999999999999999',
  '-1',
  '1e309',
  'NaN',
  'null',
  '   ',
];

/** Percent-encodes every UTF-8 byte (encodeURIComponent throws on lone surrogates). */
export const encodeAll = (s: string) => [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

export const nastyString = fc.oneof(fc.constantFrom(...NASTY_STRINGS), fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }));

/** Raw path segments: valid ids, encoded nasty strings, and percent-encoding that decodes to nothing valid. */
export const pathSegment = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_.:@=-]{1,128}$/),
  nastyString.map((s) => encodeAll(s) || '%25'),
  fc.constantFrom('%ZZ', '%C0%AE', '%', '%E0%80', '%ED%A0%80', '%F4%90%80%80', '%00', 'a%2Fb', '..', '.', 'x'.repeat(129), 'y'.repeat(2_000)),
);

export const nastyNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true }),
  // biome-ignore lint/correctness/noPrecisionLoss: 2^53 + 1 on purpose, the first integer a double cannot hold
  fc.constantFrom(2 ** 53, 2 ** 63, -(2 ** 63) - 1, 1e308, -0, 9007199254740993),
);

export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  nastyNumber,
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(nastyString, { maxLength: 5 }),
  fc.dictionary(nastyString, nastyString, { maxKeys: 4 }),
);

export const queryValue = fc.oneof(
  nastyString.map(encodeAll),
  nastyNumber.map(String),
  fc.constantFrom('%ZZ', '%00', '99999999999999999999', '-5', '1.5', '', 'pending', 'dropped'),
);

export function deep(depth: number, open: string, close: string, leaf = '1'): string {
  return open.repeat(depth) + leaf + close.repeat(depth);
}

/** Raw request bodies that no JSON serialiser would produce. */
export const rawBody = fc.constantFrom<string | Buffer>(
  '{',
  '{"a":}',
  '[1,2,',
  '\u0000',
  '"\\ud800"',
  '{"content":{"a":"\\u0000"}}',
  '{"content":{"a":"\\udc00"}}',
  '1e99999',
  deep(65, '[', ']'),
  deep(10_000, '[', ']'),
  deep(10_000, '{"a":', '}'),
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
  Buffer.from([0xc0, 0xae]),
  JSON.stringify({ content: { text: 'x'.repeat(70_000) } }),
  'x'.repeat(300_000),
);

export interface Operation {
  host: 'control' | 'realtime';
  method: string;
  path: string;
  bodyKeys: string[] | undefined;
  queryKeys: string[];
}

/** The operations of a served OpenAPI document, with their body's property names. */
export function operationsOf(doc: any, host: Operation['host']): Operation[] {
  const resolve = (schema: any): any => {
    if (schema?.$ref) return resolve(doc.components.schemas[schema.$ref.split('/').pop()]);
    if (schema?.anyOf) return { properties: Object.assign({}, ...schema.anyOf.map((s: any) => resolve(s)?.properties ?? {})) };
    return schema;
  };
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'delete', 'patch'].includes(method)) continue;
      const schema = resolve(op.requestBody?.content?.['application/json']?.schema);
      out.push({
        host,
        method: method.toUpperCase(),
        path,
        bodyKeys: op.requestBody ? Object.keys(schema?.properties ?? {}) : undefined,
        queryKeys: (op.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name),
      });
    }
  }
  return out;
}

export function forgedJwt(header: object, payload: object): string {
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${b64(header)}.${b64(payload)}.${Buffer.from('sig').toString('base64url')}`;
}

export const hostileCredential = fc.oneof(
  nastyString.map((kid) => forgedJwt({ alg: 'HS256', kid, typ: 'JWT' }, { sub: 'u', aud: 'realtime' })),
  fc.constantFrom(
    forgedJwt({ alg: 'none' }, { sub: 'u' }),
    forgedJwt({ alg: 'HS256', kid: 'x'.repeat(10_000) }, {}),
    'sk_%00',
    'pk_' + 'a'.repeat(5_000),
    'not a token',
  ),
);

/** Every client frame type of the channel, inbox and multiplexed sockets, with generated fields, and frames of no type at all. */
export const clientFrames: Record<string, fc.Arbitrary<string | Buffer>> = {
  publish: fc
    .record(
      {
        op: fc.constant('publish'),
        ref: nastyValue,
        type: nastyValue,
        content: fc.oneof(nastyValue, fc.dictionary(nastyString, nastyValue, { maxKeys: 3 })),
        ephemeral: nastyValue,
        to: nastyValue,
        mentions: nastyValue,
        idempotencyKey: nastyValue,
      },
      { requiredKeys: ['op'] },
    )
    .map((f) => JSON.stringify(f)),
  retract: fc
    .record({ op: fc.constant('retract'), ref: nastyValue, id: nastyValue, reason: nastyValue }, { requiredKeys: ['op'] })
    .map((f) => JSON.stringify(f)),
  ping: fc.record({ op: fc.constant('ping'), ref: nastyValue }, { requiredKeys: ['op'] }).map((f) => JSON.stringify(f)),
  // the multiplexed socket's channel frames: a subscription, and presence with data
  subscribe: fc
    .record(
      { op: fc.constant('subscribe'), ref: nastyValue, channelId: fc.oneof(nastyValue, fc.constant('fuzz')), since: nastyValue, occupancy: nastyValue },
      { requiredKeys: ['op'] },
    )
    .map((f) => JSON.stringify(f)),
  presence: fc
    .record(
      {
        op: fc.constantFrom('presence-enter', 'presence-update', 'presence-leave'),
        ref: nastyValue,
        channelId: fc.oneof(nastyValue, fc.constant('fuzz')),
        data: fc.oneof(nastyValue, fc.jsonValue({ maxDepth: 3 }), fc.string({ minLength: 1000, maxLength: 2000 })),
      },
      { requiredKeys: ['op'] },
    )
    .map((f) => JSON.stringify(f)),
  other: fc.oneof(
    fc.record({ op: nastyValue }).map((f) => JSON.stringify(f)),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    rawBody,
    fc.constantFrom('', 'null', '[]', '"ping"', deep(100, '{"op":', '}', '"ping"')),
  ),
};
