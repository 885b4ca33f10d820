import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SessionStore } from '@rtm/accounts';
import { startCluster } from './helpers/cluster.ts';
import { openSocket, type TestSocket } from './helpers/ws.ts';
import { closeOf } from './helpers/closed.ts';
import { DashboardClient, createUser } from './helpers/dashboard.ts';

const PASSWORD = 'correct horse battery';
const REVOKED = { code: 4401, reason: 'token revoked' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('logs - a logs socket minted from a dashboard session closes when that session ends, on every gateway', async (t) => {
  const cluster = await startCluster(t, { gateways: 2 });
  const [a, b] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const env = await cluster.createEnvironment('logs-sessions');
  const envId = env.environmentId;
  const { userId } = await createUser(cluster.db.pool, { email: 'owner@example.com', password: PASSWORD, organization: env.organizationId, role: 'owner' });

  const logsOn = (gateway: { realtimeUrl: string }, token: string) => openSocket(gateway.realtimeUrl, `/v1/environments/${envId}/logs?token=${token}`);
  const ready = async (socket: TestSocket) => {
    await socket.waitFor('logs ready', (f) => f.op === 'ready');
    return socket;
  };
  /** A session on `gateway`, with a logs token it minted and a live logs socket on each gateway. */
  async function watching(gateway: { controlUrl: string }) {
    const dashboard = new DashboardClient(gateway.controlUrl);
    assert.equal((await dashboard.signIn('owner@example.com', PASSWORD)).status, 200);
    const minted = await dashboard.post(`/v1/environments/${envId}/logs-token`);
    assert.equal(minted.status, 201, JSON.stringify(minted.body));
    const token = minted.body.token as string;
    return { dashboard, token, sockets: await Promise.all([ready(logsOn(a, token)), ready(logsOn(b, token))]) };
  }
  const refusedEverywhere = async (token: string) => {
    for (const gateway of [a, b]) assert.deepEqual(await closeOf(logsOn(gateway, token)), REVOKED, 'the token opens no new socket');
  };

  await t.test("signing out on another gateway closes the session's logs sockets on both (4401), and its token opens none", async () => {
    const { dashboard, token, sockets } = await watching(a);
    // another session of the same member keeps its own socket
    const other = await watching(b);
    const out = await dashboard.on(b.controlUrl).delete('/v1/dashboard/session');
    assert.equal(out.status, 204);
    for (const socket of sockets) assert.deepEqual(await closeOf(socket), REVOKED);
    await refusedEverywhere(token);
    await sleep(300);
    for (const socket of other.sockets) assert.equal(socket.ws.readyState, socket.ws.OPEN, "another session's socket stays open");
    for (const socket of other.sockets) await socket.close();
  });

  await t.test('a new sign-in in the same browser ends the old session and closes what it minted', async () => {
    const { dashboard, token, sockets } = await watching(a);
    assert.equal((await dashboard.signIn('owner@example.com', PASSWORD)).status, 200);
    for (const socket of sockets) assert.deepEqual(await closeOf(socket), REVOKED);
    await refusedEverywhere(token);
  });

  await t.test('every session of the user ended (as a password change does) closes their logs sockets', async () => {
    const { token, sockets } = await watching(a);
    // ended without any gateway's request: the gateways' round over ended sessions finds it
    await new SessionStore(cluster.db.pool, { idleMs: 60_000, maxMs: 60_000 }).deleteForUser(userId);
    for (const socket of sockets) assert.deepEqual(await closeOf(socket, 60_000), REVOKED);
    await refusedEverywhere(token);
  });

  await t.test('a session that idles out closes its logs sockets, and its token opens none meanwhile', async () => {
    const short = await cluster.start('gateway', { DASHBOARD_SESSION_IDLE: '2s' });
    const dashboard = new DashboardClient(short.controlUrl);
    assert.equal((await dashboard.signIn('owner@example.com', PASSWORD)).status, 200);
    const minted = await dashboard.post(`/v1/environments/${envId}/logs-token`);
    assert.equal(minted.status, 201, JSON.stringify(minted.body));
    const socket = await ready(logsOn(short, minted.body.token));
    // no request for longer than the idle time: the session is over
    assert.deepEqual(await closeOf(socket, 20_000), REVOKED);
    assert.deepEqual(await closeOf(logsOn(short, minted.body.token)), REVOKED);
  });
});
