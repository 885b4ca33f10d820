import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken, request } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';
import { closeOf } from './helpers/closed.ts';
import { openSocket, type TestSocket } from './helpers/ws.ts';

const answer = (socket: TestSocket, ref: string) => socket.waitFor(`answer to ${ref}`, (f) => f.ref === ref);

test('namespaces - deploy validation, access, anonymous rights, history, persistence and content size by longest prefix, on every gateway', async (t) => {
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 1 });
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const env = await cluster.createEnvironment();
  const control = client(gwA.controlUrl, env.secretKey);

  // validation: the config style (400 invalid_request naming the field)
  const duplicate = await control.put('/v1/config', { namespaces: [{ prefix: 'a:' }, { prefix: 'a:' }] });
  assert.equal(errorCode(duplicate), 'invalid_request');
  assert.match(duplicate.body.reason, /appears twice/);
  const star = await control.put('/v1/config', { namespaces: [{ prefix: 'a:*' }] });
  assert.equal(errorCode(star), 'invalid_request');
  assert.match(star.body.reason, /prefix/);
  assert.equal(errorCode(await control.put('/v1/config', { namespaces: [{ prefix: 'a:', history: 'no' }] })), 'invalid_request');
  assert.equal(errorCode(await control.put('/v1/config', { namespaces: [{ prefix: 'a:', maxContentBytes: 70_000 }] })), 'invalid_request');
  assert.equal(errorCode(await control.put('/v1/config', { namespaces: [{ prefix: 'a:', owner: 'x' }] })), 'invalid_request');

  const alice = await mintToken(gwA.controlUrl, env.secretKey, 'alice');
  const onA = client(gwA.realtimeUrl, alice);
  const onB = client(gwB.realtimeUrl, alice);
  const anonymous = (await request(gwA.controlUrl, 'POST', '/v1/tokens/anonymous', { token: env.publishableKey })).body.token as string;
  const anonB = client(gwB.realtimeUrl, anonymous);
  // both gateways decide (and cache) before the deploy
  assert.equal((await onB.post('/v1/channels/team:x/messages', { content: { n: 1 } })).status, 201);
  assert.equal((await anonB.post('/v1/channels/pub:x/messages', { content: { n: 1 } })).status, 201);
  const anonymousSocket = openSocket(gwB.realtimeUrl, `/v1/channels/priv:x?token=${anonymous}`);
  await anonymousSocket.waitFor('ready', (f) => f.op === 'ready');

  const namespaces = [
    { prefix: 'team:', access: 'members' },
    { prefix: 'team:open:' },
    { prefix: 'pub:', anonymous: { publish: false } },
    { prefix: 'priv:', anonymous: { subscribe: false } },
    { prefix: 'quiet:', history: false },
    { prefix: 'live:', persist: false },
    { prefix: 'small:', maxContentBytes: 20 },
  ];
  const deployed = await control.put('/v1/config', { namespaces });
  assert.equal(deployed.status, 200);
  assert.deepEqual(deployed.body.config.namespaces, namespaces);
  assert.deepEqual((await control.get('/v1/config')).body.config.namespaces, namespaces);

  // every gateway applies it at once: a socket that lost read access closes with 4403
  assert.equal((await closeOf(anonymousSocket)).code, 4403);

  // access: the namespace over the environment's default; the longest prefix; the channel's own setting wins
  assert.equal(errorCode(await onB.post('/v1/channels/team:x/messages', { content: { n: 2 } })), 'forbidden');
  assert.equal((await onB.post('/v1/channels/team:open:x/messages', { content: { n: 2 } })).status, 201);
  assert.equal((await control.put('/v1/channels/team:y', { access: 'open' })).status, 200);
  assert.equal((await onA.get('/v1/channels/team:y/history')).status, 200);
  assert.equal((await control.put('/v1/channels/team:x/members/alice')).status, 200);
  assert.equal((await onA.post('/v1/channels/team:x/messages', { content: { n: 3 } })).status, 201);
  assert.equal((await closeOf(openSocket(gwA.realtimeUrl, `/v1/channels/team:z?token=${alice}`))).code, 4403);

  // anonymous tokens: no publishing in pub:, no reading in priv:; users are unaffected
  assert.equal(errorCode(await anonB.post('/v1/channels/pub:x/messages', { content: { n: 2 } })), 'forbidden');
  assert.equal((await anonB.get('/v1/channels/pub:x/history')).status, 200);
  assert.equal((await onB.post('/v1/channels/pub:x/messages', { content: { n: 2 } })).status, 201);
  assert.equal(errorCode(await anonB.get('/v1/channels/priv:x/history')), 'forbidden');
  assert.equal(errorCode(await anonB.get('/v1/channels/priv:x/members')), 'forbidden');
  assert.equal((await closeOf(openSocket(gwB.realtimeUrl, `/v1/channels/priv:x?token=${anonymous}`))).code, 4403);
  const anonymousPub = openSocket(gwB.realtimeUrl, `/v1/channels/pub:x?token=${anonymous}`);
  await anonymousPub.waitFor('ready', (f) => f.op === 'ready');
  anonymousPub.send({ op: 'publish', ref: 'p', content: { n: 3 } });
  assert.equal((await answer(anonymousPub, 'p')).code, 'forbidden');
  const connection = openSocket(gwB.realtimeUrl, `/v1/connect?token=${anonymous}`);
  await connection.waitFor('connected', (f) => f.op === 'connected');
  connection.send({ op: 'subscribe', ref: 's', channelId: 'priv:y' });
  assert.equal((await answer(connection, 's')).code, 'forbidden');
  connection.send({ op: 'publish', ref: 'p', channelId: 'pub:y', content: { n: 1 } });
  assert.equal((await answer(connection, 'p')).code, 'forbidden');
  connection.send({ op: 'publish', ref: 'p2', channelId: 'priv:y', content: { n: 1 } });
  assert.equal((await answer(connection, 'p2')).op, 'ack');

  // history: false refuses users, not the secret key
  assert.equal((await onA.post('/v1/channels/quiet:x/messages', { content: { n: 1 } })).status, 201);
  const refused = await onB.get('/v1/channels/quiet:x/history');
  assert.equal(errorCode(refused), 'forbidden');
  assert.match(refused.body.reason, /history is disabled/);
  assert.equal((await control.get('/v1/channels/quiet:x/history')).body.messages.length, 1);

  // persist: false makes every message ephemeral, from any credential
  const ephemeral = await onA.post('/v1/channels/live:x/messages', { content: { n: 1 } });
  assert.equal(ephemeral.status, 202);
  assert.equal(ephemeral.body.ephemeral, true);
  assert.equal((await control.post('/v1/channels/live:x/messages', { content: { n: 2 } })).status, 202);
  assert.deepEqual((await control.get('/v1/channels/live:x/history')).body.messages, []);
  const live = openSocket(gwA.realtimeUrl, `/v1/connect?token=${alice}`);
  await live.waitFor('connected', (f) => f.op === 'connected');
  live.send({ op: 'publish', ref: 'e', channelId: 'live:x', content: { n: 3 } });
  assert.equal((await answer(live, 'e')).ephemeral, true);

  // maxContentBytes: 413 payload_too_large above it, on HTTP and sockets, from any credential
  const big = { text: 'x'.repeat(20) };
  const tooBig = await onA.post('/v1/channels/small:x/messages', { content: big });
  assert.equal(tooBig.status, 413);
  assert.equal(errorCode(tooBig), 'payload_too_large');
  assert.equal((await control.post('/v1/channels/small:x/messages', { content: big })).status, 413);
  assert.equal((await onA.post('/v1/channels/small:x/messages', { content: { t: 'ok' } })).status, 201);
  live.send({ op: 'publish', ref: 'b', channelId: 'small:x', content: big });
  assert.equal((await answer(live, 'b')).code, 'payload_too_large');

  // a deploy without namespaces restores the defaults everywhere
  assert.equal((await control.put('/v1/config', {})).status, 200);
  await eventually('gateway B forgets the namespaces', async () => (await onB.get('/v1/channels/quiet:x/history')).status === 200);
  assert.equal((await anonB.post('/v1/channels/pub:x/messages', { content: { n: 4 } })).status, 201);
  for (const s of [anonymousPub, connection, live]) await s.close();
});
