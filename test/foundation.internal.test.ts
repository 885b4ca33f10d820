import { test } from 'node:test';
import { connect, createServer, type Server, type Socket } from 'node:net';
import assert from 'node:assert/strict';
import { startCluster, startProcess } from './helpers/cluster.ts';
import { errorCode, request } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';

/** A TCP proxy to host:port that can be cut (every connection dropped, nothing accepted) and restored. */
async function tcpProxy(targetPort: number, host: string) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = connect(targetPort, host);
        for (const socket of [client, upstream]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => {
            client.destroy();
            upstream.destroy();
          });
        }
        client.pipe(upstream).pipe(client);
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  await start();
  return {
    get port() {
      return port;
    },
    start,
    async stop() {
      const closing = server;
      server = null;
      for (const socket of sockets) socket.destroy();
      if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
  };
}

test('internal - health, readiness and metrics on the internal port; bad configuration stops the process', async (t) => {
  const cluster = await startCluster(t, { gateways: 1 });
  const gateway = cluster.gateways[0]!;

  await t.test('/internal/health and /internal/ready answer 200 and name their checks', async () => {
    const health = await request(gateway.internalUrl, 'GET', '/internal/health');
    assert.equal(health.status, 200);
    assert.equal(health.body.status, 'ok');
    const ready = await request(gateway.internalUrl, 'GET', '/internal/ready');
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body, { status: 'ready', checks: { postgres: 'ok', nats: 'ok' } });
    const unknown = await request(gateway.internalUrl, 'GET', '/internal/nope');
    assert.equal(unknown.status, 404);
    assert.equal(errorCode(unknown), 'not_found');
  });

  await t.test('/internal/metrics is Prometheus text with request durations by route', async () => {
    const env = await cluster.createEnvironment();
    const minted = await request(gateway.controlUrl, 'POST', '/v1/tokens', { token: env.secretKey, body: { userId: 'alice' } });
    assert.equal(minted.status, 201);
    await request(gateway.controlUrl, 'GET', '/no-such-route');
    const metrics = await request(gateway.internalUrl, 'GET', '/internal/metrics');
    assert.equal(metrics.status, 200);
    assert.match(metrics.headers.get('content-type') ?? '', /^text\/plain/);
    const text = metrics.body as string;
    assert.match(text, /# TYPE http_request_duration_seconds histogram/);
    assert.match(text, /http_request_duration_seconds_count\{[^}]*host="control"[^}]*route="\/v1\/tokens"[^}]*status="201"[^}]*\} 1/);
    assert.match(text, /http_request_duration_seconds_count\{[^}]*status="404"/);
    assert.match(text, /process_resident_memory_bytes/);
  });

  await t.test('/internal/ready answers 503 naming Postgres while it is unreachable, and 200 again after', async () => {
    // the gateway reaches Postgres through a proxy this test can cut and restore
    const target = new URL(cluster.db.url);
    const proxy = await tcpProxy(Number(target.port || 5432), target.hostname);
    t.after(() => proxy.stop());
    const via = new URL(cluster.db.url);
    via.port = String(proxy.port);
    const gateway = await startProcess('gateway', { ...cluster.env, DATABASE_URL: via.toString() });
    t.after(() => gateway.kill());
    assert.equal((await request(gateway.internalUrl, 'GET', '/internal/ready')).status, 200);

    await proxy.stop();
    const ready = await request(gateway.internalUrl, 'GET', '/internal/ready');
    assert.equal(ready.status, 503);
    assert.equal(errorCode(ready), 'unavailable');
    assert.equal(ready.body.checks.postgres, 'failing');
    assert.equal(ready.body.checks.nats, 'ok');
    assert.match(ready.body.reason, /postgres/);
    // a request that needs Postgres is a 503 envelope, not a hang or a 500
    const res = await request(gateway.controlUrl, 'POST', '/v1/tokens', {
      token: 'sk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      body: { userId: 'alice' },
    });
    assert.equal(res.status, 503, JSON.stringify(res.body));
    assert.equal(errorCode(res), 'unavailable');

    await proxy.start();
    await eventually('ready again', async () => (await request(gateway.internalUrl, 'GET', '/internal/ready')).status === 200);
  });

  await t.test('a bad configuration variable stops the process with a message naming it', async () => {
    await assert.rejects(startProcess('gateway', { ...cluster.env, CONTROL_PORT: 'abc' }), (error: Error) => {
      assert.match(error.message, /exited \(78\)/);
      assert.match(error.message, /CONTROL_PORT/);
      return true;
    });
    await assert.rejects(startProcess('gateway', { ...cluster.env, NATS_PREFIX: 'has.dots', LOG_LEVEL: 'loud' }), (error: Error) => {
      assert.match(error.message, /NATS_PREFIX/);
      assert.match(error.message, /LOG_LEVEL/);
      return true;
    });
  });

  await t.test('an unreachable Postgres at start stops the gateway with a message naming it', async () => {
    const url = 'postgres://postgres:secret@127.0.0.1:1/unreachable';
    await assert.rejects(startProcess('gateway', { ...cluster.env, DATABASE_URL: url }), (error: Error) => {
      assert.match(error.message, /exited \(1\)/);
      assert.match(error.message, /cannot migrate the database at postgres:\/\/postgres@127\.0\.0\.1:1\/unreachable/);
      assert.doesNotMatch(error.message, /secret/, 'the password is not logged');
      return true;
    });
  });

  await t.test('an unreachable NATS stops the gateway with a message naming it', async () => {
    await assert.rejects(startProcess('gateway', { ...cluster.env, NATS_URL: 'nats://127.0.0.1:1' }), (error: Error) => {
      assert.match(error.message, /exited \(1\)/);
      assert.match(error.message, /cannot connect to NATS at nats:\/\/127\.0\.0\.1:1/);
      return true;
    });
  });
});
