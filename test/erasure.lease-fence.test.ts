import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client } from './helpers/http.ts';

const CHANNELS = 4;
const PER_CHANNEL = 300;

/**
 * An erasure runner that loses its lease mid-batch (here: the lease is expired in SQL again and
 * again while the job runs, and another gateway is woken to claim it) must not make the job count
 * a message twice: `retracted` ends exactly at the number of messages the user had.
 */
test('erasure - a runner that lost its lease changes nothing: retracted stays exact while gateways take the job from each other', { timeout: 300_000 }, async (t) => {
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 1 });
  const env = await cluster.createEnvironment();
  const pool = cluster.db.pool;
  // the user's messages, written directly (publishing 1,200 one by one only costs time)
  for (let c = 0; c < CHANNELS; c++) {
    const { rows } = await pool.query<{ pk: string }>(
      'insert into channels (environment_id, id, last_seq) values ($1, $2, $3) returning pk',
      [env.environmentId, `room-${c}`, PER_CHANNEL],
    );
    await pool.query(
      `insert into messages (channel_pk, seq, id, type, kind, content, sender_id, sender_anon, ts)
       select $1::bigint, g, 'msg_fence_' || $1::bigint || '_' || g, 'message', 'user', '{"n":1}'::json, 'alice', false, 0
       from generate_series(1, $2) g`,
      [rows[0]!.pk, PER_CHANNEL],
    );
  }
  const total = CHANNELS * PER_CHANNEL;
  const gateways = cluster.gateways.map((g) => client(g.controlUrl, env.secretKey));
  const started = await gateways[0]!.delete('/v1/users/alice/messages');
  assert.equal(started.status, 202);
  const jobId = started.body.id as string;

  // take the job away from whoever runs it, over and over, until it is done
  const tokens = new Set<string>();
  let steals = 0;
  for (let round = 0; ; round++) {
    const { rows } = await pool.query<{ status: string; lease_token: string | null }>('select status, lease_token from erasure_jobs where id = $1', [jobId]);
    if (rows[0]!.lease_token) tokens.add(rows[0]!.lease_token);
    if (rows[0]!.status !== 'running') break;
    assert.ok(round < 3_000, 'the job did not finish');
    const stolen = await pool.query(`update erasure_jobs set locked_until = now() - interval '1 second' where id = $1 and status = 'running'`, [jobId]);
    steals += stolen.rowCount ?? 0;
    // a job created on a gateway wakes its runner, which claims the oldest claimable job first
    assert.equal((await gateways[round % 2]!.delete(`/v1/users/nobody-${round}/messages`)).status, 202);
    await new Promise((resolve) => setTimeout(resolve, 60));
  }

  const job = (await gateways[0]!.get(`/v1/erasures/${jobId}`)).body;
  const { rows } = await pool.query<{ retracted: string; left: string }>(
    `select count(*) filter (where m.retracted_at is not null) as retracted, count(*) filter (where m.retracted_at is null) as left
     from messages m join channels c on c.pk = m.channel_pk where c.environment_id = $1 and m.sender_id = 'alice'`,
    [env.environmentId],
  );
  assert.equal(job.status, 'done', JSON.stringify(job));
  assert.equal(Number(rows[0]!.left), 0, 'every message retracted');
  assert.equal(Number(rows[0]!.retracted), total);
  assert.equal(job.retracted, total, `retracted counts each message once (${steals} lease steals)`);
  assert.ok(steals >= 3, `the lease was taken away while the job ran (${steals})`);
  assert.ok(tokens.size >= 2, `the job changed hands (${tokens.size} lease tokens seen)`);
});
