import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { errorCode, request, type HttpResult, rawHttp } from './helpers/http.ts';

/** The error envelope (docs/interface.md): JSON `{code, reason?}` only, the header, and no stack trace. */
function assertEnvelope(res: HttpResult, status: number, code: string): void {
  assert.equal(res.status, status, JSON.stringify(res.body));
  assert.equal(errorCode(res), code);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  for (const key of Object.keys(res.body)) assert.ok(key === 'code' || key === 'reason', `unexpected field ${key}`);
  assert.doesNotMatch(JSON.stringify(res.body), /(\\n|\n)\s*at |node_modules|\.[jt]s:\d+:\d+/, 'no stack trace');
}

test('errors - every failure on both public listeners answers the envelope', async (t) => {
  const cluster = await startCluster(t, { gateways: 1 });
  const { controlUrl, realtimeUrl } = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  const auth = { authorization: `Bearer ${env.secretKey}` };

  await t.test('unknown routes and methods: 404 not_found', async () => {
    for (const base of [controlUrl, realtimeUrl]) {
      assertEnvelope(await request(base, 'GET', '/nope'), 404, 'not_found');
      assertEnvelope(await request(base, 'GET', '/'), 404, 'not_found');
      assertEnvelope(await request(base, 'DELETE', '/v1/tokens', { headers: auth }), 404, 'not_found');
    }
    const unknown = await request(controlUrl, 'GET', '/v2/tokens');
    assert.match(unknown.body.reason, /\/v2\/tokens/);
  });

  await t.test('/internal/* is not served on public ports: 404 not_found', async () => {
    for (const base of [controlUrl, realtimeUrl]) {
      for (const path of ['/internal/health', '/internal/ready', '/internal/metrics', '/internal/anything']) {
        assertEnvelope(await request(base, 'GET', path), 404, 'not_found');
      }
    }
  });

  await t.test('malformed JSON: 400 invalid_request', async () => {
    const res = await request(controlUrl, 'POST', '/v1/tokens', {
      raw: '{"userId": "alice",',
      headers: { ...auth, 'content-type': 'application/json' },
    });
    assertEnvelope(res, 400, 'invalid_request');
    assert.match(res.body.reason, /JSON/);
  });

  await t.test('a body that is not application/json: 415 unsupported_media_type', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml']) {
      const res = await request(controlUrl, 'POST', '/v1/tokens', {
        raw: 'userId=alice',
        headers: { ...auth, 'content-type': type },
      });
      assertEnvelope(res, 415, 'unsupported_media_type');
    }
    // charset parameters are fine
    const withCharset = await request(controlUrl, 'POST', '/v1/tokens', {
      raw: '{"userId":"alice"}',
      headers: { ...auth, 'content-type': 'application/json; charset=utf-8' },
    });
    assert.equal(withCharset.status, 201);
  });

  await t.test('a body over 256 KiB: 413 payload_too_large', async () => {
    const big = JSON.stringify({ userId: 'alice', claims: { pad: 'x'.repeat(256 * 1024) } });
    const res = await request(controlUrl, 'POST', '/v1/tokens', {
      raw: big,
      headers: { ...auth, 'content-type': 'application/json' },
    });
    assertEnvelope(res, 413, 'payload_too_large');
    // just under the limit is parsed (and then refused by validation: claims over 2 KiB)
    const under = JSON.stringify({ userId: 'alice', claims: { pad: 'x'.repeat(255 * 1024) } });
    const validated = await request(controlUrl, 'POST', '/v1/tokens', {
      raw: under,
      headers: { ...auth, 'content-type': 'application/json' },
    });
    assertEnvelope(validated, 400, 'invalid_request');
  });

  await t.test('validation failures name the field: 400 invalid_request', async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /userId/],
      [{ userId: '' }, /userId/],
      [{ userId: 'x'.repeat(129) }, /userId/],
      [{ userId: 'white space' }, /userId/],
      [{ userId: 'alice', ttlSeconds: 86_401 }, /ttlSeconds/],
      [{ userId: 'alice', ttlSeconds: '60' }, /ttlSeconds/],
      [{ userId: 'alice', ttlSeconds: 60.5 }, /ttlSeconds/],
      [{ userId: 'alice', claims: [] }, /claims/],
      [{ userId: 'alice', claims: { big: 'x'.repeat(2100) } }, /claims/],
      [{ userId: 'alice', unknownField: true }, /unknownField|unrecognized/i],
      [[], /body/],
      ['alice', /body/],
    ];
    for (const [body, reason] of cases) {
      const res = await request(controlUrl, 'POST', '/v1/tokens', { body, headers: auth });
      assertEnvelope(res, 400, 'invalid_request');
      assert.match(res.body.reason, reason, JSON.stringify(body));
    }
    // a JSON body of null where an object is required
    const nullBody = await request(controlUrl, 'POST', '/v1/tokens', { raw: 'null', headers: { ...auth, 'content-type': 'application/json' } });
    assertEnvelope(nullBody, 400, 'invalid_request');
  });

  await t.test("requests Node's HTTP parser refuses get the envelope too", async () => {
    for (const base of [controlUrl, realtimeUrl]) {
      for (const bytes of [
        'GARBAGE\r\n\r\n',
        `GET /v1/me HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`,
        'POST /v1/tokens HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n',
      ]) {
        const answer = await rawHttp(base, bytes);
        assert.match(answer, /^HTTP\/1\.1 400 /, answer);
        assert.match(answer, /\r\nx-service-error: invalid_request\r\n/i);
        assert.match(answer, /\r\n\r\n\{"code":"invalid_request","reason":"[^"]+"\}$/);
      }
    }
  });

  await t.test('credential failures carry the envelope too', async () => {
    assertEnvelope(await request(controlUrl, 'POST', '/v1/tokens', { body: { userId: 'a' } }), 401, 'unauthorized');
    assertEnvelope(await request(realtimeUrl, 'GET', '/v1/me'), 401, 'unauthorized');
    assertEnvelope(
      await request(controlUrl, 'POST', '/v1/tokens', { body: { userId: 'a' }, headers: { ...auth, origin: 'https://x.example' } }),
      403,
      'origin_forbidden',
    );
  });
});
