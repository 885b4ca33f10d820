import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { startCluster } from './helpers/cluster.ts';
import { mintToken, request } from './helpers/http.ts';
import { openSocket } from './helpers/ws.ts';

function open(baseUrl: string): Promise<Socket> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves with what the server wrote once it closes the connection (or `limitMs` passes: null). */
function closedWithin(socket: Socket, limitMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => {});
    const timer = setTimeout(() => resolve(null), limitMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
  });
}

test('http server - slow clients are cut off, connections per address are capped, tokens stay out of the logs', async (t) => {
  const cluster = await startCluster(t, {
    gateways: 1,
    channelNodes: 1,
    env: { HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000', MAX_CONNECTIONS_PER_IP: '20', LOG_LEVEL: 'debug' },
  });
  const gateway = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();

  await t.test('a client sending its headers a byte at a time is cut off at the headers deadline, in the envelope', async () => {
    const socket = await open(gateway.controlUrl);
    const closed = closedWithin(socket, 8_000);
    const drip = setInterval(() => socket.writable && socket.write('X'), 200);
    socket.write('GET /v1/config HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    const answer = await closed;
    clearInterval(drip);
    assert.notEqual(answer, null, 'the slow client was not cut off');
    assert.match(answer!, /^HTTP\/1\.1 400/);
    assert.match(answer!, /x-service-error: invalid_request/i);
    assert.match(answer!, /not received in time/);
  });

  await t.test('an address over MAX_CONNECTIONS_PER_IP gets 429 rate_limited and the connection closed; the others keep working', async () => {
    const held: Socket[] = [];
    try {
      for (let i = 0; i < 20; i++) held.push(await open(gateway.realtimeUrl));
      const extra = await open(gateway.realtimeUrl);
      const answer = await closedWithin(extra, 5_000);
      assert.match(answer ?? '', /^HTTP\/1\.1 429/);
      assert.match(answer ?? '', /x-service-error: rate_limited/i);
      assert.match(answer ?? '', /retry-after: 1/i);
      // the control listener counts its own connections
      assert.equal((await request(gateway.controlUrl, 'GET', '/openapi.json')).status, 200);
    } finally {
      for (const socket of held) socket.destroy();
    }
    // once they are closed, the address may connect again
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await request(gateway.realtimeUrl, 'GET', '/openapi.json')).status, 200);
  });

  await t.test('?token= never appears in a log line, and a refusal is logged once without a stack', async () => {
    const token = await mintToken(gateway.controlUrl, env.secretKey, 'alice');
    const socket = openSocket(gateway.realtimeUrl, `/v1/channels/logged?token=${token}`);
    await socket.waitFor('ready', (f) => f.op === 'ready');
    await socket.close();
    const refused = await request(gateway.realtimeUrl, 'GET', `/v1/channels/%ZZ/history?token=${token}&x=1`, {});
    assert.equal(refused.status, 400);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const secretParts = [token, token.split('.')[2]!, env.secretKey];
    for (const line of gateway.output) for (const secret of secretParts) assert.ok(!line.includes(secret), `a secret in a log line: ${line.slice(0, 200)}`);
    const refusals = gateway.output.filter((line) => line.includes('"refused"') && line.includes('%ZZ'));
    assert.equal(refusals.length, 1, gateway.output.slice(-10).join('\n'));
    assert.doesNotMatch(refusals[0]!, /"stack"|\\n\s+at /);
  });
});
