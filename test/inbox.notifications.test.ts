import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';
import { openSocket } from './helpers/ws.ts';

test('inbox - notifications reach every socket of a user on every gateway, replay with since, list, mentions, retention', async (t) => {
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 1, dispatchers: 1, env: { NOTIFICATION_SWEEP_MS: '300' } });
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const env = await cluster.createEnvironment();
  const other = await cluster.createEnvironment();
  const control = client(gwA.controlUrl, env.secretKey);
  const ann = await mintToken(gwA.controlUrl, env.secretKey, 'ann');
  const ben = await mintToken(gwA.controlUrl, env.secretKey, 'ben');
  const annElsewhere = await mintToken(gwA.controlUrl, other.secretKey, 'ann');

  // stored before any socket: replayed on open
  const first = await control.post('/v1/notifications', { userIds: ['ann'], type: 'welcome', payload: { n: 1 } });
  assert.equal(first.status, 202);
  assert.equal(first.body.ids.length, 1);
  const onA = openSocket(gwA.realtimeUrl, `/inbox?token=${ann}`);
  const onB = openSocket(gwB.realtimeUrl, '/inbox', { authorization: `Bearer ${ann}` });
  const otherEnvAnn = openSocket(gwB.realtimeUrl, `/inbox?token=${annElsewhere}`);
  await Promise.all([onA, onB, otherEnvAnn].map((s) => s.waitFor('ready', (f) => f.op === 'ready')));
  for (const socket of [onA, onB]) {
    assert.deepEqual(socket.frames[0], {
      op: 'notification',
      id: first.body.ids[0],
      type: 'welcome',
      payload: { n: 1 },
      timestamp: socket.frames[0].timestamp,
    });
    assert.equal(socket.frames[1].op, 'ready');
  }

  // live, to both of ann's sockets on both gateways; repeats in userIds are sent once; default type
  const second = await control.post('/v1/notifications', { userIds: ['ann', 'ben', 'ann'], payload: { n: 2 } });
  assert.equal(second.status, 202);
  assert.equal(second.body.ids.length, 2);
  const [annId, benId] = second.body.ids;
  for (const socket of [onA, onB]) {
    const frame = await socket.waitFor('live notification', (f) => f.id === annId);
    assert.deepEqual({ ...frame, timestamp: 0 }, { op: 'notification', id: annId, type: 'notification', payload: { n: 2 }, timestamp: 0 });
    assert.equal(socket.frames.filter((f) => f.op === 'notification').length, 2);
  }
  assert.ok(!onA.frames.some((f) => f.id === benId), "ben's notification is not ann's");

  // a mention in a channel message becomes a `mention` notification
  const posted = await client(gwB.realtimeUrl, ben).post('/v1/channels/chat/messages', { content: { text: 'hi @ann' }, mentions: ['ann'] });
  assert.equal(posted.status, 201);
  const mention = await onB.waitFor('mention notification', (f) => f.op === 'notification' && f.type === 'mention');
  await onA.waitFor('mention on gateway A too', (f) => f.id === mention.id);

  // the environment is part of the identity: ann of the other environment got nothing
  assert.equal(otherEnvAnn.frames.filter((f) => f.op === 'notification').length, 0);

  // replay from `since`: exactly what came after it, no duplicates
  const resumed = openSocket(gwB.realtimeUrl, `/inbox?token=${ann}&since=${first.body.ids[0]}`);
  await resumed.waitFor('resumed ready', (f) => f.op === 'ready');
  assert.deepEqual(
    resumed.frames.filter((f) => f.op === 'notification').map((f) => f.id),
    [annId, mention.id],
  );

  // a socket opened in the middle of a burst: every notification exactly once, whether it came by replay,
  // during the hand-off or live
  const zoe = await mintToken(gwA.controlUrl, env.secretKey, 'zoe');
  const burst = Promise.all(Array.from({ length: 60 }, (_, i) => control.post('/v1/notifications', { userIds: ['zoe'], payload: { i } })));
  const zoeSocket = openSocket(gwB.realtimeUrl, `/inbox?token=${zoe}`);
  const burstIds = (await burst).map((res) => res.body.ids[0] as string);
  for (const id of burstIds) await zoeSocket.waitFor(`burst notification ${id}`, (f) => f.id === id);
  const zoeIds = zoeSocket.frames.filter((f) => f.op === 'notification').map((f) => f.id);
  assert.equal(zoeIds.length, 60);
  assert.equal(new Set(zoeIds).size, 60);
  await zoeSocket.close();

  // GET /v1/inbox: newest page by default, paging both ways
  const asAnn = client(gwA.realtimeUrl, ann);
  const all = await asAnn.get('/v1/inbox');
  assert.equal(all.status, 200);
  assert.deepEqual(
    all.body.notifications.map((n: any) => n.id),
    [first.body.ids[0], annId, mention.id],
  );
  assert.equal(all.body.hasMore, false);
  const newest = await asAnn.get('/v1/inbox?limit=2');
  assert.deepEqual(
    newest.body.notifications.map((n: any) => n.id),
    [annId, mention.id],
  );
  assert.equal(newest.body.hasMore, true);
  const older = await asAnn.get(`/v1/inbox?limit=2&before=${annId}`);
  assert.deepEqual(
    older.body.notifications.map((n: any) => n.id),
    [first.body.ids[0]],
  );
  assert.equal(older.body.hasMore, false);
  const forward = await asAnn.get(`/v1/inbox?limit=1&after=${first.body.ids[0]}`);
  assert.deepEqual(
    forward.body.notifications.map((n: any) => n.id),
    [annId],
  );
  assert.equal(forward.body.hasMore, true);

  // 7-day retention: an old notification is never returned and gets swept
  await cluster.db.pool.query(
    `insert into notifications (id, environment_id, user_id, type, payload, ts, created_at)
     values ('ntf_00000000000000000000000000', $1, 'ann', 'old', '{}', 0, now() - interval '8 days')`,
    [env.environmentId],
  );
  assert.ok(!(await asAnn.get('/v1/inbox')).body.notifications.some((n: any) => n.type === 'old'));
  await eventually('old notification swept', async () => {
    const { rowCount } = await cluster.db.pool.query(`select 1 from notifications where type = 'old'`);
    return rowCount === 0;
  });

  // bad input and abuse
  const tooMany = Array.from({ length: 1001 }, (_, i) => `user${i}`);
  assert.equal(errorCode(await control.post('/v1/notifications', { userIds: tooMany, payload: {} })), 'invalid_request');
  assert.equal((await control.post('/v1/notifications', { userIds: tooMany.slice(0, 1000), payload: {} })).status, 202);
  assert.equal(errorCode(await control.post('/v1/notifications', { userIds: [], payload: {} })), 'invalid_request');
  assert.equal(errorCode(await control.post('/v1/notifications', { userIds: ['bad id'], payload: {} })), 'invalid_request');
  assert.equal(errorCode(await control.post('/v1/notifications', { userIds: ['ann'], payload: 'text' })), 'invalid_request');
  assert.equal(errorCode(await control.post('/v1/notifications', { userIds: ['ann'] })), 'invalid_request');
  assert.equal(errorCode(await control.post('/v1/notifications', { userIds: ['ann'], payload: {}, type: '' })), 'invalid_request');
  const big = await control.post('/v1/notifications', { userIds: ['ann'], payload: { blob: 'x'.repeat(70_000) } });
  assert.equal(big.status, 413);
  assert.equal(errorCode(big), 'payload_too_large');
  assert.equal(errorCode(await asAnn.get('/v1/inbox?limit=501')), 'invalid_request');
  assert.equal(errorCode(await client(gwA.realtimeUrl).get('/v1/inbox')), 'unauthorized');
  assert.equal((await openSocket(gwA.realtimeUrl, '/inbox').closed).code, 4401);
  assert.equal((await openSocket(gwA.realtimeUrl, '/inbox?token=garbage').closed).code, 4401);
  assert.equal((await openSocket(gwA.realtimeUrl, `/inbox?token=${ann}&since=bad%20id`).closed).code, 4400);
  onA.send({ op: 'ping' });
  await onA.waitFor('pong', (f) => f.op === 'pong');
  await Promise.all([onA, onB, otherEnvAnn, resumed].map((s) => s.close()));

  // a draining gateway tells its inbox sockets to reconnect elsewhere
  const draining = openSocket(gwB.realtimeUrl, `/inbox?token=${ann}`);
  await draining.waitFor('ready before drain', (f) => f.op === 'ready');
  const [closed, exitCode] = await Promise.all([draining.closed, gwB.stop()]);
  assert.equal(closed.code, 4503);
  assert.equal(exitCode, 0);
});
