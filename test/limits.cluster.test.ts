import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster, type RunningProcess } from './helpers/cluster.ts';
import { mintToken, request } from './helpers/http.ts';
import { openSocket } from './helpers/ws.ts';
import { admin, runAdmin } from './helpers/admin.ts';
import { eventually } from './helpers/eventually.ts';

const LIMIT = 20;

/** Publishes as fast as `concurrency` callers allow for `windows` whole windows; counts 201s and 429s. */
async function flood(gateways: RunningProcess[], token: string, windows: number) {
  const first = Math.floor(Date.now() / 1_000) + 1;
  await new Promise((resolve) => setTimeout(resolve, first * 1_000 - Date.now()));
  const until = (first + windows) * 1_000;
  const counts = { admitted: 0, refused: 0, other: 0 };
  const caller = async (gateway: RunningProcess) => {
    while (Date.now() < until) {
      const res = await request(gateway.realtimeUrl, 'POST', '/v1/channels/flood/messages', { token, body: { content: {} } });
      if (res.status === 201) counts.admitted++;
      else if (res.status === 429) counts.refused++;
      else counts.other++;
    }
  };
  await Promise.all(gateways.flatMap((gateway) => Array.from({ length: 6 }, () => caller(gateway))));
  // the last requests may have been admitted in the window after the flood
  return { ...counts, windows: Math.floor(Date.now() / 1_000) - first + 1 };
}

test('limits - two gateways together admit at most 1.2x a limit; one gateway alone admits close to all of it', async (t) => {
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 1 });
  const [a, b] = cluster.gateways as [RunningProcess, RunningProcess];
  const env = await cluster.createEnvironment('cluster');
  // deployed through gateway a; gateway b must apply it too
  const deployed = await request(a.controlUrl, 'PUT', '/v1/config', { token: env.secretKey, body: { limits: { userPublishesPerSecond: LIMIT } } });
  assert.equal(deployed.status, 200);
  assert.equal(deployed.body.config.limits.userPublishesPerSecond, LIMIT);
  const token = await mintToken(a.controlUrl, env.secretKey, 'flooder');

  const both = await flood([a, b], token, 3);
  assert.equal(both.other, 0);
  assert.ok(both.refused > 0, 'the flood was refused in part');
  assert.ok(both.admitted <= 1.2 * LIMIT * both.windows, `two gateways admitted ${both.admitted} in ${both.windows} windows`);

  const alone = await flood([b], token, 3);
  assert.equal(alone.other, 0);
  assert.ok(alone.refused > 0);
  assert.ok(alone.admitted <= 1.2 * LIMIT * alone.windows, `one gateway admitted ${alone.admitted} in ${alone.windows} windows`);
  // three whole windows of flood: close to the whole limit in each
  assert.ok(alone.admitted >= 0.8 * LIMIT * 3, `one gateway admitted only ${alone.admitted} in three windows`);
});

test('limits - sockets per user hold across gateways', async (t) => {
  const cluster = await startCluster(t, { gateways: 2 });
  const [a, b] = cluster.gateways as [RunningProcess, RunningProcess];
  const env = await cluster.createEnvironment('sockets');
  // set by an operator through the admin CLI
  const set = await admin(cluster.env, ['set-limits', '--env', env.environmentId, '--set', 'socketsPerUser=2', '--json']);
  assert.equal(set.limits.socketsPerUser, 2);
  const bad = await runAdmin(cluster.env, ['set-limits', '--env', env.environmentId, '--set', 'socketsPerUser=0']);
  assert.equal(bad.code, 64);
  const token = await mintToken(a.controlUrl, env.secretKey, 'many-tabs');
  const open = async (gateway: RunningProcess, channel: string) => {
    const socket = openSocket(gateway.realtimeUrl, `/v1/channels/${channel}?token=${token}`);
    await socket.waitFor('ready', (frame) => frame.op === 'ready');
    return socket;
  };
  // four sockets, two on each gateway: the quota checks run as they open, concurrently, so which
  // two are refused is not fixed, but exactly two are, with 4429, whichever gateway they are on
  const sockets = await Promise.all([open(a, 'one'), open(b, 'two'), open(a, 'three'), open(b, 'four')]);
  const codes: (number | undefined)[] = sockets.map(() => undefined);
  sockets.forEach((socket, i) => void socket.closed.then((closed) => (codes[i] = closed.code)));
  await eventually('two sockets refused', async () => codes.filter((code) => code !== undefined).length >= 2, 10_000);
  assert.deepEqual(
    codes.filter((code) => code !== undefined),
    [4429, 4429],
  );
  const kept = sockets.filter((_, i) => codes[i] === undefined);

  // a place freed on one gateway can be taken on either (the freeing reaches the shared count
  // just after the close: retry a few times)
  await kept[0]!.close();
  let replacement = await open(a, 'five');
  for (let attempt = 0; attempt < 20; attempt++) {
    const outcome = await Promise.race([replacement.closed.then(() => 'closed'), new Promise((resolve) => setTimeout(resolve, 500, 'open'))]);
    if (outcome === 'open') break;
    replacement = await open(attempt % 2 ? a : b, 'five');
  }
  assert.equal(replacement.ws.readyState, replacement.ws.OPEN);
  await Promise.all([...sockets, replacement].map((socket) => socket.close()));
});
