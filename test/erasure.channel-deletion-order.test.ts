import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken } from './helpers/http.ts';
import { openSocket } from './helpers/ws.ts';
import { eventually } from './helpers/eventually.ts';

/**
 * A channel deletion held still at its step that removes the bans (a row lock the test holds),
 * while the channel's sockets and publishers are watched: by then the sockets must be closed, a
 * publish must be refused rather than survive the deletion, and once it ends nothing published
 * before its end is left.
 */
test('erasure - channel deletion closes sockets before it resets bans, and no message published during it survives', { timeout: 180_000 }, async (t) => {
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 1, dispatchers: 1 });
  const [gwA, gwB] = cluster.gateways as [(typeof cluster.gateways)[0], (typeof cluster.gateways)[0]];
  const env = await cluster.createEnvironment();
  const control = client(gwA.controlUrl, env.secretKey);
  const aliceToken = await mintToken(gwA.controlUrl, env.secretKey, 'alice');
  const alice = client(gwB.realtimeUrl, aliceToken);
  for (let i = 0; i < 3; i++) assert.equal((await alice.post('/v1/channels/doomed/messages', { content: { n: i } })).status, 201);
  assert.equal((await control.put('/v1/channels/doomed/members/bob')).status, 200);
  assert.equal((await control.put('/v1/channels/doomed/bans/mallory', { reason: 'spam' })).status, 200);
  const watching = openSocket(gwB.realtimeUrl, `/v1/channels/doomed?token=${aliceToken}`);
  await watching.waitFor('ready', (f) => f.op === 'ready');

  // hold the ban row: the deletion stops where it removes bans
  const holder = await cluster.db.pool.connect();
  let held = true;
  const release = async () => {
    if (!held) return;
    held = false;
    await holder.query('rollback').catch(() => undefined);
    holder.release();
  };
  let deletion: Promise<any> | undefined;
  let meanwhile: ReturnType<typeof openSocket> | undefined;
  try {
    await holder.query('begin');
    await holder.query(`select 1 from bans where environment_id = $1 and channel_id = 'doomed' for update`, [env.environmentId]);
    deletion = client(gwA.controlUrl, env.secretKey).delete('/v1/channels/doomed');
    await eventually('the deletion waits on the bans', async () => {
      const { rows } = await cluster.db.pool.query(
        `select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like 'delete from bans%'`,
      );
      return rows.length > 0;
    });

    // the sockets are closed before the bans are reset
    const closed = await eventually('the socket is closed while the bans are still there', async () => {
      const result = await Promise.race([watching.closed, new Promise<null>((resolve) => setTimeout(() => resolve(null), 200))]);
      return result;
    });
    assert.deepEqual(closed, { code: 4403, reason: 'channel deleted' });

    // a publish meanwhile is refused (503, retryable); it must not be acknowledged and then survive
    const during = await alice.post('/v1/channels/doomed/messages', { content: { during: true } });
    assert.notEqual(during.status, 201, 'a message published during the deletion was acknowledged');
    assert.equal(during.status, 503);
    assert.equal(errorCode(during), 'unavailable');
    assert.match(during.body.reason, /being deleted/);
    // a socket opened meanwhile (admitted by the old rules) does not outlive the deletion
    meanwhile = openSocket(gwA.realtimeUrl, `/v1/channels/doomed?token=${aliceToken}`);
    await meanwhile.waitFor('ready', (f) => f.op === 'ready');
  } finally {
    await release();
  }
  const deleted = await deletion!;
  assert.equal(deleted.status, 200, JSON.stringify(deleted.body));
  assert.deepEqual(deleted.body.deleted, { messages: 3, members: 1, bans: 1 });
  assert.deepEqual(await meanwhile!.closed, { code: 4403, reason: 'channel deleted' });

  // nothing published before the end survives; the next publish starts the channel anew
  assert.deepEqual((await control.get('/v1/channels/doomed/history')).body.messages, []);
  const after = await alice.post('/v1/channels/doomed/messages', { content: { after: true } });
  assert.equal(after.status, 201);
  assert.equal(after.body.seq, 4, 'the refused publish took no seq');
  assert.equal((await control.get('/v1/channels/doomed/history')).body.messages.length, 1);
  const { rows } = await cluster.db.pool.query(`select deleting_until from channels where environment_id = $1 and id = 'doomed'`, [env.environmentId]);
  assert.equal(rows[0].deleting_until, null, 'the mark is lifted');
});
