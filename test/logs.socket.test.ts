import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signToken, LOGS_TOKEN_AUDIENCE } from '@rtm/auth';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken } from './helpers/http.ts';
import { openSocket } from './helpers/ws.ts';

test("logs - a logs token opens its own environment's live log on any gateway, and nothing else", async (t) => {
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 1 });
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const envA = await cluster.createEnvironment();
  const envB = await cluster.createEnvironment();
  const controlA = client(gwA.controlUrl, envA.secretKey);
  const controlB = client(gwB.controlUrl, envB.secretKey);

  const minted = await controlA.post(`/v1/environments/${envA.environmentId}/logs-token`);
  assert.equal(minted.status, 201);
  assert.ok(Date.parse(minted.body.expiresAt) > Date.now());
  const tokenB = (await controlB.post(`/v1/environments/${envB.environmentId}/logs-token`, { ttlSeconds: 60 })).body.token;

  // the answer names the socket to open: this gateway's realtime edge, on the host name asked
  const realtimePort = new URL(gwA.realtimeUrl).port;
  assert.equal(minted.body.socketUrl, `ws://127.0.0.1:${realtimePort}/v1/environments/${envA.environmentId}/logs`);
  const socketUrl = new URL(minted.body.socketUrl);
  const logsA = openSocket(`http://${socketUrl.host}`, `${socketUrl.pathname}?token=${minted.body.token}`);
  const logsB = openSocket(gwB.realtimeUrl, `/v1/environments/${envB.environmentId}/logs?token=${tokenB}`);
  await Promise.all([logsA, logsB].map((s) => s.waitFor('ready', (f) => f.op === 'ready')));

  // events of A, produced on gateway B, reach A's log on gateway A; B's log never sees them
  await client(gwB.controlUrl, envA.secretKey).put('/v1/channels/ops/members/alice', { role: 'moderator' });
  const memberLog = await logsA.waitFor('member.put log', (f) => f.op === 'log' && f.event === 'member.put');
  assert.deepEqual(memberLog.data, { channelId: 'ops', userId: 'alice', role: 'moderator' });
  assert.equal(typeof memberLog.timestamp, 'number');
  assert.equal(memberLog.level, 'info');
  await controlA.put('/v1/bans/eve', { reason: 'spam' });
  await logsA.waitFor('ban.put log', (f) => f.op === 'log' && f.event === 'ban.put' && f.data.userId === 'eve');
  const alice = await mintToken(gwA.controlUrl, envA.secretKey, 'alice');
  const inbox = openSocket(gwB.realtimeUrl, `/inbox?token=${alice}`);
  await inbox.waitFor('inbox ready', (f) => f.op === 'ready');
  await logsA.waitFor('socket.opened log', (f) => f.event === 'socket.opened' && f.data.socket === 'inbox' && f.data.userId === 'alice');
  await inbox.close();
  const closed = await logsA.waitFor('socket.closed log', (f) => f.event === 'socket.closed' && f.data.socket === 'inbox');
  assert.equal(closed.data.code, 1000);
  // a commit's events travel as one bus message: the socket still sends one frame per event
  const batch = await controlA.post('/v1/messages/batch', {
    messages: [
      { channelId: 'logged.1', content: { n: 1 } },
      { channelId: 'logged.2', content: { n: 2 } },
      { channelId: 'logged.1', content: { big: 'x'.repeat(70 * 1024) } },
      { channelId: 'logged.1', content: { n: 3 } },
    ],
  });
  assert.equal(batch.status, 200);
  assert.deepEqual(
    batch.body.results.map((r: any) => r.seq ?? r.error.code),
    [1, 1, 'payload_too_large', 2],
  );
  const published = () => logsA.frames.filter((f) => f.op === 'log' && f.event === 'message.published' && f.data.channelId?.startsWith('logged.'));
  await logsA.waitFor('three message.published logs', () => published().length === 3);
  assert.deepEqual(
    // per channel in seq order; channels of different partitions may interleave either way
    published()
      .map((f) => [f.data.channelId, f.data.seq, f.level])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    [
      ['logged.1', 1, 'info'],
      ['logged.1', 2, 'info'],
      ['logged.2', 1, 'info'],
    ],
  );
  // B's own event arrives on B's log, and proves B's log was live while A's events flowed
  await controlB.put('/v1/channels/b-only/members/bob');
  await logsB.waitFor('B member.put', (f) => f.event === 'member.put' && f.data.userId === 'bob');
  assert.ok(!logsB.frames.some((f) => f.op === 'log' && (f.data.userId === 'alice' || f.data.userId === 'eve')));
  assert.ok(!logsA.frames.some((f) => f.op === 'log' && f.data.userId === 'bob'));

  // a token of B on A's socket, a user token, garbage, an expired token, no token
  assert.equal((await openSocket(gwA.realtimeUrl, `/v1/environments/${envA.environmentId}/logs?token=${tokenB}`).closed).code, 4403);
  assert.equal((await openSocket(gwA.realtimeUrl, `/v1/environments/${envA.environmentId}/logs?token=${alice}`).closed).code, 4401);
  assert.equal((await openSocket(gwA.realtimeUrl, `/v1/environments/${envA.environmentId}/logs?token=nope`).closed).code, 4401);
  assert.equal((await openSocket(gwA.realtimeUrl, `/v1/environments/${envA.environmentId}/logs`).closed).code, 4401);
  const { rows } = await cluster.db.pool.query<{ id: string; secret: Buffer }>(
    'select id, secret from signing_keys where environment_id = $1 and retired_at is null',
    [envA.environmentId],
  );
  const key = { id: rows[0]!.id, environmentId: envA.environmentId, secret: new Uint8Array(rows[0]!.secret) };
  const expired = await signToken(key, { issuer: 'rtm', audience: LOGS_TOKEN_AUDIENCE, subject: 'key:test', ttlSeconds: -60 });
  const expiredClose = await openSocket(gwB.realtimeUrl, `/v1/environments/${envA.environmentId}/logs?token=${expired.token}`).closed;
  assert.equal(expiredClose.code, 4401);
  assert.match(expiredClose.reason, /expired/);
  // the same kind of token, still valid, is accepted (so the refusal above was the expiry)
  const fresh = await signToken(key, { issuer: 'rtm', audience: LOGS_TOKEN_AUDIENCE, subject: 'key:test', ttlSeconds: 120 });
  const freshSocket = openSocket(gwB.realtimeUrl, `/v1/environments/${envA.environmentId}/logs?token=${fresh.token}`);
  await freshSocket.waitFor('fresh ready', (f) => f.op === 'ready');
  // a logs token is not a user token
  assert.equal(errorCode(await client(gwA.realtimeUrl, minted.body.token).get('/v1/inbox')), 'unauthorized');

  // minting: another environment's key, no key, bad ttl
  const foreign = await controlB.post(`/v1/environments/${envA.environmentId}/logs-token`);
  assert.equal(foreign.status, 403);
  assert.equal(errorCode(foreign), 'forbidden');
  assert.equal(errorCode(await controlA.post('/v1/environments/env_unknown/logs-token')), 'forbidden');
  assert.equal(errorCode(await client(gwA.controlUrl).post(`/v1/environments/${envA.environmentId}/logs-token`)), 'unauthorized');
  assert.equal(errorCode(await controlA.post(`/v1/environments/${envA.environmentId}/logs-token`, { ttlSeconds: 4000 })), 'invalid_request');
  await Promise.all([logsA, logsB, freshSocket].map((s) => s.close()));
});
