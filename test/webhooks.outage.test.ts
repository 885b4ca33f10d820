import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { allPages, client } from './helpers/http.ts';
import { closedPort, eventually, startReceiver } from './helpers/webhook-receiver.ts';

const MESSAGES = 1000;

test('webhooks - 1,000 messages published while the receiver is down all arrive once it is up', async (t) => {
  const cluster = await startCluster(t, {
    gateways: 1,
    channelNodes: 1,
    dispatchers: 1,
    // long enough that nothing is dropped while the receiver is down
    env: { WEBHOOK_RETRY_SCHEDULE: '2s,4s,8s,16s,64s', WEBHOOK_TIMEOUT_MS: '2000' },
  });
  const env = await cluster.createEnvironment();
  const api = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  const port = await closedPort();
  assert.equal((await api.put('/v1/config', { webhooks: { url: `http://127.0.0.1:${port}/hooks` } })).status, 200);

  const started = Date.now();
  // real publishes (server and retraction events), 50 at a time over 10 channels
  const published: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (next < MESSAGES) {
        const i = next++;
        const res = await api.post(`/v1/channels/outage-${i % 10}/messages`, { content: { i }, idempotencyKey: `m-${i}` });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        published.push(res.body.id);
      }
    }),
  );
  const retracted = published.slice(0, 10);
  for (const id of retracted) {
    const channel = (await cluster.db.pool.query('select c.id from messages m join channels c on c.pk = m.channel_pk where m.id = $1', [id])).rows[0].id;
    assert.equal((await api.delete(`/v1/channels/${channel}/messages/${id}`)).status, 200);
  }
  t.diagnostic(`published in ${Date.now() - started} ms`);
  // ephemeral messages are never persisted, so they never become webhooks
  for (let i = 0; i < 5; i++) {
    const res = await api.post('/v1/channels/outage-0/messages', { content: { i }, ephemeral: true });
    assert.equal(res.status, 202, JSON.stringify(res.body));
  }
  // a retracted message is never sent: its undelivered message.published is cancelled, its
  // message.retracted is delivered
  const cancelled = new Set(retracted);
  const expected = new Set([...published.filter((id) => !cancelled.has(id)), ...retracted.map((id) => `retract_${id}`)]);
  assert.equal(expected.size, MESSAGES);

  // the receiver was down the whole time: deliveries have been failing against the closed port
  // (a few suffice: once the endpoint's circuit opens, the rest wait without being attempted)
  const failing = await eventually(
    async () => {
      const { rows } = await cluster.db.pool.query(
        `select count(*)::int as n from webhook_ledger where environment_id = $1 and attempts >= 1 and status = 'pending'`,
        [env.environmentId],
      );
      return rows[0].n >= 1 ? rows[0].n : undefined;
    },
    { intervalMs: 250, what: 'a failed attempt against the closed port' },
  );
  t.diagnostic(`${failing} deliveries had failed at least once after ${Date.now() - started} ms`);
  // the ledger lists newest first and the first attempts go to the oldest rows: read all of it
  const ledger = (await allPages(api, '/v1/webhooks/deliveries?limit=500', 10)).flatMap((page) => page.body.data);
  assert.equal(ledger.length, MESSAGES + retracted.length, 'every persisted message and retraction has one delivery in the ledger');
  assert.ok(
    ledger.some((row: any) => row.lastError === 'refused'),
    'a failed attempt is named `refused`',
  );
  const retractedPublish = (row: any) => row.eventType === 'message.published' && cancelled.has(row.eventId);
  assert.deepEqual(
    ledger.filter(retractedPublish).map((row: any) => [row.status, row.lastError]),
    retracted.map(() => ['cancelled', 'message_retracted']),
    'the deliveries of a retracted message are cancelled',
  );
  assert.ok(
    ledger.filter((row: any) => !retractedPublish(row)).every((row: any) => row.status === 'pending'),
    'nothing delivered or dropped while the receiver is down',
  );

  const receiver = await startReceiver(t, () => ({ status: 200 }), port);
  await receiver.waitFor((received) => {
    const ids = new Set(received.map((r) => JSON.parse(r.raw.toString('utf8')).id));
    return [...expected].every((id) => ids.has(id));
  }, 'every event id');

  t.diagnostic(`all received after ${Date.now() - started} ms`);
  const ids = receiver.received.map((r) => JSON.parse(r.raw.toString('utf8')).id as string);
  assert.deepEqual(new Set(ids), expected, 'nothing missing, nothing foreign (no ephemeral message)');
  for (const r of receiver.received) {
    const event = JSON.parse(r.raw.toString('utf8'));
    assert.equal(event.environmentId, env.environmentId);
    if (event.type === 'message.retracted') {
      assert.equal(event.id, `retract_${event.data.id}`);
      assert.equal(event.data.content, null);
      assert.equal(event.data.retracted, true);
    } else {
      assert.equal(event.type, 'message.published');
      assert.equal(event.id, event.data.id);
      assert.equal(event.data.retracted, false);
      assert.equal(event.data.ephemeral, false);
      assert.equal(typeof event.data.content.i, 'number');
    }
  }
  await eventually(
    async () => {
      const { rows } = await cluster.db.pool.query(`select status, count(*)::int as n from webhook_ledger where environment_id = $1 group by status`, [
        env.environmentId,
      ]);
      const counts = Object.fromEntries(rows.map((row) => [row.status, row.n]));
      return JSON.stringify(counts) === JSON.stringify({ cancelled: retracted.length, delivered: expected.size }) || undefined;
    },
    { intervalMs: 250, what: `${expected.size} delivered and ${retracted.length} cancelled, nothing else` },
  );
  const page = await api.get('/v1/webhooks/deliveries?status=delivered&limit=500');
  assert.equal(page.body.data.length, 500);
  assert.ok(page.body.nextCursor);
});
