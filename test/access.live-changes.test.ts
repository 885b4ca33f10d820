import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signToken, LOGS_TOKEN_AUDIENCE, USER_TOKEN_AUDIENCE, type SigningKey } from '@rtm/auth';
import { startCluster } from './helpers/cluster.ts';
import { client, mintToken } from './helpers/http.ts';
import { openSocket, type TestSocket } from './helpers/ws.ts';

/** `promise`, or a failure naming `what` after `ms`: every wait here has a deadline. */
function within<T>(promise: Promise<T>, what: string, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout;
  const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms)));
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

const ready = (socket: TestSocket) => socket.waitFor('ready', (f) => f.op === 'ready');

/** A socket that still answers: ping → pong. */
async function stillOpen(socket: TestSocket): Promise<void> {
  const before = socket.frames.length;
  socket.send({ op: 'ping' });
  await socket.waitFor('pong', (f) => f.op === 'pong' && socket.frames.indexOf(f) >= before);
}

test('access - taking access away closes the sockets that lost it with 4403 on another gateway', async (t) => {
  const cluster = await startCluster(t, { gateways: 2 });
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const env = await cluster.createEnvironment();
  const control = client(gwA.controlUrl, env.secretKey);
  const alice = await mintToken(gwA.controlUrl, env.secretKey, 'alice');
  const mallory = await mintToken(gwA.controlUrl, env.secretKey, 'mallory');
  assert.equal((await control.put('/v1/channels/room/members/alice')).status, 200);
  assert.equal((await control.put('/v1/channels/lobby/members/alice')).status, 200);

  await t.test('a config deploy making channels members-only', async () => {
    const member = openSocket(gwB.realtimeUrl, `/v1/channels/room?token=${alice}`);
    const outsider = openSocket(gwB.realtimeUrl, `/v1/channels/room?token=${mallory}`);
    // a channel with its own `open` setting keeps it
    assert.equal((await control.put('/v1/channels/open-hall', { access: 'open' })).status, 200);
    const hall = openSocket(gwB.realtimeUrl, `/v1/channels/open-hall?token=${mallory}`);
    await Promise.all([member, outsider, hall].map(ready));
    const deployed = await control.put('/v1/config', { channels: { access: 'members' } });
    assert.equal(deployed.status, 200);
    const closed = await within(outsider.closed, 'outsider closed');
    assert.equal(closed.code, 4403);
    await stillOpen(member);
    await stillOpen(hall);
    assert.equal((await openSocket(gwB.realtimeUrl, `/v1/channels/room?token=${mallory}`).closed).code, 4403);
    await Promise.all([member.close(), hall.close()]);
    assert.equal((await control.put('/v1/config', { channels: { access: 'open' } })).status, 200);
  });

  await t.test('PUT /v1/channels/{id} switching a channel to members', async () => {
    const member = openSocket(gwB.realtimeUrl, `/v1/channels/lobby?token=${alice}`);
    const outsider = openSocket(gwB.realtimeUrl, `/v1/channels/lobby?token=${mallory}`);
    await Promise.all([member, outsider].map(ready));
    assert.equal((await control.put('/v1/channels/lobby', { access: 'members' })).status, 200);
    assert.equal((await within(outsider.closed, 'outsider closed')).code, 4403);
    await stillOpen(member);
    await member.close();
  });
});

test('access - a socket is closed with 4401 when its token expires (channel, inbox, logs)', async (t) => {
  const cluster = await startCluster(t, { gateways: 1 });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  // tokens expiring in two seconds, signed with the environment's key as the gateway would sign them
  const { rows } = await cluster.db.pool.query<{ id: string; secret: Buffer }>('select id, secret from signing_keys where environment_id = $1', [
    env.environmentId,
  ]);
  const key: SigningKey = { id: rows[0]!.id, environmentId: env.environmentId, secret: rows[0]!.secret };
  const sign = async (audience: string, subject: string) => (await signToken(key, { issuer: 'rtm', audience, subject, ttlSeconds: 2 })).token;
  const user = await sign(USER_TOKEN_AUDIENCE, 'ephemeral');
  const logs = await sign(LOGS_TOKEN_AUDIENCE, 'key:test');
  const sockets = {
    channel: openSocket(gw.realtimeUrl, `/v1/channels/room?token=${user}`),
    inbox: openSocket(gw.realtimeUrl, `/inbox?token=${user}`),
    logs: openSocket(gw.realtimeUrl, `/v1/environments/${env.environmentId}/logs?token=${logs}`),
  };
  await Promise.all(Object.values(sockets).map(ready));
  for (const [kind, socket] of Object.entries(sockets)) {
    assert.deepEqual(await within(socket.closed, `${kind} closed`), { code: 4401, reason: 'token expired' }, kind);
  }
});
