/**
 * Monthly quotas (docs/quotas.md), on real processes: the message quota refuses exactly the
 * publish past the limit on every route (HTTP, socket, batch) and stores nothing past it, edits
 * count and reactions do not, `usage.threshold` reaches a webhook endpoint once at 80 % and once
 * at 100 %, GET /v1/quota reports the month, and the connection-minute quota refuses new sockets.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken } from './helpers/http.ts';
import { openSocket } from './helpers/ws.ts';
import { startReceiver } from './helpers/webhook-receiver.ts';
import { eventually } from './helpers/eventually.ts';
import { DashboardClient, createUser } from './helpers/dashboard.ts';

const LIMIT = 10;

/** The first instant of the next UTC month, as the refusals name it. */
const nextMonth = () => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString();
};

test('quotas - monthlyMessages: the publish past the limit is refused on every route, nothing past it is stored', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1, dispatchers: 1, env: { WEBHOOK_RETRY_SCHEDULE: '1s' } });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment('quota-messages');
  const api = client(gw.controlUrl, env.secretKey);
  const receiver = await startReceiver(t);
  assert.equal((await api.post('/v1/webhook-endpoints', { url: receiver.url })).status, 201);
  const set = await api.patch('/v1/config', { limits: { monthlyMessages: LIMIT } });
  assert.equal(set.status, 200, JSON.stringify(set.body));
  assert.equal(set.body.config.limits.monthlyMessages, LIMIT);
  assert.equal(set.body.config.limits.monthlyConnectionMinutes, null);

  // 6 over HTTP, 2 over the socket: 8 of 10, the 80 % threshold
  const first = await api.post('/v1/channels/room-a/messages', { content: { n: 1 } });
  assert.equal(first.status, 201);
  for (let n = 2; n <= 6; n++) assert.equal((await api.post('/v1/channels/room-a/messages', { content: { n } })).status, 201);
  const alice = await mintToken(gw.controlUrl, env.secretKey, 'alice');
  const socket = openSocket(gw.realtimeUrl, `/v1/connect?token=${alice}`);
  await socket.waitFor('connected', (f) => f.op === 'connected');
  for (const ref of [1, 2]) {
    socket.send({ op: 'publish', ref, channelId: 'room-b', content: { ref } });
    assert.equal((await socket.waitFor(`ack ${ref}`, (f) => f.ref === ref)).op, 'ack');
  }
  // reactions and ephemeral messages are not counted
  assert.equal((await api.post(`/v1/channels/room-a/messages/${first.body.id}/reactions`, { type: 'thumbsup', userId: 'bob' })).status, 200);
  assert.equal((await api.post('/v1/channels/room-a/messages', { content: { typing: true }, ephemeral: true })).status, 202);

  // a batch of 4 crosses the limit: the first 2 are stored, the others refused item by item
  const crossing = await api.post('/v1/messages/batch', { messages: [1, 2, 3, 4].map((n) => ({ channelId: 'room-c', content: { n } })) });
  assert.equal(crossing.status, 200, JSON.stringify(crossing.body));
  const [r1, r2, r3, r4] = crossing.body.results;
  assert.deepEqual([r1.seq, r2.seq], [1, 2]);
  for (const refused of [r3, r4]) {
    assert.equal(refused.error.code, 'quota_exceeded');
    assert.deepEqual(refused.error.quota, { quota: 'monthlyMessages', limit: LIMIT, used: LIMIT, resetsAt: nextMonth() });
    assert.match(refused.error.reason, /monthlyMessages/);
  }

  // the 11th: 429 on HTTP, the error frame on the socket, 429 for a batch with nothing published
  const over = await api.post('/v1/channels/room-a/messages', { content: { n: 11 } });
  assert.equal(over.status, 429);
  assert.equal(errorCode(over), 'quota_exceeded');
  assert.deepEqual(over.body.quota, { quota: 'monthlyMessages', limit: LIMIT, used: LIMIT, resetsAt: nextMonth() });
  assert.match(over.body.reason, new RegExp(`${LIMIT} of ${LIMIT} messages.*${nextMonth().slice(0, 10)}`));
  socket.send({ op: 'publish', ref: 3, channelId: 'room-b', content: { ref: 3 } });
  const frame = await socket.waitFor('refusal', (f) => f.ref === 3);
  assert.equal(frame.op, 'error');
  assert.equal(frame.code, 'quota_exceeded');
  assert.deepEqual(frame.quota, { quota: 'monthlyMessages', limit: LIMIT, used: LIMIT, resetsAt: nextMonth() });
  // the channel socket: its error frame, the socket stays open
  const channelSocket = openSocket(gw.realtimeUrl, `/v1/channels/room-b?token=${alice}`);
  await channelSocket.waitFor('ready', (f) => f.op === 'ready');
  channelSocket.send({ op: 'publish', ref: 'c1', content: { late: true } });
  const channelRefusal = await channelSocket.waitFor('channel socket refusal', (f) => f.ref === 'c1');
  assert.deepEqual([channelRefusal.op, channelRefusal.code, channelRefusal.quota?.quota], ['error', 'quota_exceeded', 'monthlyMessages']);
  await channelSocket.close();
  const batch = await api.post('/v1/messages/batch', { messages: [{ channelId: 'room-c', content: { late: true } }] });
  assert.equal(batch.status, 429, JSON.stringify(batch.body));
  assert.equal(errorCode(batch), 'quota_exceeded');
  // an edit counts as a publish; a reaction still does not
  const edit = await api.patch(`/v1/channels/room-a/messages/${first.body.id}`, { content: { n: 1, edited: true } });
  assert.equal(edit.status, 429, JSON.stringify(edit.body));
  assert.equal(errorCode(edit), 'quota_exceeded');
  assert.equal((await api.post(`/v1/channels/room-a/messages/${first.body.id}/reactions`, { type: 'heart', userId: 'bob' })).status, 200);

  // history holds exactly the limit
  const stored = await cluster.db.pool.query(`select count(*)::int as n from messages m join channels c on c.pk = m.channel_pk where c.environment_id = $1`, [
    env.environmentId,
  ]);
  assert.equal(stored.rows[0].n, LIMIT);
  const history = await api.get('/v1/channels/room-c/history');
  assert.deepEqual(
    history.body.messages.map((m: { content: { n: number } }) => m.content.n),
    [1, 2],
  );

  // usage.threshold at 80 % and at 100 %, once each
  const thresholds = () => receiver.received.map((r) => JSON.parse(r.raw.toString())).filter((body) => body.type === 'usage.threshold');
  await receiver.waitFor(() => thresholds().length >= 2, 'usage.threshold 80 and 100');
  const events = thresholds().sort((a, b) => a.data.threshold - b.data.threshold);
  assert.deepEqual(
    events.map((e) => e.data.threshold),
    [80, 100],
  );
  const month = new Date();
  const start = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth(), 1)).toISOString();
  for (const event of events) {
    assert.equal(event.environmentId, env.environmentId);
    assert.equal(event.data.quota, 'monthlyMessages');
    assert.equal(event.data.limit, LIMIT);
    assert.deepEqual(event.data.period, { start, resetsAt: nextMonth() });
    assert.ok(event.data.used * 100 >= event.data.threshold * LIMIT, `used ${event.data.used} reaches ${event.data.threshold} %`);
  }

  // raised: the edit and one more publish pass, and no threshold is sent again this month
  assert.equal((await api.patch('/v1/config', { limits: { monthlyMessages: LIMIT + 2 } })).status, 200);
  assert.equal((await api.patch(`/v1/channels/room-a/messages/${first.body.id}`, { content: { n: 1, edited: true } })).status, 200);
  assert.equal((await api.post('/v1/channels/room-a/messages', { content: { n: 12 } })).status, 201);
  assert.equal((await api.post('/v1/channels/room-a/messages', { content: { n: 13 } })).status, 429);
  const quota = await eventually('GET /v1/quota', async () => {
    const res = await api.get('/v1/quota');
    return res.status === 200 && res.body.quotas.messages.used === LIMIT + 2 ? res : undefined;
  });
  assert.deepEqual(quota.body, {
    period: { start, resetsAt: nextMonth() },
    quotas: {
      messages: { limit: LIMIT + 2, used: LIMIT + 2, remaining: 0 },
      connectionMinutes: { limit: null, used: quota.body.quotas.connectionMinutes.used, remaining: null },
    },
  });
  // another publish and a while for any late duplicate: still one event per threshold
  await new Promise((resolve) => setTimeout(resolve, 2000));
  assert.equal(thresholds().length, 2, JSON.stringify(thresholds()));
  assert.equal((await cluster.db.pool.query('select count(*)::int as n from quota_thresholds where environment_id = $1', [env.environmentId])).rows[0].n, 2);
  await socket.close();
});

test('quotas - the limits: validated like the others, null or absent is unlimited', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const env = await cluster.createEnvironment('quota-limits');
  const api = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  for (const bad of [-1, 1.5, '10', 1_000_000_000_001, true]) {
    for (const name of ['monthlyMessages', 'monthlyConnectionMinutes']) {
      const put = await api.put('/v1/config', { limits: { [name]: bad } });
      assert.equal(put.status, 400, `${name}: ${JSON.stringify(bad)}`);
      assert.equal(errorCode(put), 'invalid_request');
      assert.match(put.body.reason, new RegExp(name));
      assert.equal((await api.patch('/v1/config', { limits: { [name]: bad } })).status, 400);
    }
  }
  const zero = await api.put('/v1/config', { limits: { monthlyMessages: 0, monthlyConnectionMinutes: 5 } });
  assert.equal(zero.status, 200, JSON.stringify(zero.body));
  assert.equal(zero.body.config.limits.monthlyMessages, 0);
  assert.equal(zero.body.config.limits.monthlyConnectionMinutes, 5);
  const refused = await api.post('/v1/channels/a/messages', { content: {} });
  assert.equal(refused.status, 429, 'a quota of 0 stores nothing');
  assert.deepEqual(refused.body.quota, { quota: 'monthlyMessages', limit: 0, used: 0, resetsAt: nextMonth() });
  const cleared = await api.patch('/v1/config', { limits: { monthlyMessages: null } });
  assert.equal(cleared.body.config.limits.monthlyMessages, null, 'null: back to unlimited');
  assert.equal(cleared.body.config.limits.monthlyConnectionMinutes, 5, 'the other is unchanged');
  assert.equal((await api.post('/v1/channels/a/messages', { content: {} })).status, 201);
  const put = await api.put('/v1/config', {});
  assert.deepEqual([put.body.config.limits.monthlyMessages, put.body.config.limits.monthlyConnectionMinutes], [null, null], 'absent: unlimited');
});

test("quotas - the dashboard reads an environment's quota as GET /v1/quota does, members only", async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const gw = cluster.gateways[0]!;
  const password = 'correct horse battery';
  const owner = await createUser(cluster.db.pool, { email: 'olivia@example.com', password, organization: 'acme', role: 'owner' });
  await createUser(cluster.db.pool, { email: 'victor@example.com', password, organization: owner.organizationId, role: 'viewer' });
  await createUser(cluster.db.pool, { email: 'oscar@example.com', password, organization: 'globex', role: 'owner' });
  const [admin, viewer, outsider] = [new DashboardClient(gw.controlUrl), new DashboardClient(gw.controlUrl), new DashboardClient(gw.controlUrl)];
  for (const [who, email] of [
    [admin, 'olivia'],
    [viewer, 'victor'],
    [outsider, 'oscar'],
  ] as const) {
    assert.equal((await who.signIn(`${email}@example.com`, password)).status, 200);
  }
  const project = await admin.post(`/v1/dashboard/organizations/${owner.organizationId}/projects`, { name: 'chat' });
  const envId: string = (await admin.post(`/v1/dashboard/projects/${project.body.id}/environments`, { name: 'prod' })).body.id;
  const secretKey: string = (await admin.post(`/v1/dashboard/environments/${envId}/keys`, { kind: 'secret' })).body.key;
  const api = client(gw.controlUrl, secretKey);
  assert.equal((await api.patch('/v1/config', { limits: { monthlyMessages: 5 } })).status, 200);
  for (let n = 0; n < 3; n++) assert.equal((await api.post('/v1/channels/a/messages', { content: { n } })).status, 201);
  const control = await api.get('/v1/quota');
  assert.deepEqual(control.body.quotas.messages, { limit: 5, used: 3, remaining: 2 });
  const shown = await viewer.get(`/v1/dashboard/environments/${envId}/quota`);
  assert.equal(shown.status, 200);
  assert.deepEqual(shown.body, control.body);
  assert.equal(errorCode(await outsider.get(`/v1/dashboard/environments/${envId}/quota`)), 'not_found');
  assert.equal((await new DashboardClient(gw.controlUrl).get(`/v1/dashboard/environments/${envId}/quota`)).status, 401);
  assert.equal((await client(gw.controlUrl).get('/v1/quota')).status, 401);
});

test('quotas - monthlyConnectionMinutes: socket time is flushed and counted, new connections past it are refused', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1, env: { QUOTA_FLUSH_MS: '300' } });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment('quota-minutes');
  const api = client(gw.controlUrl, env.secretKey);
  assert.equal((await api.patch('/v1/config', { limits: { monthlyConnectionMinutes: 1 } })).status, 200);
  // 55 seconds of this month already used (another gateway's flushes): one open socket reaches the minute
  await cluster.db.pool.query(
    `insert into quota_usage (environment_id, period_start, connection_seconds) values ($1, date_trunc('month', now() at time zone 'UTC')::date, 55)`,
    [env.environmentId],
  );
  const alice = await mintToken(gw.controlUrl, env.secretKey, 'alice');
  const first = openSocket(gw.realtimeUrl, `/v1/connect?token=${alice}`);
  await first.waitFor('connected', (f) => f.op === 'connected');
  // its seconds reach quota_usage by the flushes, without a close
  const quota = await eventually(
    'the minute flushed',
    async () => {
      const res = await api.get('/v1/quota');
      return res.body.quotas.connectionMinutes.used >= 1 ? res : undefined;
    },
    30_000,
  );
  assert.deepEqual(quota.body.quotas.connectionMinutes, { limit: 1, used: 1, remaining: 0 });
  assert.deepEqual(quota.body.quotas.messages, { limit: null, used: 0, remaining: null });

  // a new socket: refused with 4429 and the reason; the open one stays
  const refused = await eventually('a refused socket', async () => {
    const socket = openSocket(gw.realtimeUrl, `/v1/connect?token=${alice}`);
    const closed = await Promise.race([
      socket.closed,
      socket
        .waitFor('connected', (f) => f.op === 'connected')
        .then(
          () => undefined,
          () => undefined,
        ),
    ]);
    if (!closed) await socket.close();
    return closed?.code === 4429 ? closed : undefined;
  });
  assert.match(refused.reason, new RegExp(`^quota_exceeded: monthlyConnectionMinutes 1 of 1 used; resets ${nextMonth().replaceAll('.', '\\.')}$`));
  assert.ok(!first.ws.readyState || first.ws.readyState === first.ws.OPEN, 'the open socket is not closed');
  // the event stream answers before its body: 429 in the envelope, with the quota
  const stream = await fetch(`${gw.realtimeUrl}/v1/events?channels=room&token=${alice}`);
  assert.equal(stream.status, 429);
  const body = (await stream.json()) as { code: string; quota: unknown };
  assert.equal(body.code, 'quota_exceeded');
  assert.deepEqual(body.quota, { quota: 'monthlyConnectionMinutes', limit: 1, used: 1, resetsAt: nextMonth() });

  // the SDK stops: one error event with the reason and resetsAt, no reconnect loop
  let opens = 0;
  const errors: { code: string; resetsAt?: string }[] = [];
  const { sdkClient } = await import('./helpers/sdk.ts');
  const sdk = sdkClient(t, gw.realtimeUrl, async () => {
    opens++;
    return alice;
  });
  sdk.on('error', (error) => void errors.push({ code: error.code, ...(error.resetsAt !== undefined && { resetsAt: error.resetsAt }) }));
  await eventually('the SDK closed', async () => (sdk.state === 'closed' ? true : undefined));
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.equal(sdk.state, 'closed');
  assert.deepEqual(errors, [{ code: 'quota_exceeded', resetsAt: nextMonth() }]);
  assert.equal(opens, 1, 'the token was asked for once: no second attempt');

  // 80 % and 100 % of the minute: recorded once each
  await eventually('connection thresholds recorded', async () => {
    const { rows } = await cluster.db.pool.query(
      `select threshold from quota_thresholds where environment_id = $1 and quota = 'monthlyConnectionMinutes' order by threshold`,
      [env.environmentId],
    );
    return rows.length === 2 ? rows.map((r) => r.threshold) : undefined;
  });
  await first.close();
});
