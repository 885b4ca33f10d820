/**
 * @rtm/server against a real cluster: every method of the SDK, its error envelope, opt-in
 * retries on a real 429, and verifyWebhook / parseWebhook on real deliveries.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createServerClient,
  parseWebhook,
  ServerError,
  verifyWebhook,
  WebhookVerificationError,
  WEBHOOK_SIGNATURE_HEADER,
  type ServerClient,
  type WebhookEvent,
} from '@rtm/server';
import { startCluster } from './helpers/cluster.ts';
import { client } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';
import { startReceiver } from './helpers/webhook-receiver.ts';

/** Runs `call`, which must reject with a ServerError, and returns that error. */
async function serverError(call: Promise<unknown>): Promise<ServerError> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof ServerError, `not a ServerError: ${String(error)}`);
    return error;
  }
  assert.fail('the call succeeded');
}

test('server SDK - every method against a real cluster', async (t) => {
  const cluster = await startCluster(t, {
    gateways: 1,
    channelNodes: 1,
    dispatchers: 1,
    // one retry, soon: a failing delivery is dropped within a second
    env: { WEBHOOK_RETRY_SCHEDULE: '200ms', WEBHOOK_TIMEOUT_MS: '5000' },
  });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  const rtm = createServerClient({ url: gw.controlUrl, secretKey: env.secretKey });
  /** The realtime edge as a user of `env` sees it. */
  const asUser = async (userId: string) => client(gw.realtimeUrl, (await rtm.mintToken({ userId })).token);

  await t.test('createServerClient refuses a missing URL or a key that is not a secret key', () => {
    assert.throws(() => createServerClient({ url: 'localhost:8080', secretKey: env.secretKey }), /url/);
    assert.throws(() => createServerClient({ url: gw.controlUrl, secretKey: env.publishableKey }), /sk_/);
  });

  await t.test('mintToken and mintAnonymousToken (with and without a body)', async () => {
    const minted = await rtm.mintToken({ userId: 'ann', ttlSeconds: 600, claims: { plan: 'pro' } });
    assert.equal(minted.userId, 'ann');
    const expiresIn = Date.parse(minted.expiresAt) - Date.now();
    assert.ok(expiresIn > 590_000 && expiresIn <= 600_000, `expires in ${expiresIn} ms`);
    const me = await client(gw.realtimeUrl, minted.token).get('/v1/me');
    assert.equal(me.status, 200);
    assert.deepEqual([me.body.userId, me.body.environmentId, me.body.anon, me.body.ext], ['ann', env.environmentId, false, { plan: 'pro' }]);

    const anonymous = await rtm.mintAnonymousToken();
    assert.match(anonymous.userId, /^anon_/);
    const anonMe = await client(gw.realtimeUrl, anonymous.token).get('/v1/me');
    assert.equal(anonMe.body.anon, true);
    const short = await rtm.mintAnonymousToken({ ttlSeconds: 120 });
    assert.ok(Date.parse(short.expiresAt) - Date.now() <= 120_000);
  });

  await t.test('publishBatch: one result per message, in order, a refused one in its slot', async () => {
    const results = await rtm.publishBatch([
      { channelId: 'batch.1', content: { n: 1 } },
      { channelId: 'batch.2', content: { n: 2 }, senderId: 'bot' },
      { channelId: 'batch.1', content: { n: 3 }, ephemeral: true },
      { channelId: 'batch.1', content: { big: 'x'.repeat(70 * 1024) } },
      { channelId: 'batch.1', content: { n: 5 } },
    ]);
    assert.deepEqual(
      results.map((r) => ('error' in r ? r.error.code : 'ephemeral' in r ? 'ephemeral' : r.seq)),
      [1, 1, 'ephemeral', 'payload_too_large', 2],
    );
    assert.deepEqual(
      (await rtm.history('batch.1')).messages.map((m) => m.content?.n),
      [1, 5],
    );
  });

  await t.test('publish, ephemeral publish, history pages, retract with and without a reason', async () => {
    const first = await rtm.publish('room.1', { content: { text: 'hello' }, senderId: 'bot', type: 'chat' });
    assert.match(first.id, /^msg_/);
    assert.equal(first.seq, 1);
    const second = await rtm.publish('room.1', { content: { text: 'again' }, idempotencyKey: 'k-1' });
    assert.equal(second.seq, 2);
    assert.deepEqual(await rtm.publish('room.1', { content: { text: 'again' }, idempotencyKey: 'k-1' }), second, 'idempotent');
    const ephemeral = await rtm.publish('room.1', { content: { typing: true }, ephemeral: true });
    assert.deepEqual(Object.keys(ephemeral).sort(), ['ephemeral', 'id']);
    assert.equal(ephemeral.ephemeral, true);

    const all = await rtm.history('room.1');
    assert.equal(all.hasMore, false);
    assert.deepEqual(
      all.messages.map((m) => [m.seq, m.kind, m.type, m.sender.id, m.content?.text]),
      [
        [1, 'server', 'chat', 'bot', 'hello'],
        [2, 'server', 'message', 'server', 'again'],
      ],
    );
    const page = await rtm.history('room.1', { after: 0, limit: 1 });
    assert.deepEqual([page.messages.map((m) => m.seq), page.hasMore], [[1], true]);
    assert.deepEqual((await rtm.history('never-used')).messages, []);

    // a retraction takes the channel's next place (`eventSeq`); retracting again changes nothing
    const retracted = await rtm.retract('room.1', first.id);
    assert.deepEqual(retracted, { id: first.id, seq: 1, retracted: true, eventSeq: 3 });
    assert.deepEqual(await rtm.retract('room.1', second.id, { reason: 'off topic' }), { id: second.id, seq: 2, retracted: true, eventSeq: 4 });
    assert.deepEqual(await rtm.retract('room.1', second.id), { id: second.id, seq: 2, retracted: true, eventSeq: 4 }, 'answered as the first');
    const after = await rtm.history('room.1');
    assert.deepEqual(
      after.messages.map((m) => [m.retracted, m.content]),
      [
        [true, null],
        [true, null],
      ],
    );
    const missing = await serverError(rtm.retract('room.1', 'msg_00000000000000000000000000'));
    assert.deepEqual([missing.status, missing.code], [404, 'not_found']);
  });

  await t.test('channel access, putMember (default role and a role), roster, removeMember', async () => {
    assert.deepEqual(await rtm.setChannelAccess('club', 'members'), { channelId: 'club', access: 'members' });
    const ann = await asUser('ann');
    assert.equal((await ann.get('/v1/channels/club/history')).status, 403, 'not a member yet');

    const membership = await rtm.putMember('club', 'ann');
    assert.deepEqual([membership.channelId, membership.userId, membership.role], ['club', 'ann', 'member']);
    assert.equal((await rtm.putMember('club', 'bob', { role: 'moderator' })).role, 'moderator');
    assert.equal((await ann.get('/v1/channels/club/history')).status, 200, 'a member reads the channel');
    const roster = await rtm.roster('club');
    assert.deepEqual(roster.members, [
      { userId: 'ann', role: 'member', online: false },
      { userId: 'bob', role: 'moderator', online: false },
    ]);

    assert.equal(await rtm.removeMember('club', 'ann'), undefined);
    await rtm.removeMember('club', 'ann'); // idempotent
    assert.deepEqual(
      (await rtm.roster('club')).members.map((m) => m.userId),
      ['bob'],
    );
    assert.equal((await ann.get('/v1/channels/club/history')).status, 403, 'removed');
    assert.equal((await rtm.setChannelAccess('club', 'open')).access, 'open');
    assert.equal((await ann.get('/v1/channels/club/history')).status, 200, 'open again');
  });

  await t.test('channel bans and environment-wide bans: put, get, lift', async () => {
    assert.equal(await rtm.getBan('room.1', 'bob'), null, 'no ban yet');
    const ban = await rtm.ban('room.1', 'bob');
    assert.deepEqual([ban.userId, ban.channelId, ban.reason, ban.expiresAt], ['bob', 'room.1', null, null]);
    const bob = await asUser('bob');
    assert.equal((await bob.get('/v1/channels/room.1/history')).status, 403);
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const replaced = await rtm.ban('room.1', 'bob', { reason: 'spam', expiresAt });
    assert.deepEqual([replaced.reason, Date.parse(replaced.expiresAt!)], ['spam', Date.parse(expiresAt)]);
    assert.equal((await rtm.getBan('room.1', 'bob'))?.reason, 'spam');
    assert.equal(await rtm.unban('room.1', 'bob'), undefined);
    assert.equal(await rtm.getBan('room.1', 'bob'), null);
    assert.equal((await bob.get('/v1/channels/room.1/history')).status, 200);

    const past = await serverError(rtm.ban('room.1', 'bob', { expiresAt: new Date(Date.now() - 1000).toISOString() }));
    assert.deepEqual([past.status, past.code], [400, 'invalid_request']);

    assert.equal(await rtm.getEnvironmentBan('eve'), null);
    const everywhere = await rtm.banFromEnvironment('eve', { reason: 'abuse' });
    assert.deepEqual([everywhere.userId, everywhere.channelId, everywhere.reason], ['eve', null, 'abuse']);
    assert.equal((await rtm.getEnvironmentBan('eve'))?.reason, 'abuse');
    const refused = await serverError(rtm.mintToken({ userId: 'eve' }));
    assert.deepEqual([refused.status, refused.code, refused.reason], [403, 'banned', 'abuse']);
    await rtm.unbanFromEnvironment('eve');
    assert.equal(await rtm.getEnvironmentBan('eve'), null);
    assert.equal((await rtm.mintToken({ userId: 'eve' })).userId, 'eve');
    await rtm.banFromEnvironment('mallory'); // no body: reason and expiry are optional
    assert.equal((await rtm.getEnvironmentBan('mallory'))?.reason, null);
  });

  await t.test('notify reaches the inbox; repeats are sent once', async () => {
    const sent = await rtm.notify({ userIds: ['ann', 'ben', 'ann'], type: 'invite', payload: { room: 'club' } });
    assert.equal(sent.ids.length, 2);
    const inbox = await (await asUser('ann')).get('/v1/inbox');
    assert.equal(inbox.status, 200);
    assert.deepEqual(
      inbox.body.notifications.map((n: any) => [n.id, n.type, n.payload]),
      [[sent.ids[0], 'invite', { room: 'club' }]],
    );
  });

  await t.test("mintLogsToken for the key's own environment only", async () => {
    const logs = await rtm.mintLogsToken(env.environmentId);
    assert.ok(logs.token.split('.').length === 3);
    const short = await rtm.mintLogsToken(env.environmentId, { ttlSeconds: 60 });
    assert.ok(Date.parse(short.expiresAt) - Date.now() <= 60_000);
    const other = await cluster.createEnvironment('other');
    const refused = await serverError(rtm.mintLogsToken(other.environmentId));
    assert.deepEqual([refused.status, refused.code], [403, 'forbidden']);
  });

  await t.test('config, webhook secret, deliveries, verifyWebhook on a real delivery, rotation, retryDelivery', async (t) => {
    const before = await rtm.getConfig();
    assert.deepEqual([before.deploymentId, before.activatedAt, before.config.webhooks], [null, null, null]);
    const notConfigured = await serverError(rtm.webhookSecret());
    assert.deepEqual([notConfigured.status, notConfigured.code], [404, 'webhooks_not_configured']);

    const receiver = await startReceiver(t);
    const deployed = await rtm.deployConfig({ webhooks: { url: receiver.url }, limits: { userPublishesPerSecond: 20 } });
    assert.match(deployed.deploymentId!, /^dep_/);
    assert.equal(deployed.config.limits.userPublishesPerSecond, 20);
    const active = await rtm.getConfig();
    assert.deepEqual([active.deploymentId, active.config.webhooks?.url, active.config.channels.access], [deployed.deploymentId, receiver.url, 'open']);
    const badUrl = await serverError(rtm.deployConfig({ webhooks: { url: 'http://10.0.0.1/hook' } }));
    assert.deepEqual([badUrl.status, badUrl.code], [422, 'invalid_webhook_url']);

    const secret = await rtm.webhookSecret();
    assert.match(secret, /^whsec_/);

    // a real delivery, verified with the SDK's verifier over the exact bytes received
    const published = await rtm.publish('hooks', { content: { text: 'signed' } });
    await receiver.waitFor((r) => r.some((w) => w.raw.includes(published.id)), 'the delivery');
    const received = receiver.received.find((w) => w.raw.includes(published.id))!;
    const header = received.headers[WEBHOOK_SIGNATURE_HEADER] as string;
    assert.deepEqual(verifyWebhook(received.raw, header, secret).ok, true);
    const event: WebhookEvent = parseWebhook(received.raw, header, secret);
    assert.deepEqual([event.id, event.type, event.channelId, event.environmentId], [published.id, 'message.published', 'hooks', env.environmentId]);
    assert.deepEqual([event.data.seq, event.data.content], [published.seq, { text: 'signed' }]);
    // refusals: another secret, altered bytes, an old timestamp
    assert.deepEqual(verifyWebhook(received.raw, header, 'whsec_other'), { ok: false, reason: 'signature mismatch' });
    assert.equal(verifyWebhook(Buffer.concat([received.raw, Buffer.from(' ')]), header, secret).ok, false);
    assert.equal(verifyWebhook(received.raw, header, secret, { now: Date.now() + 3_600_000 }).ok, false);
    assert.throws(
      () => parseWebhook(received.raw, undefined, secret),
      (error: unknown) => error instanceof WebhookVerificationError && error.reason === 'missing signature header',
    );

    // the ledger: list, one, paging through every delivery
    let delivered: Awaited<ReturnType<ServerClient['delivery']>> | undefined;
    await eventually('the delivery is delivered in the ledger', async () => {
      const list = await rtm.deliveries({ status: 'delivered' });
      const row = list.data.find((d) => d.eventId === published.id);
      if (!row) return false;
      delivered = await rtm.delivery(row.id);
      return true;
    });
    assert.deepEqual([delivered!.status, delivered!.attempts, delivered!.attemptLog.length, delivered!.attemptLog[0]!.statusCode], ['delivered', 1, 1, 200]);
    const retracted = await rtm.retract('hooks', published.id);
    await receiver.waitFor((r) => r.some((w) => w.raw.includes(`retract_${published.id}`)), 'the retraction');
    const firstPage = await rtm.deliveries({ limit: 1 });
    assert.equal(firstPage.data.length, 1);
    assert.ok(firstPage.nextCursor, 'two deliveries: a second page');
    const everything: string[] = [];
    for await (const delivery of rtm.allDeliveries({ limit: 1 })) everything.push(delivery.eventId);
    assert.deepEqual(everything.sort(), [published.id, `retract_${retracted.id}`].sort());
    const badQuery = await serverError(rtm.deliveries({ limit: 0 }));
    assert.equal(badQuery.code, 'invalid_request');

    // rotation: the next delivery carries both signatures, so either secret verifies it
    const rotated = await rtm.rotateWebhookSecret();
    assert.match(rotated, /^whsec_/);
    assert.notEqual(rotated, secret);
    assert.equal(await rtm.webhookSecret(), rotated);
    const afterRotation = await rtm.publish('hooks', { content: { text: 'rotated' } });
    await receiver.waitFor((r) => r.some((w) => w.raw.includes(afterRotation.id)), 'the delivery after rotation');
    const signedTwice = receiver.received.find((w) => w.raw.includes(afterRotation.id))!;
    for (const key of [rotated, secret]) {
      assert.equal(verifyWebhook(signedTwice.raw, signedTwice.headers[WEBHOOK_SIGNATURE_HEADER], key).ok, true);
    }

    // a delivery the receiver refuses is dropped after the schedule; retryDelivery sends it again
    receiver.behaviour = () => ({ status: 500 });
    const refused = await rtm.publish('hooks', { content: { text: 'refused' } });
    let droppedId = '';
    await eventually('the refused delivery is dropped', async () => {
      const row = (await rtm.deliveries({ status: 'dropped' })).data.find((d) => d.eventId === refused.id);
      droppedId = row?.id ?? '';
      return row !== undefined;
    });
    const dropped = await rtm.delivery(droppedId);
    assert.deepEqual([dropped.attempts, dropped.lastError, dropped.lastStatusCode], [2, 'status 500', 500]);
    receiver.behaviour = () => ({ status: 200 });
    const requeued = await rtm.retryDelivery(droppedId);
    assert.deepEqual([requeued.id, requeued.status], [droppedId, 'pending']);
    await eventually('the retried delivery is delivered', async () => (await rtm.delivery(droppedId)).status === 'delivered');
    const notDropped = await serverError(rtm.retryDelivery(droppedId));
    assert.deepEqual([notDropped.status, notDropped.code], [400, 'invalid_request']);
    const unknown = await serverError(rtm.delivery('dlv_00000000000000000000000000'));
    assert.deepEqual([unknown.status, unknown.code], [404, 'not_found']);
  });

  await t.test('errors are ServerErrors built from the envelope', async () => {
    const badChannel = await serverError(rtm.publish('bad channel!', { content: {} }));
    assert.equal(badChannel.status, 400);
    assert.equal(badChannel.code, 'invalid_request');
    assert.match(badChannel.reason ?? '', /channelId/);
    assert.equal(badChannel.retryable, false);
    assert.equal((await serverError(rtm.history('bad channel!'))).code, 'invalid_request');

    const unknownKey = createServerClient({ url: gw.controlUrl, secretKey: 'sk_unknown' });
    const unauthorized = await serverError(unknownKey.getConfig());
    assert.deepEqual([unauthorized.status, unauthorized.code], [401, 'unauthorized']);

    const tooBig = await serverError(rtm.publish('room.1', { content: { text: 'x'.repeat(70_000) } }));
    assert.deepEqual([tooBig.status, tooBig.code], [413, 'payload_too_large']);
  });

  await t.test('the typed openapi-fetch client underneath is usable directly', async () => {
    const { data, response } = await rtm.api.GET('/v1/channels/{channelId}/history', { params: { path: { channelId: 'room.1' }, query: { limit: 1 } } });
    assert.equal(response.status, 200);
    assert.equal(data?.messages.length, 1);
  });
});

test('server SDK - 429 surfaces retryAfter; opt-in retries wait for it and succeed', async (t) => {
  const cluster = await startCluster(t, { gateways: 1 });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment('rated');
  const plain = createServerClient({ url: gw.controlUrl, secretKey: env.secretKey });
  await plain.deployConfig({ limits: { secretKeyRequestsPerSecond: 2 } });

  // 20 at once: even spread over five one-second windows, at most 10 are admitted
  const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => plain.getConfig()));
  const refusals = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
  assert.ok(refusals.length >= 10, `${refusals.length} refused`);
  for (const error of refusals) {
    assert.ok(error instanceof ServerError);
    assert.deepEqual([error.status, error.code, error.retryAfter, error.retryable], [429, 'rate_limited', 1, true]);
    assert.match(error.reason ?? '', /secretKeyRequestsPerSecond/);
  }

  // with retries: every call succeeds, after waiting out the 429s it met
  const statuses: number[] = [];
  const counting = (request: Request) =>
    fetch(request).then((response) => {
      statuses.push(response.status);
      return response;
    });
  const patient = createServerClient({ url: gw.controlUrl, secretKey: env.secretKey, fetch: counting, retry: { retries: 20, maxDelayMs: 2_000 } });
  const results = await Promise.all(Array.from({ length: 8 }, () => patient.getConfig()));
  assert.equal(results.length, 8);
  for (const result of results) assert.equal(result.config.limits.secretKeyRequestsPerSecond, 2);
  assert.ok(statuses.includes(429), `some requests were refused first: ${statuses.join(',')}`);
  assert.equal(statuses.filter((s) => s === 200).length, 8);

  // a retry-after beyond maxDelayMs is not waited for
  const hasty = createServerClient({ url: gw.controlUrl, secretKey: env.secretKey, retry: { retries: 5, maxDelayMs: 100 } });
  const hastyOutcomes = await Promise.allSettled(Array.from({ length: 20 }, () => hasty.getConfig()));
  const hastyRefusal = hastyOutcomes.find((o) => o.status === 'rejected');
  assert.ok(hastyRefusal, 'some calls were refused');
  assert.equal((hastyRefusal as PromiseRejectedResult).reason.retryAfter, 1);
});
