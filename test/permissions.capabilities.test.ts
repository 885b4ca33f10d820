import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeJwt } from 'jose';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken, request } from './helpers/http.ts';
import { closeOf } from './helpers/closed.ts';
import { openSocket, type TestSocket } from './helpers/ws.ts';

const answer = (socket: TestSocket, ref: string) => socket.waitFor(`answer to ${ref}`, (f) => f.ref === ref);
const ready = (socket: TestSocket) => socket.waitFor('ready', (f) => f.op === 'ready');

test('capabilities - the mint refuses malformed capabilities, and the token carries them compactly in `cap`', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const gw = cluster.gateways[0]!;
  const control = client(gw.controlUrl, env.secretKey);
  const mint = (capabilities: unknown) => control.post('/v1/tokens', { userId: 'alice', capabilities });
  const refused = async (capabilities: unknown, reason: RegExp) => {
    const res = await mint(capabilities);
    assert.equal(res.status, 400);
    assert.equal(errorCode(res), 'invalid_request');
    assert.match(res.body.reason, reason);
    const anonymous = await request(gw.controlUrl, 'POST', '/v1/tokens/anonymous', { token: env.publishableKey, body: { capabilities } });
    assert.equal(anonymous.status, 400);
    assert.match(anonymous.body.reason, reason);
  };
  await refused(Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`c${i}`, ['subscribe']])), /at most 64 patterns/);
  await refused(Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`${'x'.repeat(100)}${i}`, ['subscribe']])), /2048 bytes/);
  await refused({ room: ['shout'] }, /capabilities/);
  await refused({ 'a b': ['publish'] }, /pattern "a b"/);
  await refused({ 'a*b': ['publish'] }, /pattern "a\*b"/);
  await refused({ room: [] }, /at least one/);
  await refused(['room'], /capabilities/);

  const res = await mint({ 'room:*': ['subscribe', 'history'], lobby: ['publish', 'presence'], '*': ['presence'] });
  assert.equal(res.status, 201);
  assert.deepEqual(decodeJwt(res.body.token).cap, { 'room:*': 5, lobby: 10, '*': 8 });
  assert.equal(decodeJwt((await mint(undefined)).body.token).cap, undefined);
  const anonymous = await request(gw.controlUrl, 'POST', '/v1/tokens/anonymous', {
    token: env.publishableKey,
    body: { capabilities: { lobby: ['subscribe'] } },
  });
  assert.equal(anonymous.status, 201);
  assert.deepEqual(decodeJwt(anonymous.body.token).cap, { lobby: 1 });
});

test('capabilities - every route, the channel socket and /v1/connect grant only what the token carries', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const gw = cluster.gateways[0]!;
  const control = client(gw.controlUrl, env.secretKey);
  assert.equal((await control.post('/v1/channels/room:1/messages', { content: { n: 1 } })).status, 201);

  // a listener: subscribe only, on room:*
  const listener = await mintToken(gw.controlUrl, env.secretKey, 'lena', { capabilities: { 'room:*': ['subscribe'] } });
  const asListener = client(gw.realtimeUrl, listener);
  assert.equal(errorCode(await asListener.post('/v1/channels/room:1/messages', { content: { n: 2 } })), 'forbidden');
  const refusedHistory = await asListener.get('/v1/channels/room:1/history');
  assert.equal(refusedHistory.status, 403);
  assert.match(refusedHistory.body.reason, /capabilities do not grant history/);
  assert.equal(errorCode(await asListener.get('/v1/channels/room:1/members')), 'forbidden');
  assert.equal(errorCode(await asListener.delete('/v1/channels/room:1/messages/msg_00000000000000000000000000')), 'forbidden');

  // channel socket: subscribe granted on room:1, refused (4403) on lobby; a publish frame is refused
  const socket = openSocket(gw.realtimeUrl, `/v1/channels/room:1?token=${listener}&since=0`);
  await ready(socket);
  assert.equal(socket.frames.filter((f) => f.op === undefined).length, 1, 'subscribe includes the since replay');
  socket.send({ op: 'publish', ref: 'p1', content: { n: 3 } });
  const refusal = await answer(socket, 'p1');
  assert.equal(refusal.op, 'error');
  assert.equal(refusal.code, 'forbidden');
  const elsewhere = openSocket(gw.realtimeUrl, `/v1/channels/lobby?token=${listener}`);
  assert.equal((await closeOf(elsewhere)).code, 4403);

  // /v1/connect: subscribe lobby refused with an error frame, room:2 granted; publish refused
  const connection = openSocket(gw.realtimeUrl, `/v1/connect?token=${listener}`);
  await connection.waitFor('connected', (f) => f.op === 'connected');
  connection.send({ op: 'subscribe', ref: 's1', channelId: 'lobby' });
  assert.deepEqual(
    { ...(await answer(connection, 's1')), reason: undefined },
    { op: 'error', ref: 's1', channelId: 'lobby', code: 'forbidden', reason: undefined },
  );
  connection.send({ op: 'subscribe', ref: 's2', channelId: 'room:2' });
  assert.equal((await answer(connection, 's2')).op, 'subscribed');
  connection.send({ op: 'publish', ref: 'p2', channelId: 'room:2', content: { n: 4 } });
  assert.equal((await answer(connection, 'p2')).code, 'forbidden');
  connection.send({ op: 'retract', ref: 'r2', channelId: 'room:2', id: 'msg_00000000000000000000000000' });
  assert.equal((await answer(connection, 'r2')).code, 'forbidden');

  // renewing with a token that no longer grants room:2 ends that subscription at once
  const narrower = await mintToken(gw.controlUrl, env.secretKey, 'lena', { capabilities: { 'room:1': ['subscribe'] } });
  connection.send({ op: 'auth', ref: 'a1', token: narrower });
  assert.equal((await answer(connection, 'a1')).op, 'authenticated');
  const ended = await connection.waitFor('room:2 ended', (f) => f.op === 'unsubscribed' && f.channelId === 'room:2' && f.ref === undefined);
  assert.equal(ended.code, 'forbidden');

  // a writer: publish, history and presence on room:1 only; no subscribe
  const writer = await mintToken(gw.controlUrl, env.secretKey, 'walt', { capabilities: { 'room:1': ['publish', 'history', 'presence'] } });
  const asWriter = client(gw.realtimeUrl, writer);
  const published = await asWriter.post('/v1/channels/room:1/messages', { content: { n: 5 } });
  assert.equal(published.status, 201);
  assert.equal((await asWriter.get('/v1/channels/room:1/history')).status, 200);
  assert.equal((await asWriter.get('/v1/channels/room:1/members')).status, 200);
  assert.equal((await asWriter.delete(`/v1/channels/room:1/messages/${published.body.id}`)).status, 200, 'retracting its own message is publish');
  assert.equal(errorCode(await asWriter.post('/v1/channels/room:2/messages', { content: { n: 6 } })), 'forbidden');
  assert.equal((await closeOf(openSocket(gw.realtimeUrl, `/v1/channels/room:1?token=${writer}`))).code, 4403);
  const writing = openSocket(gw.realtimeUrl, `/v1/connect?token=${writer}`);
  await writing.waitFor('connected', (f) => f.op === 'connected');
  writing.send({ op: 'subscribe', ref: 's3', channelId: 'room:1' });
  assert.equal((await answer(writing, 's3')).code, 'forbidden');
  writing.send({ op: 'publish', ref: 'p3', channelId: 'room:1', content: { n: 7 } });
  assert.equal((await answer(writing, 'p3')).op, 'ack');

  // a token without capabilities keeps today's rights
  const plain = client(gw.realtimeUrl, await mintToken(gw.controlUrl, env.secretKey, 'pat'));
  assert.equal((await plain.post('/v1/channels/lobby/messages', { content: { n: 8 } })).status, 201);
  assert.equal((await plain.get('/v1/channels/lobby/members')).status, 200);

  // anonymous tokens carry them too
  const anonymous = await request(gw.controlUrl, 'POST', '/v1/tokens/anonymous', { token: env.publishableKey, body: { capabilities: { lobby: ['history'] } } });
  const asAnonymous = client(gw.realtimeUrl, anonymous.body.token);
  assert.equal((await asAnonymous.get('/v1/channels/lobby/history')).status, 200);
  assert.equal(errorCode(await asAnonymous.post('/v1/channels/lobby/messages', { content: { n: 9 } })), 'forbidden');
  for (const s of [socket, connection, writing]) await s.close();
});
