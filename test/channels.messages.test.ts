import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken } from './helpers/http.ts';
import { connectBus, decodeJson, decodeText, logFramesOf, LogListeners, STARTING_MS, subjects } from '@rtm/bus';

test('channels - publish, history, idempotency, ephemeral, retraction, `to` and bad input over HTTP', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const startedAt = Date.now();
  const env = await cluster.createEnvironment();
  const gw = cluster.gateways[0]!;
  const control = client(gw.controlUrl, env.secretKey);
  const alice = client(gw.realtimeUrl, await mintToken(gw.controlUrl, env.secretKey, 'alice'));
  const bob = client(gw.realtimeUrl, await mintToken(gw.controlUrl, env.secretKey, 'bob'));
  const carol = client(gw.realtimeUrl, await mintToken(gw.controlUrl, env.secretKey, 'carol'));

  await t.test('server and user publishes get contiguous seqs and show in history', async () => {
    const first = await control.post('/v1/channels/room.1/messages', { content: { text: 'hello' }, senderId: 'bot' });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal(first.body.seq, 1);
    assert.match(first.body.id, /^msg_/);
    const second = await alice.post('/v1/channels/room.1/messages', { type: 'chat', content: { text: 'hi' } });
    assert.equal(second.status, 201, JSON.stringify(second.body));
    assert.equal(second.body.seq, 2);
    const history = await bob.get('/v1/channels/room.1/history');
    assert.equal(history.status, 200);
    assert.equal(history.body.hasMore, false);
    assert.deepEqual(
      history.body.messages.map((m: any) => [m.seq, m.kind, m.type, m.sender.id, m.content.text, m.retracted, m.ephemeral]),
      [
        [1, 'server', 'message', 'bot', 'hello', false, false],
        [2, 'user', 'chat', 'alice', 'hi', false, false],
      ],
    );
    assert.equal(history.body.messages[1].id, second.body.id);
    assert.equal(history.body.messages[1].timestamp, second.body.timestamp);
  });

  await t.test('history pages with limit, before and after', async () => {
    for (let i = 0; i < 7; i++) assert.equal((await control.post('/v1/channels/pages/messages', { content: { i } })).status, 201);
    const newest = await control.get('/v1/channels/pages/history?limit=3');
    assert.deepEqual(
      newest.body.messages.map((m: any) => m.seq),
      [5, 6, 7],
    );
    assert.equal(newest.body.hasMore, true);
    const older = await control.get('/v1/channels/pages/history?limit=3&before=5');
    assert.deepEqual(
      older.body.messages.map((m: any) => m.seq),
      [2, 3, 4],
    );
    assert.equal(older.body.hasMore, true);
    const oldest = await control.get('/v1/channels/pages/history?limit=3&before=2');
    assert.deepEqual(
      oldest.body.messages.map((m: any) => m.seq),
      [1],
    );
    assert.equal(oldest.body.hasMore, false);
    const after = await control.get('/v1/channels/pages/history?after=2&limit=2');
    assert.deepEqual(
      after.body.messages.map((m: any) => m.seq),
      [3, 4],
    );
    assert.equal(after.body.hasMore, true);
    const between = await control.get('/v1/channels/pages/history?after=2&before=5');
    assert.deepEqual(
      between.body.messages.map((m: any) => m.seq),
      [3, 4],
    );
    assert.equal(between.body.hasMore, false);
    const empty = await control.get('/v1/channels/never-used/history');
    assert.deepEqual(empty.body, { messages: [], hasMore: false });
  });

  await t.test('the same idempotencyKey returns the first result and creates nothing', async () => {
    const body = { content: { n: 1 }, idempotencyKey: 'k-1' };
    const first = await alice.post('/v1/channels/idem/messages', body);
    const again = await alice.post('/v1/channels/idem/messages', { ...body, content: { n: 2 } });
    assert.equal(first.status, 201);
    assert.equal(again.status, 201);
    assert.deepEqual(again.body, first.body);
    const concurrent = await Promise.all(
      Array.from({ length: 5 }, () => control.post('/v1/channels/idem/messages', { content: { n: 3 }, idempotencyKey: 'k-2' })),
    );
    assert.equal(new Set(concurrent.map((r) => r.body.id)).size, 1);
    const history = await control.get('/v1/channels/idem/history');
    assert.deepEqual(
      history.body.messages.map((m: any) => m.seq),
      [1, 2],
    );
  });

  await t.test('ephemeral messages are accepted but never stored and do not advance seq', async () => {
    assert.equal((await control.post('/v1/channels/eph/messages', { content: { a: 1 } })).body.seq, 1);
    const eph = await alice.post('/v1/channels/eph/messages', { content: { typing: true }, ephemeral: true });
    assert.equal(eph.status, 202);
    assert.equal(eph.body.ephemeral, true);
    assert.match(eph.body.id, /^msg_/);
    assert.equal((await control.post('/v1/channels/eph/messages', { content: { a: 2 } })).body.seq, 2);
    const history = await control.get('/v1/channels/eph/history');
    assert.deepEqual(
      history.body.messages.map((m: any) => m.content.a),
      [1, 2],
    );
  });

  await t.test('a user retracts their own message once; not someone else’s', async () => {
    const own = await alice.post('/v1/channels/retract/messages', { content: { text: 'oops' } });
    const others = await bob.post('/v1/channels/retract/messages', { content: { text: 'mine' } });
    const denied = await alice.delete(`/v1/channels/retract/messages/${others.body.id}`);
    assert.equal(denied.status, 403);
    assert.equal(errorCode(denied), 'forbidden');
    const done = await alice.delete(`/v1/channels/retract/messages/${own.body.id}`, { reason: 'typo' });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.deepEqual(done.body, { id: own.body.id, seq: 1, retracted: true, eventSeq: 3 }, 'the retraction took the next seq, after the two messages');
    const twice = await alice.delete(`/v1/channels/retract/messages/${own.body.id}`);
    assert.deepEqual(twice.body, done.body);
    const byServer = await control.delete(`/v1/channels/retract/messages/${others.body.id}`);
    assert.equal(byServer.status, 200);
    const history = await control.get('/v1/channels/retract/history');
    for (const m of history.body.messages) {
      assert.equal(m.retracted, true);
      assert.equal(m.content, null);
    }
    const missing = await control.delete('/v1/channels/retract/messages/msg_nope');
    assert.equal(errorCode(missing), 'not_found');
    const wrongChannel = await control.delete(`/v1/channels/elsewhere/messages/${others.body.id}`);
    assert.equal(errorCode(wrongChannel), 'not_found');
    // exactly one retraction happened per message: two messages, two retractions (each takes a
    // seq of the channel's sequence), the repeated one took none
    assert.equal((await control.post('/v1/channels/retract/messages', { content: {} })).body.seq, 5);
  });

  await t.test('`to` limits who sees a message in history; the control plane sees all', async () => {
    await alice.post('/v1/channels/dm/messages', { content: { text: 'for bob' }, to: ['bob'] });
    await alice.post('/v1/channels/dm/messages', { content: { text: 'for all' } });
    const seen = async (api: typeof alice) => (await api.get('/v1/channels/dm/history')).body.messages.map((m: any) => m.content.text);
    assert.deepEqual(await seen(alice), ['for bob', 'for all']);
    assert.deepEqual(await seen(bob), ['for bob', 'for all']);
    assert.deepEqual(await seen(carol), ['for all']);
    assert.deepEqual(await seen(control), ['for bob', 'for all']);
  });

  await t.test('mentions create inbox notifications in the same commit', async () => {
    const sent = await alice.post('/v1/channels/mentions/messages', { content: { text: '@bob' }, mentions: ['bob', 'carol'] });
    const { rows } = await cluster.db.pool.query<{ user_id: string; type: string; payload: any }>(
      'select user_id, type, payload from notifications order by user_id',
    );
    assert.deepEqual(
      rows.map((r) => [r.user_id, r.type, r.payload.messageId, r.payload.seq, r.payload.senderId, r.payload.channelId]),
      [
        ['bob', 'mention', sent.body.id, 1, 'alice', 'mentions'],
        ['carol', 'mention', sent.body.id, 1, 'alice', 'mentions'],
      ],
    );
  });

  await t.test('after commit: mention notifications go to the user subject, log events to the environment log', async () => {
    const nc = await connectBus(cluster.env.NATS_URL ?? 'nats://127.0.0.1:4222', 'test');
    t.after(() => nc.close());
    const names = subjects(cluster.prefix);
    const inbox = nc.subscribe(names.user(env.environmentId, 'dave.d@x'), { max: 1 });
    const logs = nc.subscribe(names.logs(env.environmentId));
    await nc.flush();
    // past the owner's first seconds (when it publishes every environment's events), a publish
    // nobody announced a live log for sends no event; once a listener is announced, it does
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, startedAt + STARTING_MS + 500 - Date.now())));
    await alice.post('/v1/channels/live.unheard/messages', { content: { text: 'unheard' } });
    const listeners = new LogListeners(nc, names);
    listeners.opened(env.environmentId);
    await nc.flush();
    const sent = await alice.post('/v1/channels/live.mentions/messages', { content: { text: 'hi' }, mentions: ['dave.d@x'] });
    await alice.delete(`/v1/channels/live.mentions/messages/${sent.body.id}`);
    for await (const msg of inbox) {
      const frame = decodeJson<any>(msg.data);
      assert.equal(frame.op, 'notification');
      assert.equal(frame.type, 'mention');
      assert.match(frame.id, /^ntf_/);
      assert.deepEqual(frame.payload, { channelId: 'live.mentions', messageId: sent.body.id, seq: 1, senderId: 'alice' });
    }
    const events: string[] = [];
    read: for await (const msg of logs) {
      // one bus message carries a commit's events: one frame or an array of them
      for (const text of logFramesOf(decodeText(msg.data))) {
        const frame = JSON.parse(text);
        if (frame.data?.channelId !== 'live.mentions' && frame.data?.channelId !== 'live.unheard') continue;
        events.push(`${frame.level}:${frame.event}:${frame.data.channelId}`);
        if (frame.event === 'message.retracted') break read;
      }
    }
    assert.deepEqual(events, ['info:message.published:live.mentions', 'info:message.retracted:live.mentions'], 'the unheard publish sent no event');
  });

  await t.test('persisted publishes and retractions become webhook deliveries; ephemeral ones do not', async () => {
    await cluster.db.pool.query("update environments set webhook_url = 'https://hooks.example.com/in' where id = $1", [env.environmentId]);
    const sent = await alice.post('/v1/channels/hooks/messages', { content: { text: 'x' } });
    await alice.post('/v1/channels/hooks/messages', { content: { text: 'y' }, ephemeral: true });
    const stored = () =>
      cluster.db.pool.query<{ event_id: string; event_type: string; body: string; status: string }>(
        "select event_id, event_type, body, status from webhook_ledger where channel_id = 'hooks' order by id",
      );
    const before = (await stored()).rows;
    assert.deepEqual(
      before.map((r) => [r.event_id, r.event_type]),
      [[sent.body.id, 'message.published']],
    );
    const published = JSON.parse(before[0]!.body);
    assert.equal(published.data.ephemeral, false);
    assert.deepEqual(published.data.content, { text: 'x' });
    await alice.delete(`/v1/channels/hooks/messages/${sent.body.id}`, { reason: 'secret' });
    await alice.delete(`/v1/channels/hooks/messages/${sent.body.id}`);
    const { rows } = await stored();
    assert.deepEqual(
      rows.map((r) => [r.event_id, r.event_type]),
      [
        [sent.body.id, 'message.published'],
        [`retract_${sent.body.id}`, 'message.retracted'],
      ],
    );
    // the retraction redacted the published body and, the URL being unreachable, cancelled its delivery
    assert.equal(rows[0]!.body.includes('"x"'), false);
    assert.equal(JSON.parse(rows[0]!.body).redacted, true);
    assert.equal(rows[0]!.status, 'cancelled');
    const retracted = JSON.parse(rows[1]!.body);
    assert.equal(retracted.data.retracted, true);
    assert.equal(retracted.data.content, null);
    assert.equal(JSON.stringify(retracted).includes('secret'), false);
    await cluster.db.pool.query('update environments set webhook_url = null where id = $1', [env.environmentId]);
  });

  await t.test('bad input gets the error envelope and reaches nothing', async () => {
    const cases: [unknown, string][] = [
      [{}, 'invalid_request'],
      [{ content: 'text' }, 'invalid_request'],
      [{ content: {}, type: '' }, 'invalid_request'],
      [{ content: {}, type: 'x'.repeat(65) }, 'invalid_request'],
      [{ content: {}, to: [] }, 'invalid_request'],
      [{ content: {}, to: ['bad id'] }, 'invalid_request'],
      [{ content: {}, mentions: 'bob' }, 'invalid_request'],
      [{ content: {}, ephemeral: 'yes' }, 'invalid_request'],
      [{ content: {}, unknown: 1 }, 'invalid_request'],
      [{ content: { big: 'x'.repeat(70_000) } }, 'payload_too_large'],
      [{ content: {}, type: 'a\u0000b' }, 'invalid_request'],
      [{ content: {}, idempotencyKey: '\u0000' }, 'invalid_request'],
    ];
    for (const [body, code] of cases) {
      const res = await alice.post('/v1/channels/bad/messages', body);
      assert.equal(errorCode(res), code, JSON.stringify(body).slice(0, 80));
    }
    assert.equal(errorCode(await alice.post('/v1/channels/bad/messages', { content: {}, senderId: 'x' })), 'invalid_request');
    assert.equal(errorCode(await control.post('/v1/channels/bad%20id/messages', { content: {} })), 'invalid_request');
    assert.equal(errorCode(await control.get('/v1/channels/bad/history?limit=501')), 'invalid_request');
    assert.equal(errorCode(await control.get('/v1/channels/bad/history?limit=0')), 'invalid_request');
    assert.equal(errorCode(await control.get('/v1/channels/bad/history?before=x')), 'invalid_request');
    assert.equal(errorCode(await client(gw.realtimeUrl).get('/v1/channels/bad/history')), 'unauthorized');
    assert.equal(errorCode(await client(gw.realtimeUrl, env.secretKey).get('/v1/channels/bad/history')), 'forbidden');
    const { rows } = await cluster.db.pool.query("select 1 from channels where id like 'bad%'");
    assert.equal(rows.length, 0);
    // odd but valid JSON content is stored and read back as sent
    const odd = { nul: '\u0000', emoji: '😀', nested: { a: [1, null, true] } };
    assert.equal((await alice.post('/v1/channels/odd/messages', { content: odd })).status, 201);
    assert.deepEqual((await alice.get('/v1/channels/odd/history')).body.messages[0].content, odd);
  });
});
