import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { errorCode, mintToken, request, rawHttp } from './helpers/http.ts';
import { openSocket } from './helpers/ws.ts';

/** The sum of a metric's samples whose line matches `pattern` (labels included). */
async function metric(internalUrl: string, pattern: string): Promise<number> {
  const text = await (await fetch(`${internalUrl}/internal/metrics`)).text();
  return [...text.matchAll(new RegExp(`^${pattern} (\\d+)`, 'gm'))].reduce((n, m) => n + Number(m[1]), 0);
}

test('inputs - every valid id works, every invalid input is a 400 envelope, and nothing reaches Postgres raw', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const gateway = cluster.gateways[0]!;
  const { controlUrl, realtimeUrl } = gateway;
  const env = await cluster.createEnvironment();
  const sk = env.secretKey;
  const user = await mintToken(controlUrl, sk, 'alice');

  await t.test('channel ids of 101-128 characters are legal on every route and the socket; 129 is a 400 naming channelId', async () => {
    const long = `c${'x'.repeat(127)}`;
    assert.equal(long.length, 128);
    const published = await request(controlUrl, 'POST', `/v1/channels/${long}/messages`, { token: sk, body: { content: { n: 1 } } });
    assert.equal(published.status, 201, JSON.stringify(published.body));
    const history = await request(realtimeUrl, 'GET', `/v1/channels/${long}/history`, { token: user });
    assert.equal(history.status, 200);
    assert.equal(history.body.messages.length, 1);
    const socket = openSocket(realtimeUrl, `/v1/channels/${long}?since=0&token=${user}`);
    await socket.waitFor('ready', (f) => f.op === 'ready');
    await socket.close();
    const tooLong = await request(controlUrl, 'POST', `/v1/channels/${long}y/messages`, { token: sk, body: { content: {} } });
    assert.equal(tooLong.status, 400);
    assert.equal(errorCode(tooLong), 'invalid_request');
    assert.match(tooLong.body.reason, /channelId/);
  });

  await t.test('bad percent-encoding and over-long parameters answer the envelope', async () => {
    for (const path of [
      '/v1/channels/%ZZ/history',
      '/v1/channels/%C0%AE/history',
      '/v1/channels/a%ED%A0%80/history',
      `/v1/channels/${'y'.repeat(2_000)}/history`,
    ]) {
      const res = await request(realtimeUrl, 'GET', path, { token: user });
      assert.equal(res.status, 400, `${path}: ${JSON.stringify(res.body)}`);
      assert.equal(errorCode(res), 'invalid_request');
    }
  });

  await t.test('NUL and lone surrogates: refused where Postgres text would hold them, kept losslessly in JSON content', async () => {
    const refused: [string, string, string][] = [
      ['PUT', '/v1/channels/nul/bans/bob', '{"reason":"x\\u0000y"}'],
      ['PUT', '/v1/bans/bob', '{"reason":"\\ud83d"}'],
      ['POST', '/v1/channels/nul/messages', '{"type":"a\\udc00","content":{}}'],
      ['POST', '/v1/channels/nul/messages', '{"idempotencyKey":"k\\ud800","content":{}}'],
      ['DELETE', '/v1/channels/nul/messages/msg_00000000000000000000000000', '{"reason":"\\u0000"}'],
    ];
    for (const [method, path, body] of refused) {
      const res = await request(controlUrl, method, path, { token: sk, raw: body, headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 400, `${method} ${path} ${body}: ${JSON.stringify(res.body)}`);
      assert.equal(errorCode(res), 'invalid_request');
      assert.match(res.body.reason, /U\+0000|surrogate/);
    }
    // content, notification payloads and claims are JSON kept as sent: NUL, lone surrogates and pairs round-trip
    const odd = { nul: 'a\u0000b', lone: '\ud800', reversed: '\udc00\ud800', pair: '😀' };
    const published = await request(controlUrl, 'POST', '/v1/channels/nul/messages', { token: sk, body: { content: odd } });
    assert.equal(published.status, 201, JSON.stringify(published.body));
    const page = await request(controlUrl, 'GET', '/v1/channels/nul/history', { token: sk });
    assert.deepEqual(
      page.body.messages.map((m: any) => m.content),
      [odd],
    );
    const notified = await request(controlUrl, 'POST', '/v1/notifications', { token: sk, body: { userIds: ['alice'], payload: odd } });
    assert.equal(notified.status, 202);
    const inbox = await request(realtimeUrl, 'GET', '/v1/inbox', { token: user });
    assert.deepEqual(inbox.body.notifications.at(-1).payload, odd);
  });

  await t.test('a retract of messages/a%00b, a NUL kid and a NUL channel id are 400s, not 500s', async () => {
    const retract = await request(controlUrl, 'DELETE', '/v1/channels/nul/messages/a%00b', { token: sk });
    assert.equal(retract.status, 400);
    assert.match(retract.body.reason, /messageId/);
    const header = Buffer.from(JSON.stringify({ alg: 'HS256', kid: 'kid_\u0000', typ: 'JWT' })).toString('base64url');
    const forged = `${header}.${Buffer.from('{"sub":"x"}').toString('base64url')}.c2ln`;
    const me = await request(realtimeUrl, 'GET', '/v1/me', { token: forged });
    assert.equal(me.status, 401);
    assert.equal(errorCode(me), 'unauthorized');
    const nulChannel = await request(controlUrl, 'POST', '/v1/channels/a%00b/messages', { token: sk, body: { content: {} } });
    assert.equal(nulChannel.status, 400);
  });

  await t.test('JSON nested deeper than 64 levels is a 400 on HTTP and an error frame on a socket; 64 levels are fine', async () => {
    const deep = (n: number) => `{"content":${'{"a":'.repeat(n - 1)}1${'}'.repeat(n - 1)}}`;
    const ok = await request(controlUrl, 'POST', '/v1/channels/deep/messages', { token: sk, raw: deep(63), headers: { 'content-type': 'application/json' } });
    assert.equal(ok.status, 201, JSON.stringify(ok.body));
    for (const n of [65, 10_000]) {
      const res = await request(controlUrl, 'POST', '/v1/channels/deep/messages', { token: sk, raw: deep(n), headers: { 'content-type': 'application/json' } });
      assert.equal(res.status, 400);
      assert.match(res.body.reason, /nested deeper than 64/);
    }
    const socket = openSocket(realtimeUrl, `/v1/channels/deep?token=${user}`);
    await socket.waitFor('ready', (f) => f.op === 'ready');
    socket.ws.send(`{"op":"publish","ref":"d","content":${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
    const error = await socket.waitFor('error frame', (f) => f.op === 'error');
    assert.match(error.reason, /nested deeper than 64/);
    socket.send({ op: 'ping', ref: 'still-open' });
    await socket.waitFor('pong', (f) => f.op === 'pong');
    await socket.close();
  });

  await t.test('a plain GET on a socket route and a handshake ws refuses answer the envelope', async () => {
    const plain = await request(realtimeUrl, 'GET', `/v1/channels/room?token=${user}`);
    assert.equal(plain.status, 404);
    assert.equal(errorCode(plain), 'not_found');
    const url = new URL(realtimeUrl);
    const answer = await rawHttp(
      realtimeUrl,
      `GET /v1/channels/room?token=${user} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
        'Sec-WebSocket-Key: not-a-key\r\nSec-WebSocket-Version: 13\r\n\r\n',
    );
    assert.match(answer, /^HTTP\/1\.1 400/);
    assert.match(answer, /x-service-error: invalid_request/i);
    assert.match(answer, /"code":"invalid_request"/);
  });

  await t.test('a body that is not valid UTF-8 is a 400 naming it', async () => {
    const bytes = Buffer.concat([Buffer.from('{"content":{"t":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}}')]);
    const url = new URL(controlUrl);
    const answer = await rawHttp(
      controlUrl,
      Buffer.concat([
        Buffer.from(
          `POST /v1/channels/utf/messages HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${sk}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${bytes.length}\r\nConnection: close\r\n\r\n`,
        ),
        bytes,
      ]),
    );
    assert.match(answer, /^HTTP\/1\.1 400/);
    assert.match(answer, /x-service-error: invalid_request/i);
    assert.match(answer, /not valid UTF-8/);
  });

  await t.test('unknown key ids are refused by shape before any lookup, and a repeated unknown one is looked up once', async () => {
    // only signing keys are looked up by these requests: every cache miss is one of them
    const lookups = 'gateway_credential_cache_lookups_total\\{[^}]*result="miss"[^}]*\\}';
    const before = await metric(gateway.internalUrl, lookups);
    const forge = (kid: string) =>
      `${Buffer.from(JSON.stringify({ alg: 'HS256', kid, typ: 'JWT' })).toString('base64url')}.${Buffer.from('{"sub":"x"}').toString('base64url')}.c2ln`;
    for (let i = 0; i < 50; i++) {
      const res = await request(realtimeUrl, 'GET', '/v1/me', { token: forge(`random-${i}-${Math.random()}`) });
      assert.equal(res.status, 401);
    }
    const wellFormed = forge('kid_00000000000000000000000000');
    for (let i = 0; i < 20; i++) assert.equal((await request(realtimeUrl, 'GET', '/v1/me', { token: wellFormed })).status, 401);
    const after = await metric(gateway.internalUrl, lookups);
    assert.equal(after - before, 1, 'only the well-formed unknown key id reached Postgres, once');
  });

  await t.test('the gateway and channel-node are still healthy and logged no internal error', async () => {
    for (const proc of [...cluster.gateways, ...cluster.channelNodes]) {
      assert.equal(proc.child.exitCode, null);
      assert.deepEqual(
        proc.output.filter((l) => /internal error|"level":50/.test(l)),
        [],
      );
    }
  });
});
