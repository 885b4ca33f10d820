/**
 * @rtm/server without a server: what it sends and how it reads answers, through a `fetch` that
 * records requests and plays back answers.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createServerClient, parseRetryAfter, ServerError } from '@rtm/server';

interface Sent {
  method: string;
  url: string;
  headers: Headers;
  body: string;
}

/** A client whose fetch answers with `answers` in turn (the last one repeats). */
function fake(answers: Array<() => Response>, retry?: Parameters<typeof createServerClient>[0]['retry']) {
  const sent: Sent[] = [];
  const rtm = createServerClient({
    url: 'http://control.test/',
    secretKey: 'sk_test',
    retry,
    headers: { 'x-trace': 'abc' },
    fetch: async (request) => {
      sent.push({ method: request.method, url: request.url, headers: request.headers, body: await request.text() });
      return answers[Math.min(sent.length - 1, answers.length - 1)]!();
    },
  });
  return { rtm, sent };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const envelope = (status: number, code: string, headers: Record<string, string> = {}) =>
  json(status, { code, reason: `${code} here` }, { 'x-service-error': code, ...headers });

test('server SDK unit - requests: secret key, paths encoded, no body when none is given', async () => {
  const { rtm, sent } = fake([json(200, { id: 'msg_1', seq: 1, retracted: true })]);
  await rtm.retract('a:b@c', 'msg_1');
  assert.equal(sent[0]!.method, 'DELETE');
  assert.equal(sent[0]!.url, 'http://control.test/v1/channels/a%3Ab%40c/messages/msg_1');
  assert.equal(sent[0]!.headers.get('authorization'), 'Bearer sk_test');
  assert.equal(sent[0]!.headers.get('x-trace'), 'abc');
  assert.equal(sent[0]!.body, '', 'an optional body left out is not sent');
  assert.equal(sent[0]!.headers.get('content-type'), null);

  await rtm.retract('room', 'msg_1', { reason: 'spam' });
  assert.deepEqual(JSON.parse(sent[1]!.body), { reason: 'spam' });
  assert.equal(sent[1]!.headers.get('content-type'), 'application/json');

  await rtm.history('room', { after: 3, limit: 2 }).catch(() => {});
  assert.equal(sent[2]!.url, 'http://control.test/v1/channels/room/history?after=3&limit=2');
});

test('server SDK unit - errors: the envelope, retry-after, answers without an envelope', async () => {
  const limited = await fake([envelope(429, 'rate_limited', { 'retry-after': '3' })])
    .rtm.getConfig()
    .catch((e: unknown) => e);
  assert.ok(limited instanceof ServerError);
  assert.deepEqual(
    [limited.status, limited.code, limited.reason, limited.retryAfter, limited.retryable, limited.message],
    [429, 'rate_limited', 'rate_limited here', 3, true, '429 rate_limited: rate_limited here'],
  );

  const forbidden = await fake([envelope(403, 'forbidden')])
    .rtm.getConfig()
    .catch((e: unknown) => e);
  assert.ok(forbidden instanceof ServerError);
  assert.deepEqual([forbidden.code, forbidden.retryAfter, forbidden.retryable], ['forbidden', undefined, false]);

  const proxy = await fake([() => new Response('<html>Bad Gateway</html>', { status: 502, statusText: 'Bad Gateway' })])
    .rtm.getConfig()
    .catch((e: unknown) => e);
  assert.ok(proxy instanceof ServerError);
  assert.deepEqual([proxy.status, proxy.code, proxy.reason], [502, 'http_error', '<html>Bad Gateway</html>']);

  const empty = await fake([() => new Response(null, { status: 503, statusText: 'Service Unavailable', headers: { 'x-service-error': 'unavailable' } })])
    .rtm.getConfig()
    .catch((e: unknown) => e);
  assert.ok(empty instanceof ServerError);
  assert.deepEqual([empty.code, empty.retryable], ['unavailable', true]);

  assert.equal(await fake([envelope(404, 'not_found')]).rtm.getBan('room', 'bob'), null, 'no live ban');
  const noWebhook = await fake([envelope(404, 'webhooks_not_configured')])
    .rtm.getBan('room', 'bob')
    .catch((e: unknown) => e);
  assert.ok(noWebhook instanceof ServerError, 'only not_found means "no ban"');
});

test('server SDK unit - retries are opt-in, resend the same body, and add an idempotency key to publishes', async () => {
  const published = json(201, { id: 'msg_1', seq: 1, timestamp: 1 });
  const busy = envelope(503, 'unavailable', { 'retry-after': '0' });

  const once = fake([busy, published]);
  await assert.rejects(once.rtm.publish('room', { content: { n: 1 } }), (e: unknown) => e instanceof ServerError && e.code === 'unavailable');
  assert.equal(once.sent.length, 1, 'no retry unless asked');
  assert.equal(JSON.parse(once.sent[0]!.body).idempotencyKey, undefined, 'no key added without retries');

  const retried = fake([busy, envelope(429, 'rate_limited', { 'retry-after': '0' }), published], { retries: 2 });
  assert.deepEqual(await retried.rtm.publish('room', { content: { n: 1 } }), { id: 'msg_1', seq: 1, timestamp: 1 });
  assert.equal(retried.sent.length, 3);
  const bodies = retried.sent.map((s) => JSON.parse(s.body) as { idempotencyKey?: string; content: unknown });
  assert.ok(bodies[0]!.idempotencyKey, 'a key was added');
  for (const body of bodies) assert.deepEqual(body, bodies[0], 'every try sends the same body and key');

  const own = fake([busy, published], true);
  await own.rtm.publish('room', { content: {}, idempotencyKey: 'mine' });
  assert.deepEqual(
    own.sent.map((s) => JSON.parse(s.body).idempotencyKey),
    ['mine', 'mine'],
  );
  const ephemeral = fake([json(202, { id: 'msg_2', ephemeral: true })], true);
  await ephemeral.rtm.publish('room', { content: {}, ephemeral: true });
  assert.equal(JSON.parse(ephemeral.sent[0]!.body).idempotencyKey, undefined, 'ephemeral messages ignore keys');

  const exhausted = fake([busy], { retries: 2 });
  await assert.rejects(exhausted.rtm.getConfig(), (e: unknown) => e instanceof ServerError && e.status === 503);
  assert.equal(exhausted.sent.length, 3, 'the first try and two retries');

  const tooLong = fake([envelope(429, 'rate_limited', { 'retry-after': '60' }), json(200, {})], { retries: 3, maxDelayMs: 1_000 });
  await assert.rejects(tooLong.rtm.getConfig(), (e: unknown) => e instanceof ServerError && e.retryAfter === 60);
  assert.equal(tooLong.sent.length, 1, 'a retry-after beyond maxDelayMs is not waited for');

  const spent = fake([envelope(429, 'quota_exceeded', { 'retry-after': '0' }), published], { retries: 3 });
  await assert.rejects(spent.rtm.publish('room', { content: {} }), (e: unknown) => e instanceof ServerError && e.code === 'quota_exceeded');
  assert.equal(spent.sent.length, 1, 'a spent monthly quota is not tried again');

  const other = fake([envelope(400, 'invalid_request'), json(200, {})], { retries: 3 });
  await assert.rejects(other.rtm.getConfig());
  assert.equal(other.sent.length, 1, 'only 429 and 503 are retried');
});

test('server SDK unit - parseRetryAfter reads seconds and HTTP dates', () => {
  assert.equal(parseRetryAfter('7'), 7);
  assert.equal(parseRetryAfter(' 0 '), 0);
  assert.equal(parseRetryAfter(null), undefined);
  assert.equal(parseRetryAfter('soon'), undefined);
  const now = Date.parse('2030-01-01T00:00:00Z');
  assert.equal(parseRetryAfter('Tue, 01 Jan 2030 00:00:05 GMT', now), 5);
  assert.equal(parseRetryAfter('Mon, 31 Dec 2029 23:00:00 GMT', now), 0);
});

test('server SDK unit - createServerClient checks its options', () => {
  assert.throws(() => createServerClient({ url: '', secretKey: 'sk_x' }), TypeError);
  assert.throws(() => createServerClient({ url: 'http://control.test', secretKey: 'pk_x' }), /secret key/);
});

/** Settles `work` while its sleeps (setTimeout) pass at once: the clock is moved on between turns. */
async function withoutWaiting<T>(t: TestContext, work: () => Promise<T>): Promise<T> {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  try {
    let settled = false;
    const result = work().finally(() => {
      settled = true;
    });
    while (!settled) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      t.mock.timers.tick(1_000);
    }
    return await result;
  } finally {
    t.mock.timers.reset();
  }
}

test("server SDK unit - deleteChannel: a 200 is the answer; a 202 is followed to the job's end", async (t) => {
  const counts = { messages: 7, members: 1, bans: 0 };
  const direct = fake([json(200, { channelId: 'room', deleted: counts })]);
  assert.deepEqual(await direct.rtm.deleteChannel('room'), { channelId: 'room', deleted: counts });
  assert.equal(direct.sent.length, 1);

  const job = { id: 'erj_1', kind: 'channel', userId: null, channelId: 'room', retracted: 0, lastError: null, createdAt: '', updatedAt: '', finishedAt: null };
  const running = { ...job, status: 'running', deleted: { messages: 3, members: 0, bans: 0 } };
  const followed = fake([json(202, running, { location: '/v1/erasures/erj_1' }), json(200, running), json(200, { ...job, status: 'done', deleted: counts })]);
  assert.deepEqual(await withoutWaiting(t, () => followed.rtm.deleteChannel('room')), { channelId: 'room', deleted: counts });
  assert.deepEqual(
    followed.sent.map((s) => `${s.method} ${s.url}`),
    ['DELETE http://control.test/v1/channels/room', 'GET http://control.test/v1/erasures/erj_1', 'GET http://control.test/v1/erasures/erj_1'],
  );

  const nothing = await withoutWaiting(t, () =>
    fake([json(202, running), json(200, { ...job, status: 'done', deleted: null })])
      .rtm.deleteChannel('room')
      .catch((e: unknown) => e),
  );
  assert.ok(nothing instanceof ServerError);
  assert.deepEqual([nothing.status, nothing.code], [404, 'not_found']);
  const failed = await withoutWaiting(t, () =>
    fake([json(202, running), json(200, { ...running, status: 'failed', lastError: 'boom' })])
      .rtm.deleteChannel('room')
      .catch((e: unknown) => e),
  );
  assert.ok(failed instanceof ServerError);
  assert.deepEqual([failed.status, failed.code, failed.retryable], [503, 'unavailable', true]);
  assert.match(failed.reason ?? '', /boom/);
});
