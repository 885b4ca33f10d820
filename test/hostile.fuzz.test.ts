/**
 * Generated bad input against every route of both public listeners (taken from the served
 * OpenAPI document, so a new route is fuzzed without touching this file) and every client frame
 * type of the sockets, while a well-behaved tenant publishes beside it. Each answer must be a 4xx
 * envelope (or a success: generated input is sometimes valid), or, on a socket, an error frame or a
 * documented close code; never a 5xx, an internal error in the logs, or a process exit; and the
 * other tenant sees no failure.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Pool as HttpPool } from 'undici';
import WebSocket from 'ws';
import { startCluster, type RunningProcess } from './helpers/cluster.ts';
import { mintToken, request } from './helpers/http.ts';
import { LIMIT_NAMES } from '@rtm/limits';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);

/** Close codes a socket may end with on bad input (docs/limits.md). */
const DOCUMENTED_CLOSE = new Set([1000, 4400, 4401, 4403, 4404, 4429, 4503]);

// ---- generators ------------------------------------------------------------------------------

const NASTY_STRINGS = [
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
  '${jndi:ldap://x}',
  '99999999999999999999999',
  '-1',
  '1e309',
  'NaN',
  'null',
  '   ',
];

/** Percent-encodes every UTF-8 byte (encodeURIComponent throws on lone surrogates). */
const encodeAll = (s: string) => [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

const nastyString = fc.oneof(
  fc.constantFrom(...NASTY_STRINGS),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** Raw path segments: valid ids, encoded nasty strings, and percent-encoding that decodes to nothing valid. */
const pathSegment = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_.:@=-]{1,128}$/),
  nastyString.map((s) => encodeAll(s) || '%25'),
  fc.constantFrom('%ZZ', '%C0%AE', '%', '%E0%80', '%ED%A0%80', '%F4%90%80%80', '%00', 'a%2Fb', '..', '.', 'x'.repeat(129), 'y'.repeat(2_000)),
);

const nastyNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constantFrom(2 ** 53, 2 ** 63, -(2 ** 63) - 1, 1e308, -0, 9007199254740993),
);

const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  nastyString,
  nastyNumber,
  fc.boolean(),
  fc.constant(null),
  fc.jsonValue({ maxDepth: 3 }),
  fc.array(nastyString, { maxLength: 5 }),
  fc.dictionary(nastyString, nastyString, { maxKeys: 4 }),
);

const queryValue = fc.oneof(
  nastyString.map(encodeAll),
  nastyNumber.map(String),
  fc.constantFrom('%ZZ', '%00', '99999999999999999999', '-5', '1.5', '', 'pending', 'dropped'),
);

function deep(depth: number, open: string, close: string, leaf = '1'): string {
  return open.repeat(depth) + leaf + close.repeat(depth);
}

/** Raw request bodies that no JSON serialiser would produce. */
const rawBody = fc.constantFrom<string | Buffer>(
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

interface Operation {
  host: 'control' | 'realtime';
  method: string;
  path: string;
  bodyKeys: string[] | undefined;
  queryKeys: string[];
}

/** The operations of a served OpenAPI document, with their body's property names. */
function operationsOf(doc: any, host: Operation['host']): Operation[] {
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

function forgedJwt(header: object, payload: object): string {
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${b64(header)}.${b64(payload)}.${Buffer.from('sig').toString('base64url')}`;
}

const hostileCredential = fc.oneof(
  nastyString.map((kid) => forgedJwt({ alg: 'HS256', kid, typ: 'JWT' }, { sub: 'u', aud: 'realtime' })),
  fc.constantFrom(
    forgedJwt({ alg: 'none' }, { sub: 'u' }),
    forgedJwt({ alg: 'HS256', kid: 'x'.repeat(10_000) }, {}),
    'sk_%00',
    'pk_' + 'a'.repeat(5_000),
    'not a token',
  ),
);

// ---- checks ----------------------------------------------------------------------------------

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function assertAcceptable(what: string, answer: Answer): void {
  assert.ok(answer.status < 500, `${what} → ${answer.status} ${answer.text.slice(0, 300)}`);
  if (answer.status < 400) return;
  let body: any;
  try {
    body = JSON.parse(answer.text);
  } catch {
    assert.fail(`${what} → ${answer.status} without a JSON envelope: ${answer.text.slice(0, 200)}`);
  }
  assert.equal(typeof body.code, 'string', `${what} → ${answer.status} ${answer.text.slice(0, 200)}`);
  assert.equal(answer.headers['x-service-error'], body.code, `${what}: x-service-error header`);
  assert.doesNotMatch(answer.text, /\n\s*at |node_modules|\.[jt]s:\d+:\d+/, `${what}: stack trace in the body`);
}

/** Every internal error a process logged (refusals are not errors). */
function internalErrors(proc: RunningProcess): string[] {
  return proc.output.filter((line) => /"level":(50|60)|internal error|uncaught|unhandled/i.test(line));
}

// ---- the test --------------------------------------------------------------------------------

test('fuzz - generated bad input on every route and socket frame: 4xx envelopes or documented closes, and the other tenant never notices', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const gateway = cluster.gateways[0]!;
  const attacker = await cluster.createEnvironment('attacker');
  const tenant = await cluster.createEnvironment('tenant');
  const userToken = await mintToken(gateway.controlUrl, attacker.secretKey, 'fuzzer');

  // the well-behaved tenant publishes all along; every failure it sees is recorded
  const tenantFailures: string[] = [];
  let tenantPublished = 0;
  let stopTenant = false;
  const tenantLoop = (async () => {
    while (!stopTenant) {
      const res = await request(gateway.controlUrl, 'POST', '/v1/channels/steady/messages', {
        token: tenant.secretKey,
        body: { content: { n: tenantPublished } },
      }).catch((error: Error) => ({ status: 0, body: error.message }));
      if (res.status === 201) tenantPublished++;
      else tenantFailures.push(`${res.status} ${JSON.stringify(res.body)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();

  const pools = {
    control: new HttpPool(gateway.controlUrl, { connections: 4 }),
    realtime: new HttpPool(gateway.realtimeUrl, { connections: 4 }),
  };
  t.after(() => Promise.all([pools.control.close(), pools.realtime.close()]));

  const send = async (host: Operation['host'], method: string, path: string, headers: Record<string, string>, body?: string | Buffer): Promise<Answer> => {
    const res = await pools[host].request({ method: method as 'GET', path, headers, body });
    return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
  };

  const operations = [
    ...operationsOf((await request(gateway.controlUrl, 'GET', '/openapi.json')).body, 'control'),
    ...operationsOf((await request(gateway.realtimeUrl, 'GET', '/openapi.json')).body, 'realtime'),
  ];
  assert.ok(operations.length >= 20, `only ${operations.length} operations in the OpenAPI documents`);

  await t.test(`every route, ${RUNS} cases each`, async () => {
    for (const op of operations) {
      const credential = op.host === 'control' ? attacker.secretKey : userToken;
      const segments = op.path.match(/\{[^}]+\}/g) ?? [];
      await fc.assert(
        fc.asyncProperty(
          fc.array(pathSegment, { minLength: segments.length, maxLength: segments.length }),
          fc.array(fc.tuple(fc.constantFrom(...op.queryKeys, 'limit', 'junk'), queryValue), { maxLength: 3 }),
          fc.oneof(
            { weight: 4, arbitrary: fc.constant(undefined) },
            { weight: 1, arbitrary: hostileCredential },
          ),
          fc.oneof(
            { weight: 4, arbitrary: fc.constant('application/json') },
            { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/json; charset=latin1', 'multipart/form-data; boundary=x', '') },
          ),
          fc.oneof(
            { weight: 3, arbitrary: fc.dictionary(fc.constantFrom(...(op.bodyKeys?.length ? op.bodyKeys : ['x'])), nastyValue, { maxKeys: 6 }).map((o) => JSON.stringify(o)) },
            { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
            { weight: 1, arbitrary: rawBody },
            { weight: 1, arbitrary: fc.constant(undefined) },
          ),
          async (params, query, forged, contentType, body) => {
            let i = 0;
            const path = op.path.replace(/\{[^}]+\}/g, () => params[i++]!);
            const search = query.map(([k, v]) => `${k}=${v}`).join('&');
            const headers: Record<string, string> = { authorization: `Bearer ${forged ?? credential}` };
            const withBody = op.method !== 'GET' && body !== undefined;
            if (withBody && contentType) headers['content-type'] = contentType;
            const url = search ? `${path}?${search}` : path;
            const answer = await send(op.host, op.method, url, headers, withBody ? body : undefined);
            assertAcceptable(`${op.host} ${op.method} ${url.slice(0, 200)} body=${String(body).slice(0, 120)}`, answer);
          },
        ),
        { numRuns: RUNS, endOnFailure: true, includeErrorInReport: true },
      );
    }
  });

  await t.test(`every limit of the configuration, generated values, ${RUNS} cases`, async () => {
    // the names come from the served document, so a new limit is fuzzed without touching this file
    const doc = (await request(gateway.controlUrl, 'GET', '/openapi.json')).body;
    const resolve = (schema: any): any => (schema?.$ref ? resolve(doc.components.schemas[schema.$ref.split('/').pop()]) : schema);
    const deployBody = resolve(doc.paths['/v1/config'].put.requestBody.content['application/json'].schema);
    const names = Object.keys(resolve(deployBody.properties.limits).properties);
    assert.deepEqual([...names].sort(), [...LIMIT_NAMES].sort(), 'every limit is in the document');
    const headers = { authorization: `Bearer ${attacker.secretKey}`, 'content-type': 'application/json' };
    await fc.assert(
      fc.asyncProperty(
        // the key's own rate stays high, so a low one generated here does not turn the next cases into 429s
        fc.dictionary(fc.constantFrom(...names.filter((name) => name !== 'secretKeyRequestsPerSecond')), fc.oneof(nastyValue, fc.integer({ min: -2, max: 1_000_000_002 })), { maxKeys: names.length }),
        async (generated) => {
          const limits: Record<string, unknown> = { ...generated, secretKeyRequestsPerSecond: 1_000_000_000 };
          const answer = await send('control', 'PUT', '/v1/config', headers, JSON.stringify({ limits }));
          assertAcceptable(`PUT /v1/config limits=${JSON.stringify(limits).slice(0, 200)}`, answer);
          if (answer.status !== 200) return;
          const inForce = JSON.parse(answer.text).config.limits;
          for (const name of names) {
            const asked = limits[name];
            if (asked !== undefined) assert.equal(inForce[name], asked, name);
            else assert.ok(Number.isInteger(inForce[name]) && inForce[name] >= 1, name);
          }
        },
      ),
      { numRuns: RUNS, endOnFailure: true, includeErrorInReport: true },
    );
    // back to the defaults for the sockets below
    assert.equal((await send('control', 'PUT', '/v1/config', headers, JSON.stringify({}))).status, 200);
  });

  await t.test(`every client frame type on the channel and inbox sockets, ${RUNS} cases each`, async () => {
    const frames: Record<string, fc.Arbitrary<string | Buffer>> = {
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
      other: fc.oneof(
        fc.record({ op: nastyValue }).map((f) => JSON.stringify(f)),
        fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
        rawBody,
        fc.constantFrom('', 'null', '[]', '"ping"', deep(100, '{"op":', '}', '"ping"')),
      ),
    };
    for (const [kind, path] of [
      ['channel', `/v1/channels/fuzz?token=${userToken}`],
      ['inbox', `/inbox?token=${userToken}`],
    ] as const) {
      for (const [type, frame] of Object.entries(frames)) {
        let socket = await openSocket(gateway.realtimeUrl + path);
        await fc.assert(
          fc.asyncProperty(frame, async (payload) => {
            if (socket.closed) socket = await openSocket(gateway.realtimeUrl + path);
            const outcome = await socket.exchange(payload);
            const what = `${kind} socket, ${type} frame ${String(payload).slice(0, 160)}`;
            if (outcome.kind === 'closed') {
              assert.ok(DOCUMENTED_CLOSE.has(outcome.code), `${what}: closed ${outcome.code} ${outcome.reason}`);
            } else if (outcome.kind === 'frame' && outcome.frame.op === 'error') {
              assert.equal(typeof outcome.frame.code, 'string', `${what}: error frame without a code`);
              assert.notEqual(outcome.frame.code, 'internal', `${what}: internal error frame`);
            }
          }),
          { numRuns: RUNS, endOnFailure: true, includeErrorInReport: true },
        );
        socket.ws.terminate();
      }
    }
  });

  stopTenant = true;
  await tenantLoop;
  assert.ok(tenantPublished > 0, 'the well-behaved tenant published nothing');
  assert.deepEqual(tenantFailures, [], 'the well-behaved tenant saw failures');
  for (const proc of [...cluster.gateways, ...cluster.channelNodes]) {
    assert.equal(proc.child.exitCode, null, `${proc.name} exited`);
    assert.deepEqual(internalErrors(proc), [], `${proc.name} logged internal errors`);
  }
});

// ---- a socket that answers one frame at a time ------------------------------------------------

type Outcome = { kind: 'frame'; frame: any } | { kind: 'closed'; code: number; reason: string } | { kind: 'silent' };

async function openSocket(url: string) {
  const ws = new WebSocket(url.replace(/^http/, 'ws'));
  const queue: any[] = [];
  let wake: (() => void) | undefined;
  const state = { closed: false, code: 0, reason: '' };
  ws.on('message', (data) => {
    try {
      queue.push(JSON.parse(String(data)));
    } catch {
      queue.push({ op: 'unparseable', data: String(data) });
    }
    wake?.();
  });
  ws.on('close', (code, reason) => {
    Object.assign(state, { closed: true, code, reason: reason.toString() });
    wake?.();
  });
  ws.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('close', (code) => reject(new Error(`socket refused: ${code}`)));
  });
  // the channel socket says ready first: skip what came before the first exchange
  await new Promise((resolve) => setTimeout(resolve, 50));
  queue.length = 0;
  return {
    ws,
    get closed() {
      return state.closed;
    },
    /** Sends one frame and returns the first thing that happens: a frame back, the close, or silence for 1 s. */
    async exchange(payload: string | Buffer): Promise<Outcome> {
      queue.length = 0;
      if (state.closed) return { kind: 'closed', code: state.code, reason: state.reason };
      ws.send(payload);
      const deadline = Date.now() + 1_000;
      while (Date.now() < deadline) {
        const frame = queue.find((f) => f.op !== 'presence' && f.op !== 'ready' && f.op !== undefined);
        if (frame) return { kind: 'frame', frame };
        if (state.closed) return { kind: 'closed', code: state.code, reason: state.reason };
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, 50);
        });
      }
      return { kind: 'silent' };
    },
  };
}
