import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode } from './helpers/http.ts';
import { startTcpProxy } from './helpers/tcp-proxy.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('channels - a publish in flight when the gateway loses its NATS server is answered 503 at once, not at OWNER_TIMEOUT_MS', async (t) => {
  // a timeout long enough that only the lost connection can end the wait within the request's own limit
  const cluster = await startCluster(t, { gateways: 0, channelNodes: 1, env: { OWNER_TIMEOUT_MS: '60000' } });
  const proxy = await startTcpProxy([process.env.NATS_URL ?? 'nats://127.0.0.1:4222']);
  t.after(() => proxy.close());
  // the gateway reaches NATS through the proxy; the channel-node directly
  const gw = await cluster.start('gateway', { NATS_URL: proxy.url.replace(/^http/, 'nats') });
  const env = await cluster.createEnvironment();
  const control = client(gw.controlUrl, env.secretKey);
  assert.equal((await control.post('/v1/channels/bus/messages', { content: { n: 0 } })).status, 201);

  // the owner holds the command without answering (stopped), and the gateway's server goes away
  const node = cluster.channelNodes[0]!;
  node.child.kill('SIGSTOP');
  t.after(() => node.child.kill('SIGCONT'));
  const pending = control.post('/v1/channels/bus/messages', { content: { n: 1 }, idempotencyKey: 'k-1' });
  await sleep(500);
  proxy.cut();
  const res = await pending;
  assert.equal(res.status, 503, JSON.stringify(res.body));
  assert.equal(errorCode(res), 'unavailable');
  assert.match(res.body.reason, /connection to the message bus was lost/);

  // the outcome was unknown: the owner commits the command once it runs again; the same key returns that result
  node.child.kill('SIGCONT');
  let retried;
  for (let attempt = 0; attempt < 100; attempt++) {
    retried = await control.post('/v1/channels/bus/messages', { content: { n: 1 }, idempotencyKey: 'k-1' });
    if (retried.status !== 503) break;
    await sleep(100);
  }
  assert.equal(retried!.status, 201, JSON.stringify(retried!.body));
  assert.equal(retried!.body.seq, 2);
  const { rows } = await cluster.db.pool.query(`select seq from messages order by seq`);
  assert.deepEqual(
    rows.map((r) => Number(r.seq)),
    [1, 2],
    'the command was stored once',
  );
});
