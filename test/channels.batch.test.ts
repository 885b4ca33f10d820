import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken, request } from './helpers/http.ts';
import { openSocket } from './helpers/ws.ts';

test('channels - batch publish on both hosts: one result per message in order, refusals per message, limits per message', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 2 });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  const control = client(gw.controlUrl, env.secretKey);

  await t.test('control plane: many channels, results in order, seqs contiguous per channel, history and sockets see them', async () => {
    const listener = openSocket(gw.realtimeUrl, `/v1/channels/b.0?token=${await mintToken(gw.controlUrl, env.secretKey, 'watcher')}`);
    await listener.waitFor('ready', (frame) => frame.op === 'ready');
    const messages = Array.from({ length: 60 }, (_, i) => ({ channelId: `b.${i % 6}`, content: { i }, senderId: i === 0 ? 'bot' : undefined }));
    const res = await control.post('/v1/messages/batch', { messages });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.results.length, 60);
    for (let c = 0; c < 6; c++) {
      const seqs = res.body.results.filter((_: unknown, i: number) => i % 6 === c).map((r: any) => r.seq);
      assert.deepEqual(
        seqs,
        Array.from({ length: 10 }, (_, k) => k + 1),
        `channel b.${c} in request order`,
      );
      const history = await control.get(`/v1/channels/b.${c}/history`);
      assert.deepEqual(
        history.body.messages.map((m: any) => [m.seq, m.content.i, m.id]),
        res.body.results.flatMap((r: any, i: number) => (i % 6 === c ? [[r.seq, i, r.id]] : [])),
      );
    }
    assert.equal((await control.get('/v1/channels/b.0/history?limit=1&after=0')).body.messages[0].sender.id, 'bot');
    for (const r of res.body.results) {
      assert.match(r.id, /^msg_/);
      assert.equal(typeof r.timestamp, 'number');
    }
    await listener.waitFor('the tenth frame', () => listener.frames.filter((f) => f.content?.i !== undefined).length === 10);
    assert.deepEqual(
      listener.frames.filter((f) => f.content?.i !== undefined).map((f) => f.content.i),
      Array.from({ length: 10 }, (_, k) => k * 6),
    );
    await listener.close();
  });

  await t.test('ephemeral messages and idempotency keys per message; a repeated batch creates nothing', async () => {
    const messages = [
      { channelId: 'idem', content: { n: 1 }, idempotencyKey: 'a' },
      { channelId: 'idem', content: { n: 2 }, ephemeral: true },
      { channelId: 'idem', content: { n: 3 }, idempotencyKey: 'b' },
    ];
    const first = await control.post('/v1/messages/batch', { messages });
    assert.equal(first.status, 200);
    assert.deepEqual(
      first.body.results.map((r: any) => r.seq ?? r.ephemeral),
      [1, true, 2],
    );
    const again = await control.post('/v1/messages/batch', { messages: [messages[0], messages[2]] });
    assert.deepEqual(again.body.results, [first.body.results[0], first.body.results[2]]);
    assert.equal((await control.get('/v1/channels/idem/history')).body.messages.length, 2);
  });

  await t.test('realtime edge: the sender is the token user; a channel the token may not publish to is refused in its slot only', async () => {
    const token = await mintToken(gw.controlUrl, env.secretKey, 'alice', { capabilities: { 'open.*': ['publish', 'history'] } });
    const alice = client(gw.realtimeUrl, token);
    const res = await alice.post('/v1/messages/batch', {
      messages: [
        { channelId: 'open.1', content: { n: 1 } },
        { channelId: 'closed.1', content: { n: 2 } },
        { channelId: 'open.1', content: { n: 3 }, type: 'chat' },
      ],
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.results[0].seq, 1);
    assert.equal(res.body.results[1].error.code, 'forbidden');
    assert.equal(res.body.results[2].seq, 2);
    const history = await control.get('/v1/channels/open.1/history');
    assert.deepEqual(
      history.body.messages.map((m: any) => [m.sender.id, m.kind, m.type]),
      [
        ['alice', 'user', 'message'],
        ['alice', 'user', 'chat'],
      ],
    );
    assert.equal((await control.get('/v1/channels/closed.1/history')).body.messages.length, 0);
    // senderId is the control plane's: refused here
    const spoof = await alice.post('/v1/messages/batch', { messages: [{ channelId: 'open.1', content: {}, senderId: 'bob' }] });
    assert.equal(spoof.status, 400);
  });

  await t.test('content over a namespace limit is refused per message; bad bodies are refused whole', async () => {
    const deployed = await control.put('/v1/config', { namespaces: [{ prefix: 'small.', maxContentBytes: 100 }] });
    assert.equal(deployed.status, 200, JSON.stringify(deployed.body));
    const res = await control.post('/v1/messages/batch', {
      messages: [
        { channelId: 'small.1', content: { text: 'x'.repeat(200) } },
        { channelId: 'small.1', content: { text: 'ok' } },
        { channelId: 'big', content: { text: 'y'.repeat(70 * 1024) } },
      ],
    });
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.results.map((r: any) => r.error?.code ?? r.seq),
      ['payload_too_large', 1, 'payload_too_large'],
    );

    const tooMany = await control.post('/v1/messages/batch', { messages: Array.from({ length: 101 }, () => ({ channelId: 'x', content: {} })) });
    assert.equal(tooMany.status, 400);
    assert.equal(errorCode(tooMany), 'invalid_request');
    assert.equal((await control.post('/v1/messages/batch', { messages: [] })).status, 400);
    const bad = await control.post('/v1/messages/batch', {
      messages: [
        { channelId: 'fine', content: {} },
        { channelId: 'bad id!', content: {} },
      ],
    });
    assert.equal(bad.status, 400);
    assert.match(bad.body.reason, /messages/);
    assert.equal((await control.get('/v1/channels/fine/history')).body.messages.length, 0, 'nothing of a refused body is published');
    // 1 MiB body limit (each message under 64 KiB, 20 of them over 1 MiB)
    const huge = await control.post('/v1/messages/batch', {
      messages: Array.from({ length: 20 }, () => ({ channelId: 'huge', content: { text: 'z'.repeat(60 * 1024) } })),
    });
    assert.equal(huge.status, 413);
    assert.equal(errorCode(huge), 'payload_too_large');
    // unauthenticated
    assert.equal((await request(gw.controlUrl, 'POST', '/v1/messages/batch', { body: { messages: [{ channelId: 'x', content: {} }] } })).status, 401);
  });

  await t.test('each message counts once against the publish rate: messages past the limit get rate_limited', async () => {
    const limited = await cluster.createEnvironment();
    const api = client(gw.controlUrl, limited.secretKey);
    assert.equal((await api.put('/v1/config', { limits: { userPublishesPerSecond: 5 } })).status, 200);
    const bob = client(gw.realtimeUrl, await mintToken(gw.controlUrl, limited.secretKey, 'bob'));
    const res = await bob.post('/v1/messages/batch', { messages: Array.from({ length: 30 }, (_, i) => ({ channelId: 'rl', content: { i } })) });
    assert.equal(res.status, 200);
    const published = res.body.results.filter((r: any) => r.seq !== undefined).length;
    const refused = res.body.results.filter((r: any) => r.error?.code === 'rate_limited');
    // one one-second window (or two, if the batch straddles them) admits at most 10 of 30
    assert.ok(published >= 1 && published <= 10, `published ${published}`);
    assert.equal(published + refused.length, 30);
    assert.match(refused[0].error.reason, /userPublishesPerSecond/);
    // the single route shares the count
    const single = await bob.post('/v1/channels/rl/messages', { content: { after: true } });
    assert.ok(single.status === 429 || single.status === 201);
    assert.equal((await api.get('/v1/channels/rl/history?limit=100')).body.messages.length, published + (single.status === 201 ? 1 : 0));
  });

  await t.test('webhook deliveries are recorded for every persisted message of a batch', async () => {
    const hooked = await cluster.createEnvironment();
    const api = client(gw.controlUrl, hooked.secretKey);
    assert.equal((await api.put('/v1/config', { webhooks: { url: 'https://hooks.example.com/in' } })).status, 200);
    const res = await api.post('/v1/messages/batch', {
      messages: Array.from({ length: 25 }, (_, i) => ({ channelId: `h.${i % 3}`, content: { i }, ephemeral: i === 7 })),
    });
    assert.equal(res.status, 200);
    const { rows } = await cluster.db.pool.query<{ event_id: string }>('select event_id from webhook_ledger where environment_id = $1', [hooked.environmentId]);
    const persisted = res.body.results.filter((r: any) => r.seq !== undefined).map((r: any) => r.id);
    assert.equal(persisted.length, 24);
    assert.deepEqual(rows.map((r) => r.event_id).sort(), [...persisted].sort());
  });
});
