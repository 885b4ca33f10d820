/**
 * Erased content stays erased in the webhook ledger. A message's deliveries that were dropped or
 * still pending when its sender's messages were erased (or its channel deleted) are cancelled
 * with their stored bodies redacted, in the erasure's own transaction: a later recovery, manual
 * retry or retry never sends its content again, after the `message.retracted` event or at all;
 * a delivered one keeps its status with its body redacted. Checked on the receiver, through the
 * ledger API and in the database's rows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';
import { startReceiver, type ReceivedWebhook } from './helpers/webhook-receiver.ts';

const bodyOf = (r: ReceivedWebhook) => JSON.parse(r.raw.toString('utf8'));
const mentionsPrivate = (r: ReceivedWebhook) => r.raw.toString('utf8').includes('PRIVATE');

test('webhooks - erasure and channel deletion redact stored bodies; recovery and retry never send erased content', { timeout: 180_000 }, async (t) => {
  // one retry a second later, then dropped: a failing endpoint drops a delivery within seconds
  const cluster = await startCluster(t, {
    gateways: 1,
    channelNodes: 1,
    dispatchers: 1,
    env: { WEBHOOK_RETRY_SCHEDULE: '1s', WEBHOOK_TIMEOUT_MS: '1000' },
  });
  const gateway = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  const api = client(gateway.controlUrl, env.secretKey);
  let up = false;
  const receiver = await startReceiver(t, () => ({ status: up ? 200 : 503 }));
  const archive = await startReceiver(t);
  const endpoint = (await api.post('/v1/webhook-endpoints', { url: receiver.url })).body;
  // a second endpoint that takes only published messages, and is up: its delivery is `delivered`
  const archived = (await api.post('/v1/webhook-endpoints', { url: archive.url, eventTypes: ['message.published'] })).body;
  assert.match(endpoint.id, /^ep_/);
  assert.match(archived.id, /^ep_/);
  const since = new Date(Date.now() - 1_000).toISOString();
  const alice = client(gateway.realtimeUrl, await mintToken(gateway.controlUrl, env.secretKey, 'alice'));
  const bob = client(gateway.realtimeUrl, await mintToken(gateway.controlUrl, env.secretKey, 'bob'));

  // alice's PRIVATE message in `secret`; bob's in `doomed`, whose channel is deleted; bob's PUBLIC
  // one in `lobby`, which stays: all three dropped by the failing endpoint
  const secret = await alice.post('/v1/channels/secret/messages', { content: { t: 'PRIVATE' } });
  assert.equal(secret.status, 201, JSON.stringify(secret.body));
  const doomed = await bob.post('/v1/channels/doomed/messages', { content: { t: 'PRIVATE too' } });
  assert.equal(doomed.status, 201, JSON.stringify(doomed.body));
  const lobby = await bob.post('/v1/channels/lobby/messages', { content: { t: 'PUBLIC' } });
  assert.equal(lobby.status, 201, JSON.stringify(lobby.body));
  const ledger = async (query: string) => (await api.get(`/v1/webhooks/deliveries?endpointId=${endpoint.id}&limit=500&${query}`)).body.data as any[];
  await eventually('the three deliveries dropped', async () => (await ledger('status=dropped')).length === 3, 30_000);
  await archive.waitFor((r) => r.filter(mentionsPrivate).length === 2, 'the archive endpoint got both messages');
  const published = (await ledger('')).filter((d) => d.eventType === 'message.published');
  const deliveryOf = (messageId: string) => published.find((d) => d.eventId === messageId)!.id as string;

  // the erasure, then the channel's deletion
  const erasure = await api.delete('/v1/users/alice/messages');
  assert.equal(erasure.status, 202, JSON.stringify(erasure.body));
  await eventually('the erasure is done', async () => (await api.get(`/v1/erasures/${erasure.body.id}`)).body.status === 'done', 60_000);
  const deletion = await api.delete('/v1/channels/doomed');
  assert.ok([200, 202].includes(deletion.status), JSON.stringify(deletion.body));
  if (deletion.status === 202) {
    await eventually('the deletion is done', async () => (await api.get(`/v1/erasures/${deletion.body.id}`)).body.status === 'done', 60_000);
  }

  // the ledger: both erased messages' deliveries cancelled, for a clear reason; bob's PUBLIC one untouched
  for (const messageId of [secret.body.id, doomed.body.id]) {
    const detail = (await api.get(`/v1/webhooks/deliveries/${deliveryOf(messageId)}`)).body;
    assert.deepEqual([detail.status, detail.lastError], ['cancelled', 'message_retracted'], JSON.stringify(detail));
    assert.equal(JSON.stringify(detail).includes('PRIVATE'), false);
  }
  assert.equal((await api.get(`/v1/webhooks/deliveries/${deliveryOf(lobby.body.id)}`)).body.status, 'dropped');
  assert.equal((await ledger('status=cancelled')).length, 2);

  // the stored bodies: nothing of the erased content, whatever the status (the archive's
  // delivered rows included); bob's PUBLIC message, not erased, kept as it was
  const rows = await cluster.db.pool.query<{ event_id: string; status: string; body: string; endpoint_id: string }>(
    `select event_id, status, body, endpoint_id from webhook_ledger where environment_id = $1 and event_type = 'message.published'`,
    [env.environmentId],
  );
  assert.equal(rows.rows.length, 6);
  for (const row of rows.rows) {
    const erased = row.event_id !== lobby.body.id;
    assert.equal(row.body.includes('PRIVATE'), false, `stored body of ${row.event_id} (${row.status})`);
    if (erased) {
      assert.deepEqual(JSON.parse(row.body), {
        id: row.event_id,
        type: 'message.published',
        environmentId: env.environmentId,
        channelId: row.event_id === secret.body.id ? 'secret' : 'doomed',
        redacted: true,
      });
      assert.equal(row.status, row.endpoint_id === archived.id ? 'delivered' : 'cancelled');
    } else assert.match(row.body, /PUBLIC/);
  }

  // a manual retry of a cancelled delivery is refused, saying why
  const retried = await api.post(`/v1/webhooks/deliveries/${deliveryOf(secret.body.id)}/retry`, {});
  assert.equal(errorCode(retried), 'invalid_request');
  assert.match(retried.body.reason, /retracted or deleted/);

  // the receiver comes up; the endpoint's dropped deliveries are recovered
  const seenBefore = receiver.received.length;
  up = true;
  const recovery = await api.post(`/v1/webhook-endpoints/${endpoint.id}/recover`, { since });
  assert.equal(recovery.status, 202, JSON.stringify(recovery.body));
  await eventually('the recovery is done', async () => (await api.get(`/v1/webhook-tasks/${recovery.body.taskId}`)).body.status === 'completed', 30_000);
  // what the recovery sends: the PUBLIC message and alice's message.retracted (both dropped while
  // the receiver was down), never a published body of an erased message
  await receiver.waitFor(
    (r) => r.slice(seenBefore).some((x) => bodyOf(x).type === 'message.published' && bodyOf(x).data.id === lobby.body.id),
    'the PUBLIC message recovered',
  );
  await receiver.waitFor(
    (r) => r.slice(seenBefore).some((x) => bodyOf(x).type === 'message.retracted' && bodyOf(x).data.id === secret.body.id),
    "alice's retraction recovered",
  );
  // anything the recovery queued has had its turn by now; a last look a moment later
  await eventually('no recovered delivery pending', async () => (await ledger('status=pending')).length === 0, 30_000);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const after = receiver.received.slice(seenBefore);
  assert.deepEqual(
    after.filter(mentionsPrivate).map((x) => bodyOf(x).type),
    [],
    'no erased content after the receiver came up',
  );
  assert.equal(after.filter((x) => bodyOf(x).type === 'message.published' && [secret.body.id, doomed.body.id].includes(bodyOf(x).data.id)).length, 0);
  // and the ledger still says cancelled
  assert.equal((await ledger('status=cancelled')).length, 2);
});

test("webhooks - a first attempt waiting in its owner's memory is withdrawn when its message is retracted", { timeout: 120_000 }, async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1, dispatchers: 1 });
  const gateway = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  const api = client(gateway.controlUrl, env.secretKey);
  const receiver = await startReceiver(t);
  // one send a second: the last of a burst waits seconds in the owner's memory, with the row its
  // notice carried (sent from there without a claim while its push lease lasts)
  const endpoint = await api.post('/v1/webhook-endpoints', { url: receiver.url, rateLimitPerSecond: 1 });
  assert.equal(endpoint.status, 201, JSON.stringify(endpoint.body));
  const alice = client(gateway.realtimeUrl, await mintToken(gateway.controlUrl, env.secretKey, 'alice'));
  const ids: string[] = [];
  for (let i = 0; i < 6; i++) {
    const res = await alice.post('/v1/channels/burst/messages', { content: { t: i === 5 ? 'PRIVATE' : `public ${i}` } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    ids.push(res.body.id);
  }
  const last = ids.at(-1)!;
  const retracted = await alice.delete(`/v1/channels/burst/messages/${last}`);
  assert.equal(retracted.status, 200, JSON.stringify(retracted.body));
  const sentBeforeRetraction = receiver.received.some(mentionsPrivate);
  // the others and the retraction arrive, one a second; the retracted message's content never
  await receiver.waitFor(
    (r) =>
      r.some((x) => bodyOf(x).type === 'message.retracted' && bodyOf(x).data.id === last) &&
      r.filter((x) => bodyOf(x).type === 'message.published').length >= 5,
    'the five others and the retraction',
  );
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  assert.equal(sentBeforeRetraction, false, 'the burst was slow enough that the last one still waited');
  assert.deepEqual(
    receiver.received.filter(mentionsPrivate).map((x) => bodyOf(x).type),
    [],
  );
  const delivery = (await api.get(`/v1/webhooks/deliveries?endpointId=${endpoint.body.id}&status=cancelled`)).body.data;
  assert.deepEqual(
    delivery.map((d: { eventId: string }) => d.eventId),
    [last],
  );
});
