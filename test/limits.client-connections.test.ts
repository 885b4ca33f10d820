/**
 * MAX_CONNECTIONS_PER_IP behind a load balancer (docs/limits.md, "HTTP server"): with TRUST_PROXY
 * every connection comes from the balancer's address, so the cap counts the client address
 * TRUST_PROXY resolves from X-Forwarded-For, for every kind of socket and event stream together,
 * IPv6 clients by their /64. Here the test process is the balancer: every connection comes from
 * 127.0.0.1 and names its client in X-Forwarded-For.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import WebSocket from 'ws';
import { startCluster } from './helpers/cluster.ts';
import { mintToken, request } from './helpers/http.ts';
import { openStream } from './helpers/sse.ts';
import { eventually } from './helpers/eventually.ts';

const CAP = 6;

interface Opened {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  close(): void;
}

/** A WebSocket through the "balancer": 101 and its first frame, or the refusal's status, headers and envelope. */
function openWs(url: string, client: string): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { 'x-forwarded-for': client } });
    ws.once('message', () => resolve({ status: 101, headers: {}, body: undefined, close: () => ws.terminate() }));
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : undefined, close: () => ws.terminate() }),
      );
    });
    ws.once('close', (code, reason) => reject(new Error(`socket closed ${code} ${reason.toString()} before its first frame`)));
    ws.on('error', () => {});
  });
}

test('limits - with TRUST_PROXY, one balancer carries many clients; one client over MAX_CONNECTIONS_PER_IP is refused 429 on every kind of socket', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, env: { TRUST_PROXY: 'true', MAX_CONNECTIONS_PER_IP: String(CAP) } });
  const gateway = cluster.gateways[0]!;
  const env = await cluster.createEnvironment('behind-balancer');
  const realtime = gateway.realtimeUrl.replace(/^http/, 'ws');
  const held: Opened[] = [];
  t.after(() => {
    for (const opened of held) opened.close();
  });

  // a token per socket: no per-user quota or open rate is what refuses here
  let users = 0;
  const token = () => mintToken(gateway.controlUrl, env.secretKey, `user-${++users}`);
  /** One exchange of each kind in turn (channel socket, /v1/connect, inbox socket, event stream) from `client`. */
  const kinds = ['channel', 'connect', 'inbox', 'events'] as const;
  async function open(kind: (typeof kinds)[number], client: string): Promise<Opened> {
    const jwt = await token();
    if (kind === 'channel') return openWs(`${realtime}/v1/channels/lobby?token=${jwt}`, client);
    if (kind === 'connect') return openWs(`${realtime}/v1/connect?token=${jwt}`, client);
    if (kind === 'inbox') return openWs(`${realtime}/inbox?token=${jwt}`, client);
    const stream = await openStream(gateway.realtimeUrl, '/v1/events?channels=lobby', { authorization: `Bearer ${jwt}`, 'x-forwarded-for': client });
    if (stream.status === 200) await stream.waitFor('connected', (frame) => frame.op === 'connected');
    return { status: stream.status, headers: stream.headers, body: stream.body, close: () => stream.cut() };
  }
  const assertRefused = (opened: Opened, what: string) => {
    assert.equal(opened.status, 429, `${what}: ${opened.status} ${JSON.stringify(opened.body)}`);
    assert.equal(opened.headers['x-service-error'], 'rate_limited', what);
    assert.equal(opened.headers['retry-after'], '1', what);
    assert.equal(opened.body.code, 'rate_limited', what);
    assert.match(opened.body.reason, new RegExp(`more than ${CAP} open connections from this client address`), what);
  };

  await t.test('many clients through one balancer: three times the cap from one peer, none refused', async () => {
    for (let i = 0; i < 3 * CAP; i++) {
      const kind = kinds[i % kinds.length]!;
      const opened = await open(kind, `203.0.113.${i + 1}`);
      assert.equal(opened.status, kind === 'events' ? 200 : 101, `client ${i + 1} (${kind}): ${opened.status} ${JSON.stringify(opened.body)}`);
      held.push(opened);
    }
  });

  await t.test('one client: its sockets and streams of every kind count together; past the cap each kind is refused 429 rate_limited', async () => {
    const client = '198.51.100.7';
    const mine: Opened[] = [];
    for (let i = 0; i < CAP; i++) {
      const opened = await open(kinds[i % kinds.length]!, client);
      assert.ok(opened.status === 101 || opened.status === 200, `exchange ${i + 1} of ${CAP}: ${opened.status} ${JSON.stringify(opened.body)}`);
      mine.push(opened);
    }
    held.push(...mine);
    for (const kind of kinds) assertRefused(await open(kind, client), `${kind} over the cap`);
    // a refused upgrade is closed by the gateway, not left open and uncounted for the client to keep
    const raw = connect(Number(new URL(gateway.realtimeUrl).port), '127.0.0.1');
    let answer = '';
    raw.setEncoding('utf8');
    raw.on('data', (chunk: string) => (answer += chunk));
    raw.on('error', () => {});
    const ended = new Promise<void>((resolve) => raw.once('close', () => resolve()));
    raw.write(
      `GET /v1/connect?token=${await token()} HTTP/1.1\r\nHost: gateway\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
        `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nX-Forwarded-For: ${client}\r\n\r\n`,
    );
    const closedInTime = await Promise.race([ended.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10_000))]);
    raw.destroy();
    assert.match(answer, /^HTTP\/1\.1 429/);
    assert.ok(closedInTime, 'the refused upgrade was left open');
    // a plain request of that client too (it would hold a connection as long as it took)
    const history = await request(gateway.realtimeUrl, 'GET', '/v1/channels/lobby/history', { token: await token(), headers: { 'x-forwarded-for': client } });
    assert.equal(history.status, 429);
    // the balancer's other clients are not affected
    assert.equal((await open('channel', '203.0.113.200')).status, 101);
    // one of the client's sockets closes: it may open one again
    mine[0]!.close();
    await eventually('a place freed by a closed socket', async () => {
      const again = await open('connect', client);
      if (again.status !== 101) return undefined;
      held.push(again);
      return true;
    });
  });

  await t.test('an IPv6 client counts by its /64', async () => {
    for (let i = 0; i < CAP; i++) held.push(await open('channel', `2001:db8:7:9::${(i + 1).toString(16)}`));
    assert.ok(held.slice(-CAP).every((opened) => opened.status === 101));
    assertRefused(await open('channel', '2001:db8:7:9:ffff:ffff:ffff:ffff'), 'another address of the same /64');
    assertRefused(await open('events', '2001:0db8:0007:0009::1234'), 'the same /64 written in full');
    assert.equal((await open('channel', '2001:db8:7:a::1')).status, 101, 'the next /64 is another client');
  });
});

test('limits - without TRUST_PROXY the peer is the client: its connections are capped, X-Forwarded-For or not', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, env: { MAX_CONNECTIONS_PER_IP: String(CAP) } });
  const gateway = cluster.gateways[0]!;
  const env = await cluster.createEnvironment('direct');
  const realtime = gateway.realtimeUrl.replace(/^http/, 'ws');
  const held: Opened[] = [];
  t.after(() => {
    for (const opened of held) opened.close();
  });
  for (let i = 0; i < CAP; i++) {
    const jwt = await mintToken(gateway.controlUrl, env.secretKey, `direct-${i}`);
    const opened = await openWs(`${realtime}/v1/channels/lobby?token=${jwt}`, `203.0.113.${i + 1}`);
    assert.equal(opened.status, 101);
    held.push(opened);
  }
  const jwt = await mintToken(gateway.controlUrl, env.secretKey, 'direct-over');
  const refused = await openWs(`${realtime}/v1/channels/lobby?token=${jwt}`, '203.0.113.99');
  assert.equal(refused.status, 429);
  assert.equal(refused.headers['x-service-error'], 'rate_limited');
  assert.equal(refused.headers['retry-after'], '1');
});
