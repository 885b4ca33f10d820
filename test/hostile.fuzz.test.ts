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
import { startCluster } from './helpers/cluster.ts';
import { mintToken, request } from './helpers/http.ts';
import { LIMIT_NAMES, QUOTA_NAMES } from '@rtm/rules';
import { clientFrames, hostileCredential, nastyValue, operationsOf, pathSegment, queryValue, rawBody, type Operation } from './helpers/fuzz-inputs.ts';
import { DOCUMENTED_CLOSE, assertAcceptable, internalErrors, openSocket, type Answer } from './helpers/fuzz-checks.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
/**
 * The time the properties may take together. Each gets an equal share of what is left
 * (fast-check's `interruptAfterTimeLimit`): on a quiet machine every property makes its RUNS
 * cases well within it; on a loaded one a property makes fewer instead of the file overrunning its
 * time-out. A failure found is a failure either way.
 */
const BUDGET_MS = Number(process.env.FUZZ_BUDGET_MS ?? 110_000);

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
    // an event stream (GET /v1/events) that opened never ends: its 200 is the answer
    if (String(res.headers['content-type']).startsWith('text/event-stream')) {
      res.body.destroy();
      return { status: res.statusCode, headers: res.headers, text: '' };
    }
    return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
  };

  const operations = [
    ...operationsOf((await request(gateway.controlUrl, 'GET', '/openapi.json')).body, 'control'),
    ...operationsOf((await request(gateway.realtimeUrl, 'GET', '/openapi.json')).body, 'realtime'),
  ];
  assert.ok(operations.length >= 20, `only ${operations.length} operations in the OpenAPI documents`);
  const budgetEnds = Date.now() + BUDGET_MS;
  let propertiesLeft = operations.length + 1 + 3 * Object.keys(clientFrames).length;
  let interrupted = 0;
  const runs = () => {
    const share = Math.max(2_000, (budgetEnds - Date.now()) / Math.max(1, propertiesLeft--));
    return {
      numRuns: RUNS,
      interruptAfterTimeLimit: share,
      markInterruptAsFailure: false,
      endOnFailure: true,
      includeErrorInReport: true,
      reporter: (details: { failed: boolean; interrupted: boolean }) => {
        if (details.interrupted) interrupted++;
        if (details.failed) throw new Error(fc.defaultReportMessage(details as never));
      },
    };
  };

  await t.test(`every route, ${RUNS} cases each`, async () => {
    for (const op of operations) {
      const credential = op.host === 'control' ? attacker.secretKey : userToken;
      const segments = op.path.match(/\{[^}]+\}/g) ?? [];
      await fc.assert(
        fc.asyncProperty(
          fc.array(pathSegment, { minLength: segments.length, maxLength: segments.length }),
          fc.array(fc.tuple(fc.constantFrom(...op.queryKeys, 'limit', 'junk'), queryValue), { maxLength: 3 }),
          fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: hostileCredential }),
          fc.oneof(
            { weight: 4, arbitrary: fc.constant('application/json') },
            { weight: 1, arbitrary: fc.constantFrom('text/plain', 'application/json; charset=latin1', 'multipart/form-data; boundary=x', '') },
          ),
          fc.oneof(
            {
              weight: 3,
              arbitrary: fc
                .dictionary(fc.constantFrom(...(op.bodyKeys?.length ? op.bodyKeys : ['x'])), nastyValue, { maxKeys: 6 })
                .map((o) => JSON.stringify(o)),
            },
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
        runs(),
      );
    }
  });

  await t.test(`every limit of the configuration, generated values, ${RUNS} cases`, async () => {
    // the names come from the served document, so a new limit is fuzzed without touching this file
    const doc = (await request(gateway.controlUrl, 'GET', '/openapi.json')).body;
    const resolve = (schema: any): any => (schema?.$ref ? resolve(doc.components.schemas[schema.$ref.split('/').pop()]) : schema);
    const deployBody = resolve(doc.paths['/v1/config'].put.requestBody.content['application/json'].schema);
    const names = Object.keys(resolve(deployBody.properties.limits).properties);
    assert.deepEqual([...names].sort(), [...LIMIT_NAMES, ...QUOTA_NAMES].sort(), 'every limit and monthly quota is in the document');
    const quotas: ReadonlySet<string> = new Set(QUOTA_NAMES);
    const headers = { authorization: `Bearer ${attacker.secretKey}`, 'content-type': 'application/json' };
    await fc.assert(
      fc.asyncProperty(
        // the key's own rate stays high, so a low one generated here does not turn the next cases into 429s
        fc.dictionary(
          fc.constantFrom(...names.filter((name) => name !== 'secretKeyRequestsPerSecond')),
          fc.oneof(nastyValue, fc.integer({ min: -2, max: 1_000_000_002 })),
          { maxKeys: names.length },
        ),
        async (generated) => {
          const limits: Record<string, unknown> = { ...generated, secretKeyRequestsPerSecond: 1_000_000_000 };
          const answer = await send('control', 'PUT', '/v1/config', headers, JSON.stringify({ limits }));
          assertAcceptable(`PUT /v1/config limits=${JSON.stringify(limits).slice(0, 200)}`, answer);
          if (answer.status !== 200) return;
          const inForce = JSON.parse(answer.text).config.limits;
          for (const name of names) {
            const asked = limits[name];
            if (asked !== undefined) assert.equal(inForce[name], asked, name);
            else if (quotas.has(name)) assert.equal(inForce[name], null, `${name}: not asked, unlimited`);
            else assert.ok(Number.isInteger(inForce[name]) && inForce[name] >= 1, name);
          }
        },
      ),
      runs(),
    );
    // back to the defaults for the sockets below
    assert.equal((await send('control', 'PUT', '/v1/config', headers, JSON.stringify({}))).status, 200);
  });

  await t.test(`every client frame type on the channel, inbox and multiplexed sockets, ${RUNS} cases each`, async () => {
    for (const [kind, path] of [
      ['channel', `/v1/channels/fuzz?token=${userToken}`],
      ['inbox', `/inbox?token=${userToken}`],
      ['connect', `/v1/connect?token=${userToken}`],
    ] as const) {
      for (const [type, frame] of Object.entries(clientFrames)) {
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
          runs(),
        );
        socket.ws.terminate();
      }
    }
  });

  t.diagnostic(`${interrupted} properties made fewer than ${RUNS} cases in their share of ${BUDGET_MS} ms`);
  stopTenant = true;
  await tenantLoop;
  assert.ok(tenantPublished > 0, 'the well-behaved tenant published nothing');
  assert.deepEqual(tenantFailures, [], 'the well-behaved tenant saw failures');
  for (const proc of [...cluster.gateways, ...cluster.channelNodes]) {
    assert.equal(proc.child.exitCode, null, `${proc.name} exited`);
    assert.deepEqual(internalErrors(proc), [], `${proc.name} logged internal errors`);
  }
});
