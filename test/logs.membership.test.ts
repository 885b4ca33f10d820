import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Accounts, CLI_ACTOR } from '@rtm/accounts';
import { startCluster } from './helpers/cluster.ts';
import { errorCode, mintToken, request } from './helpers/http.ts';
import { openSocket, type TestSocket } from './helpers/ws.ts';
import { closeOf } from './helpers/closed.ts';
import { DashboardClient, createUser } from './helpers/dashboard.ts';

const PASSWORD = 'correct horse battery';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('logs - access follows dashboard membership on every gateway, and logs sockets count in the socket quota', async (t) => {
  const cluster = await startCluster(t, { gateways: 2 });
  const [a, b] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const env = await cluster.createEnvironment('logs-members');
  const envId = env.environmentId;
  const org = env.organizationId;
  const pool = cluster.db.pool;
  await createUser(pool, { email: 'owner@example.com', password: PASSWORD, organization: org, role: 'owner' });
  const owner = new DashboardClient(a.controlUrl);
  assert.equal((await owner.signIn('owner@example.com', PASSWORD)).status, 200);

  /** A member signed in on gateway A, with a logs token minted there. */
  async function member(email: string, role: 'admin' | 'viewer') {
    const { userId } = await createUser(pool, { email, password: PASSWORD, organization: org, role });
    const dashboard = new DashboardClient(a.controlUrl);
    assert.equal((await dashboard.signIn(email, PASSWORD)).status, 200);
    const minted = await dashboard.post(`/v1/environments/${envId}/logs-token`);
    assert.equal(minted.status, 201, JSON.stringify(minted.body));
    return { userId, dashboard, token: minted.body.token as string };
  }
  const logsOn = (gateway: { realtimeUrl: string }, token: string) => openSocket(gateway.realtimeUrl, `/v1/environments/${envId}/logs?token=${token}`);
  const ready = (socket: TestSocket) => socket.waitFor('logs ready', (f) => f.op === 'ready');

  await t.test('a removed member: their logs sockets close on both gateways (4401) and their token opens no new one', async () => {
    const mallory = await member('mallory@example.com', 'admin');
    const sockets = [logsOn(a, mallory.token), logsOn(b, mallory.token)];
    await Promise.all(sockets.map(ready));
    const removed = await owner.delete(`/v1/dashboard/organizations/${org}/members/${mallory.userId}`);
    assert.equal(removed.status, 204);
    for (const socket of sockets) assert.deepEqual(await closeOf(socket), { code: 4401, reason: 'token revoked' });
    for (const gateway of [a, b]) {
      const again = logsOn(gateway, mallory.token);
      assert.equal((await closeOf(again)).code, 4401, 'the revoked token opens nothing');
      assert.ok(!again.frames.some((f) => f.op === 'ready'));
    }
    // nor can they mint another
    assert.equal(errorCode(await mallory.dashboard.post(`/v1/environments/${envId}/logs-token`)), 'not_found');
  });

  await t.test('a member moved to a lower role: the tokens they minted before are revoked on both gateways', async () => {
    const dan = await member('dan@example.com', 'admin');
    const sockets = [logsOn(a, dan.token), logsOn(b, dan.token)];
    await Promise.all(sockets.map(ready));
    const demoted = await owner.put(`/v1/dashboard/organizations/${org}/members/${dan.userId}`, { role: 'viewer' });
    assert.equal(demoted.status, 200, JSON.stringify(demoted.body));
    for (const socket of sockets) assert.deepEqual(await closeOf(socket), { code: 4401, reason: 'token revoked' });
    for (const gateway of [a, b]) assert.equal((await closeOf(logsOn(gateway, dan.token))).code, 4401);
    // a viewer still reads the live log: a token minted under the new role works
    const fresh = await dan.dashboard.post(`/v1/environments/${envId}/logs-token`);
    assert.equal(fresh.status, 201);
    const socket = logsOn(b, fresh.body.token);
    await ready(socket);
    await socket.close();
  });

  await t.test('a member removed where nothing is published (the admin CLI): the socket checks membership as it opens (4403)', async () => {
    const erin = await member('erin@example.com', 'viewer');
    await new Accounts({ pool }).organizations.removeMember(CLI_ACTOR, org, erin.userId);
    for (const gateway of [a, b]) {
      const closed = await closeOf(logsOn(gateway, erin.token));
      assert.equal(closed.code, 4403);
      assert.match(closed.reason, /no longer has access/);
    }
  });

  await t.test("logs sockets count in the environment's socket quota, with the other sockets", async () => {
    const deployed = await request(a.controlUrl, 'PUT', '/v1/config', { token: env.secretKey, body: { limits: { socketsPerEnvironment: 3 } } });
    assert.equal(deployed.status, 200, JSON.stringify(deployed.body));
    const token = (await request(a.controlUrl, 'POST', `/v1/environments/${envId}/logs-token`, { token: env.secretKey })).body.token as string;
    const held: TestSocket[] = [];
    for (const gateway of [a, b, a]) {
      const socket = logsOn(gateway, token);
      await ready(socket);
      held.push(socket);
      // each takes its place in the quota before the next one opens
      await sleep(300);
    }
    const over = logsOn(b, token);
    await ready(over);
    assert.deepEqual(await closeOf(over), { code: 4429, reason: 'too many sockets in this environment' });
    // a user's socket is refused as well while three logs sockets fill the quota
    const alice = await mintToken(a.controlUrl, env.secretKey, 'alice');
    const inbox = openSocket(b.realtimeUrl, `/inbox?token=${alice}`);
    assert.equal((await closeOf(inbox)).code, 4429);
    for (const socket of held) assert.equal(socket.ws.readyState, socket.ws.OPEN, 'the three within the quota stay open');
    // closing one frees its place
    await held.pop()!.close();
    await sleep(300);
    const next = logsOn(a, token);
    await ready(next);
    await sleep(300);
    assert.equal(next.ws.readyState, next.ws.OPEN);
    for (const socket of [...held, next]) await socket.close();
  });
});
