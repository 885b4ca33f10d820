import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';

const DAY = 86_400_000;

test('retention - the dispatcher deletes messages older than their namespace keeps, in batches, and seqs are never reused', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const control = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  const pool = cluster.db.pool;
  const deployed = await control.put('/v1/config', {
    namespaces: [{ prefix: 'old:', retentionDays: 2 }, { prefix: 'old:keep:' }],
  });
  assert.equal(deployed.status, 200);

  // each channel gets its row and seq 1 through the API, then 2,499 more rows three days old
  // straight into Postgres (the owner's fence makes it reload the channel's last seq)
  const channels = ['old:a', 'old:keep:b', 'plain:c'];
  for (const channel of channels) assert.equal((await control.post(`/v1/channels/${channel}/messages`, { content: { n: 1 } })).status, 201);
  const old = Date.now() - 3 * DAY;
  await pool.query(`update messages m set ts = $2 from channels c where c.pk = m.channel_pk and c.environment_id = $1`, [env.environmentId, old]);
  await pool.query(
    `insert into messages (channel_pk, seq, id, type, kind, content, sender_id, sender_anon, ts)
     select c.pk, s, 'msg_old_' || c.pk || '_' || s, 'message', 'server', '{"old":true}', 'server', false, $2::bigint + s
     from channels c, generate_series(2, 2500) s where c.environment_id = $1`,
    [env.environmentId, old],
  );
  await pool.query(`update channels set last_seq = 2500 where environment_id = $1`, [env.environmentId]);
  // and newer messages after them, through the API
  for (const channel of channels) {
    for (const n of [1, 2]) {
      const res = await control.post(`/v1/channels/${channel}/messages`, { content: { fresh: n } });
      assert.equal(res.status, 201);
      assert.equal(res.body.seq, 2500 + n);
    }
  }
  const count = async (channel: string) =>
    Number(
      (
        await pool.query(`select count(*) from messages m join channels c on c.pk = m.channel_pk where c.environment_id = $1 and c.id = $2`, [
          env.environmentId,
          channel,
        ])
      ).rows[0].count,
    );
  assert.equal(await count('old:a'), 2502);

  // two dispatchers start at once: each enqueues the job at start under one key, one runs it
  await Promise.all([cluster.start('dispatcher', { LOG_LEVEL: 'info' }), cluster.start('dispatcher', { LOG_LEVEL: 'info' })]);
  await eventually('old:a pruned', async () => (await count('old:a')) === 2, 30_000);
  const left = await control.get('/v1/channels/old:a/history');
  assert.deepEqual(
    left.body.messages.map((m: { seq: number }) => m.seq),
    [2501, 2502],
  );
  // the longer namespace without retention, and channels outside any namespace, keep everything
  assert.equal(await count('old:keep:b'), 2502);
  assert.equal(await count('plain:c'), 2502);
  // the channel's seq goes on from where it was
  assert.equal((await control.post('/v1/channels/old:a/messages', { content: { after: true } })).body.seq, 2503);
  // one run deleted them (the job key keeps a second runner from pruning the same rows)
  await eventually('the prune is logged', async () => cluster.dispatchers.some((d) => d.output.some((line) => line.includes('pruned messages'))));
  const deleted = cluster.dispatchers
    .flatMap((d) => d.output)
    .filter((line) => line.includes('pruned messages'))
    .map((line) => JSON.parse(line).deleted as number);
  assert.deepEqual(deleted, [2500]);
});
