import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import type { Pool } from '@rtm/db';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';
import { closedPort, enqueue, publishedEvent, startReceiver } from './helpers/webhook-receiver.ts';
import { startDnsServer } from './helpers/dns-server.ts';

const LEAK = 'db_password=hunter2';

/** The first attempt of the delivery of `eventId`, once there is one. */
async function firstAttempt(pool: Pool, eventId: string): Promise<{ error: string; status_code: number | null; last_error: string }> {
  let row: { error: string; status_code: number | null; last_error: string } | undefined;
  await eventually(
    `an attempt of ${eventId}`,
    async () => {
      const { rows } = await pool.query(
        `select a.error, a.status_code, d.last_error from webhook_deliveries d join webhook_attempts a on a.delivery_id = d.id
       where d.event_id = $1 and a.n = 1`,
        [eventId],
      );
      row = rows[0];
      return row !== undefined;
    },
    20_000,
  );
  return row!;
}

async function listen(server: Server | ReturnType<typeof createHttpServer>): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return (server.address() as AddressInfo).port;
}

test('webhooks - hostile targets: loopback refused when the switch is off; failures named by class, no response body stored', async (t) => {
  const dns = await startDnsServer(t, { 'loop.test': ['127.0.0.1'], 'private.test': ['10.0.0.1'] });
  const cluster = await startCluster(t, {
    gateways: 1,
    env: { WEBHOOK_ALLOW_LOOPBACK: 'false', WEBHOOK_RETRY_SCHEDULE: '1h', WEBHOOK_TIMEOUT_MS: '1500', DNS_SERVERS: dns.address },
  });
  const env = await cluster.createEnvironment();
  const api = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  // a public URL first: creates the signing secret the later deliveries are signed with
  assert.equal((await api.put('/v1/config', { webhooks: { url: 'https://example.com/hooks' } })).status, 200);
  const receiver = await startReceiver(t);

  await t.test('deploy: localhost, 127.0.0.1 and [::1] are refused with the reason', async () => {
    for (const url of [`http://localhost:${receiver.port}/hooks`, receiver.url, `http://[::1]:${receiver.port}/hooks`, 'https://localhost/']) {
      const res = await api.put('/v1/config', { webhooks: { url } });
      assert.equal(res.status, 422, url);
      assert.equal(errorCode(res), 'invalid_webhook_url');
      assert.match(res.body.reason, /loopback/);
    }
    assert.equal((await api.get('/v1/config')).body.config.webhooks.url, 'https://example.com/hooks');
  });

  const setUrl = (url: string) => cluster.db.pool.query('update environments set webhook_url = $2 where id = $1', [env.environmentId, url]);

  await t.test('classification with loopback allowed: status N, refused, timeout, reset, protocol; no body text kept', async (t) => {
    const dispatcher = await cluster.start('dispatcher', { WEBHOOK_ALLOW_LOOPBACK: 'true' });
    t.after(() => dispatcher.stop());
    const leaky = createHttpServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`${LEAK}\n`.repeat(50));
    });
    const hanging = createHttpServer(() => {});
    const closing = createTcpServer((socket) => socket.destroy());
    const babbling = createTcpServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6 not http at all\r\n\r\n'));
    t.after(() => {
      for (const server of [leaky, hanging, closing, babbling]) server.close();
      hanging.closeAllConnections();
    });
    const cases: [string, string][] = [
      [`http://127.0.0.1:${await listen(leaky)}/`, 'status 500'],
      [`http://127.0.0.1:${await closedPort()}/`, 'refused'],
      [`http://127.0.0.1:${await listen(hanging)}/`, 'timeout'],
      [`http://localhost:${await listen(closing)}/`, 'reset'],
      [`http://127.0.0.1:${await listen(babbling)}/`, 'protocol'],
    ];
    for (const [url, expected] of cases) {
      await setUrl(url);
      const event = publishedEvent(env.environmentId);
      await enqueue(cluster.db.pool, [event]);
      const attempt = await firstAttempt(cluster.db.pool, event.eventId);
      assert.equal(attempt.error, expected, url);
      assert.equal(attempt.last_error, expected, url);
    }
    const { rows } = await cluster.db.pool.query(
      `select count(*)::int as n from webhook_deliveries d left join webhook_attempts a on a.delivery_id = d.id
       where d.last_error like '%hunter2%' or a.error like '%hunter2%'`,
    );
    assert.equal(rows[0].n, 0, 'no byte of a response body is stored');
  });

  await t.test('send time with the switch off: loopback URLs stored earlier, and names resolving to non-public addresses, are never connected to', async () => {
    await cluster.start('dispatcher');
    const before = receiver.received.length;
    const cases = [receiver.url, `http://localhost:${receiver.port}/hooks`, `https://loop.test:${receiver.port}/hooks`, 'https://private.test/hooks'];
    for (const url of cases) {
      // as an operator who turned the switch off after this URL was deployed
      await setUrl(url);
      const event = publishedEvent(env.environmentId);
      await enqueue(cluster.db.pool, [event]);
      const attempt = await firstAttempt(cluster.db.pool, event.eventId);
      assert.equal(attempt.error, 'blocked_address', url);
      assert.equal(attempt.status_code, null);
    }
    assert.equal(receiver.received.length, before, 'the loopback receiver got nothing');
    assert.ok((dns.queries.get('loop.test') ?? 0) >= 1, 'the name was resolved through DNS_SERVERS');
  });
});
