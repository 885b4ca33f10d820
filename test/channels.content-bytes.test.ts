import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken, request } from './helpers/http.ts';
import { openSocket, type TestSocket } from './helpers/ws.ts';
import { eventually } from './helpers/eventually.ts';
import { startReceiver } from './helpers/webhook-receiver.ts';

/**
 * Content is carried as the bytes it was published as: odd spacing, integer-like keys out of
 * the order a JavaScript object would give them, unicode escapes, duplicate keys and nested
 * arrays reach the socket frames (live and replayed), the history answer and the webhook body
 * unchanged, from every entry point (HTTP on both hosts, batch, both sockets).
 */
const contents = {
  control: '{ "10" : "ten",\n\t"2":[1, [2, {"x" :null}]], "\\u00e9t\\u00e9":"\\ud83d\\ude00", "n": 1.50 , "from":"control" }',
  realtime: '{"2":"two","10":"ten","1":[[],[[]],{}],"s":"tab\\there \\"q\\" \\/ \\u0000","from":"realtime"}',
  batchA: '{\r\n  "b": [ 1e2, -0.0, true ],\n  "a": "\u00e9\u2028", "from" : "batch-a"\n}',
  batchB: '{"dup":1,"dup":2,"from":"batch-b"}',
  channelSocket: '{ "99":1, "3":{"1":[ "x" ,"y" ]}, "from" :"channel-socket"}',
  connectSocket: '{"\\u0041":"\\u00C9","from":"connect-socket",  "arr":[ [ [ 0 ] ] ]}',
};
const ALL = Object.values(contents);

/** Every text frame a socket receives, as the exact text that arrived. */
function rawFrames(socket: TestSocket): string[] {
  const texts: string[] = [];
  socket.ws.on('message', (data, isBinary) => {
    if (!isBinary) texts.push(String(data));
  });
  return texts;
}

const carries = (text: string, content: string) => text.includes(`"content":${content}`);

test('channels - content keeps its exact bytes from publish to socket frames, replay, history and webhook bodies', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1, dispatchers: 1 });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  const control = client(gw.controlUrl, env.secretKey);
  const receiver = await startReceiver(t);
  assert.equal((await control.put('/v1/config', { webhooks: { url: receiver.url } })).status, 200);
  const ann = await mintToken(gw.controlUrl, env.secretKey, 'ann');
  const bob = await mintToken(gw.controlUrl, env.secretKey, 'bob');
  const channel = 'bytes';

  // live listeners on both sockets, as raw text
  const listener = openSocket(gw.realtimeUrl, `/v1/channels/${channel}?token=${bob}`);
  const live = rawFrames(listener);
  await listener.waitFor('ready', (f) => f.op === 'ready');
  const connected = openSocket(gw.realtimeUrl, `/v1/connect?token=${bob}`);
  const tagged = rawFrames(connected);
  await connected.waitFor('connected', (f) => f.op === 'connected');
  connected.send({ op: 'subscribe', ref: 's', channelId: channel });
  await connected.waitFor('subscribed', (f) => f.op === 'subscribed');

  const post = (base: string, path: string, token: string, raw: string) =>
    request(base, 'POST', path, { token, raw, headers: { 'content-type': 'application/json' } });

  // HTTP, both planes: the body is sent as written
  const fromControl = await post(gw.controlUrl, `/v1/channels/${channel}/messages`, env.secretKey, `{"type":"t", "content":  ${contents.control} }`);
  assert.equal(fromControl.status, 201, JSON.stringify(fromControl.body));
  const fromRealtime = await post(gw.realtimeUrl, `/v1/channels/${channel}/messages`, ann, `{"content":{"decoy":true},"content":${contents.realtime}}`);
  assert.equal(fromRealtime.status, 201, JSON.stringify(fromRealtime.body));
  // batch
  const batch = await post(
    gw.controlUrl,
    '/v1/messages/batch',
    env.secretKey,
    `{"messages":[ {"channelId":"${channel}","content":${contents.batchA}},\n{"content" : ${contents.batchB}, "channelId":"${channel}"} ]}`,
  );
  assert.equal(batch.status, 200, JSON.stringify(batch.body));
  assert.ok(
    batch.body.results.every((r: { seq?: number }) => typeof r.seq === 'number'),
    JSON.stringify(batch.body),
  );
  // both sockets: the frame is sent as written
  const publisher = openSocket(gw.realtimeUrl, `/v1/channels/${channel}?token=${ann}`);
  await publisher.waitFor('ready', (f) => f.op === 'ready');
  publisher.ws.send(`{"op":"publish","ref":"c1","content":${contents.channelSocket}}`);
  await publisher.waitFor('ack', (f) => f.op === 'ack' && f.ref === 'c1');
  connected.ws.send(`{"op":"publish","ref":"c2","channelId":"${channel}","content":${contents.connectSocket}}`);
  await connected.waitFor('ack', (f) => f.op === 'ack' && f.ref === 'c2');

  await t.test('live frames on the channel socket and the multiplexed socket carry the bytes as published', async () => {
    await eventually(async () => ALL.every((c) => live.some((f) => carries(f, c))), { what: 'every content on the channel socket' });
    await eventually(async () => ALL.every((c) => tagged.some((f) => carries(f, c))), { what: 'every content on /v1/connect' });
  });

  await t.test('history on both hosts answers the stored bytes', async () => {
    for (const [base, token] of [
      [gw.controlUrl, env.secretKey],
      [gw.realtimeUrl, ann],
    ] as const) {
      const res = await fetch(`${base}/v1/channels/${channel}/history`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
      const text = await res.text();
      for (const c of ALL) assert.ok(carries(text, c), `history carries ${c}`);
      const parsed = JSON.parse(text);
      assert.deepEqual(
        parsed.messages.map((m: { seq: number }) => m.seq),
        [1, 2, 3, 4, 5, 6],
      );
      assert.equal(parsed.hasMore, false);
    }
  });

  await t.test('replay (since) on both sockets sends the stored bytes', async () => {
    const replay = openSocket(gw.realtimeUrl, `/v1/channels/${channel}?token=${bob}&since=0`);
    const replayed = rawFrames(replay);
    await replay.waitFor('ready', (f) => f.op === 'ready');
    for (const c of ALL)
      assert.ok(
        replayed.some((f) => carries(f, c)),
        `replay carries ${c}`,
      );
    const again = openSocket(gw.realtimeUrl, `/v1/connect?token=${bob}`);
    const againFrames = rawFrames(again);
    await again.waitFor('connected', (f) => f.op === 'connected');
    again.send({ op: 'subscribe', ref: 'r', channelId: channel, since: 0 });
    await again.waitFor('subscribed', (f) => f.op === 'subscribed');
    for (const c of ALL)
      assert.ok(
        againFrames.some((f) => carries(f, c)),
        `multiplexed replay carries ${c}`,
      );
    await Promise.all([replay.close(), again.close()]);
  });

  await t.test('webhook bodies carry the bytes as published; a retraction carries content null everywhere', async () => {
    await receiver.waitFor((r) => ALL.every((c) => r.some((w) => carries(w.raw.toString('utf8'), c))), 'every content in a webhook body');
    const bodies = receiver.received.map((w) => w.raw.toString('utf8'));
    for (const c of ALL) assert.equal(bodies.filter((b) => carries(b, c)).length, 1, `one delivery carries ${c}`);

    const retracted = await control.delete(`/v1/channels/${channel}/messages/${fromControl.body.id}`);
    assert.equal(retracted.status, 200);
    await receiver.waitFor((r) => r.some((w) => JSON.parse(w.raw.toString('utf8')).type === 'message.retracted'), 'the retraction webhook');
    const tombstone = JSON.parse(receiver.received.find((w) => JSON.parse(w.raw.toString('utf8')).type === 'message.retracted')!.raw.toString('utf8'));
    assert.equal(tombstone.data.content, null);
    assert.equal(tombstone.data.retracted, true);
    const history = await fetch(`${gw.controlUrl}/v1/channels/${channel}/history`, { headers: { authorization: `Bearer ${env.secretKey}` } });
    const text = await history.text();
    assert.ok(!carries(text, contents.control), 'the retracted content is gone');
    assert.equal(JSON.parse(text).messages[0].content, null);
    for (const c of ALL.slice(1)) assert.ok(carries(text, c));
  });

  await t.test('the limits apply to the bytes as sent; content that is not an object is still 400', async () => {
    const padded = `{"a":1${' '.repeat(64 * 1024)}}`;
    const tooBig = await post(gw.controlUrl, `/v1/channels/${channel}/messages`, env.secretKey, `{"content":${padded}}`);
    assert.equal(tooBig.status, 413);
    assert.equal(errorCode(tooBig), 'payload_too_large');
    const notObject = await post(gw.controlUrl, `/v1/channels/${channel}/messages`, env.secretKey, '{"content":[1]}');
    assert.equal(notObject.status, 400);
    assert.equal(errorCode(notObject), 'invalid_request');
    // a body with a byte order mark: the parser drops it, and the content is still found as sent
    const bom = await post(gw.controlUrl, `/v1/channels/${channel}/messages`, env.secretKey, '\ufeff{"content":{ "bom" : 1 }}');
    assert.equal(bom.status, 201, JSON.stringify(bom.body));
    publisher.ws.send(`{"op":"publish","ref":"big","content":${padded}}`);
    const refused = await publisher.waitFor('error', (f) => f.op === 'error' && f.ref === 'big');
    assert.equal(refused.code, 'payload_too_large');
  });

  await Promise.all([listener.close(), connected.close(), publisher.close()]);
});
