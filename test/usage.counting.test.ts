/**
 * Usage counting end to end (docs/stats.md, "Counters"): known traffic through two gateways and
 * two channel-nodes (publishes by socket, HTTP and batch, with idempotent repeats that must not
 * count; subscribers on /v1/connect and the channel socket; webhook deliveries of which some fail
 * until dropped; presence; history reads; notifications), then the environment's totals read from
 * `usage_minutes` must be exactly those numbers, and stay so: nothing counted twice, nothing of
 * another environment.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, mintToken } from './helpers/http.ts';
import { openSocket, type TestSocket } from './helpers/ws.ts';
import { startReceiver } from './helpers/webhook-receiver.ts';
import { eventually } from './helpers/eventually.ts';
import { pick, readUsageTotals, runRollup, statsTotals, type UsageTotals } from './helpers/usage.ts';

const FLUSH_MS = 300;

/** Counts the bytes of every message frame (no `op`) the socket receives, as sent. */
function messageBytes(socket: TestSocket): { frames: number; bytes: number } {
  const seen = { frames: 0, bytes: 0 };
  socket.ws.on('message', (data: Buffer) => {
    if (JSON.parse(String(data)).op !== undefined) return;
    seen.frames += 1;
    seen.bytes += data.length;
  });
  return seen;
}

/** Waits out the end of a minute when less than `ms` of it is left: the traffic then fits in one minute. */
async function roomInMinute(ms: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < ms) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

test('usage - every counter of known traffic, exactly, through two gateways and two channel-nodes', async (t) => {
  const cluster = await startCluster(t, {
    gateways: 2,
    channelNodes: 2,
    dispatchers: 1,
    env: { USAGE_FLUSH_MS: String(FLUSH_MS), WEBHOOK_RETRY_SCHEDULE: '1s', PARTITIONS: '16' },
  });
  const [gw0, gw1] = [cluster.gateways[0]!, cluster.gateways[1]!];
  const env = await cluster.createEnvironment('counted');
  const other = await cluster.createEnvironment('other');
  const receiver = await startReceiver(t, (r) => ({ status: r.raw.includes('"fail":true') ? 500 : 200 }));
  const api = [client(gw0.controlUrl, env.secretKey), client(gw1.controlUrl, env.secretKey)] as const;
  let control = 0;
  const deployed = await api[0].put('/v1/config', { webhooks: { url: receiver.url }, channels: { access: 'open', joinLeave: true } });
  assert.equal(deployed.status, 200, JSON.stringify(deployed.body));
  control += 1;
  const [alice, bob, carol, pub] = await Promise.all(['alice', 'bob', 'carol', 'pub'].map((u) => mintToken(gw0.controlUrl, env.secretKey, u)));
  control += 4;

  await roomInMinute(30_000);
  // M = 3 subscribers of `room`: two on /v1/connect (one per gateway), one channel socket
  const subscribers = [openSocket(gw0.realtimeUrl, `/v1/connect?token=${alice}`), openSocket(gw1.realtimeUrl, `/v1/connect?token=${bob}`)];
  const seen = subscribers.map(messageBytes);
  await Promise.all(subscribers.map((s) => s.waitFor('connected', (f) => f.op === 'connected')));
  subscribers.forEach((s, i) => s.send({ op: 'subscribe', ref: `s${i}`, channelId: 'room' }));
  await Promise.all(subscribers.map((s, i) => s.waitFor('subscribed', (f) => f.ref === `s${i}` && f.op === 'subscribed')));
  const channelSocket = openSocket(gw0.realtimeUrl, `/v1/channels/room?token=${carol}`);
  seen.push(messageBytes(channelSocket));
  await channelSocket.waitFor('ready', (f) => f.op === 'ready');
  const publisher = openSocket(gw1.realtimeUrl, `/v1/connect?token=${pub}`);
  await publisher.waitFor('connected', (f) => f.op === 'connected');

  // publishes: 3 by socket (+1 idempotent repeat), 4 by HTTP over both gateways (+1 repeat; 2 fail
  // their webhook; 1 mentions bob), 6 in one batch over 6 channels (owned by both nodes)
  for (let n = 0; n < 3; n++) {
    publisher.send({ op: 'publish', ref: `p${n}`, channelId: 'room', content: { n }, idempotencyKey: `sock-${n}` });
    await publisher.waitFor(`ack p${n}`, (f) => f.ref === `p${n}` && f.op === 'ack');
  }
  publisher.send({ op: 'publish', ref: 'again', channelId: 'room', content: { n: 0 }, idempotencyKey: 'sock-0' });
  await publisher.waitFor('ack again', (f) => f.ref === 'again' && f.op === 'ack');
  const bodies = [
    { content: { fail: true } },
    { content: { fail: true } },
    { content: { ok: 1 }, mentions: ['bob'] },
    { content: { ok: 2 }, idempotencyKey: 'http-1' },
  ];
  for (const [i, body] of bodies.entries()) assert.equal((await api[i % 2]!.post('/v1/channels/room/messages', body)).status, 201);
  assert.equal((await api[1].post('/v1/channels/room/messages', bodies[3])).status, 201, 'the repeat answers as the first');
  control += 5;
  const batch = await api[1].post('/v1/messages/batch', { messages: Array.from({ length: 6 }, (_, i) => ({ channelId: `b.${i}`, content: { i } })) });
  assert.equal(batch.status, 200, JSON.stringify(batch.body));
  control += 1;
  // the other environment's traffic must not show in this one's counts
  const otherApi = client(gw1.controlUrl, other.secretKey);
  for (let i = 0; i < 2; i++) assert.equal((await otherApi.post('/v1/channels/room/messages', { content: { i } })).status, 201);

  // history: once per host; notifications: 2 stored by the route (+1 mention above)
  assert.equal((await api[0].get('/v1/channels/room/history')).status, 200);
  assert.equal((await client(gw1.realtimeUrl, alice).get('/v1/channels/room/history')).status, 200);
  assert.equal((await api[1].post('/v1/notifications', { userIds: ['alice', 'bob'], payload: { hi: 1 } })).status, 202);
  control += 2;

  // every subscriber got the 7 messages of `room`
  await eventually('7 messages per subscriber', async () => seen.every((s) => s.frames === 7));
  // 2 failing deliveries, each tried twice (WEBHOOK_RETRY_SCHEDULE 1s) then dropped; 11 succeed
  const failing = () => receiver.received.filter((r) => r.raw.includes('"fail":true')).length;
  await receiver.waitFor(() => failing() === 4 && receiver.received.length === 15, '15 attempts');
  await eventually('the failing deliveries dropped', async () => {
    const { rows } = await cluster.db.pool.query(`select count(*)::int as n from webhook_ledger where environment_id = $1 and status = 'dropped'`, [
      env.environmentId,
    ]);
    return rows[0].n === 2;
  });

  const expected: Partial<UsageTotals> = {
    messages_published_socket: 3,
    messages_published_http: 4,
    messages_published_batch: 6,
    messages_delivered: 21,
    bytes_delivered: seen.reduce((sum, s) => sum + s.bytes, 0),
    connections_peak: 4,
    channels_active: 7,
    presence_events: 3,
    history_reads: 2,
    api_requests_control: control,
    api_requests_realtime: 1,
    webhook_events: 13,
    webhook_deliveries: 11,
    webhook_failed_attempts: 4,
    webhook_dropped: 2,
    notifications: 3,
  };
  let totals: UsageTotals | undefined;
  await eventually(
    async () => {
      totals = await readUsageTotals(cluster.db.pool, env.environmentId);
      return JSON.stringify(pick(totals, expected)) === JSON.stringify(expected);
    },
    { what: 'the counts', timeoutMs: 30_000 },
  ).catch(() => assert.deepEqual(pick(totals!, expected), expected));
  // a few more flushes change nothing: nothing counted twice
  await new Promise((resolve) => setTimeout(resolve, FLUSH_MS * 4));
  totals = await readUsageTotals(cluster.db.pool, env.environmentId);
  assert.deepEqual(pick(totals, expected), expected);
  // 4 sockets held for at least the traffic's time, at most the test's
  assert.ok(totals.connection_seconds > 0, `connection_seconds ${totals.connection_seconds}`);
  // the stats API answers the same, by minute and by hour, before and after the dispatcher's rollup
  // (the control requests below are counted too: read once per unit before comparing)
  const stats = (path: string) => api[0].get(path);
  const { api_requests_control: _control, ...rest } = expected;
  for (const unit of ['minute', 'hour'] as const) assert.deepEqual(pick((await statsTotals(stats, unit)) as UsageTotals, rest), rest, `by ${unit}`);
  await runRollup(cluster.db.pool);
  assert.deepEqual(pick((await statsTotals(stats, 'hour')) as UsageTotals, rest), rest, 'by hour after the rollup');
  const otherTotals = await readUsageTotals(cluster.db.pool, other.environmentId);
  assert.equal(otherTotals.messages_published_http, 2);
  assert.equal(otherTotals.messages_delivered, 0);

  for (const s of [...subscribers, channelSocket, publisher]) await s.close();
});
