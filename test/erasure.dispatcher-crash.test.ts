import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { erasureRunner, writeUserMessages } from './helpers/stored-messages.ts';
import { client } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';

const CHANNELS = 4;
const PER_CHANNEL = 1_000;

/**
 * The dispatcher running an erasure dies (SIGKILL) mid-job: the other dispatcher's recovery pass
 * sees that the dead one's worker pool holds no liveness lock, unlocks its jobs, and runs the
 * erasure's job from its cursor. The job ends `done` with `retracted` exactly the number of
 * messages the user had, and every one of them retracted.
 */
test('erasure - a dispatcher killed mid-erasure: the job finishes on the other one, retracted exact', { timeout: 300_000 }, async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1, dispatchers: 2 });
  const env = await cluster.createEnvironment();
  const pool = cluster.db.pool;
  const total = await writeUserMessages(pool, { environmentId: env.environmentId, userId: 'alice', channels: CHANNELS, perChannel: PER_CHANNEL, tag: 'crash' });
  const control = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  const started = await control.delete('/v1/users/alice/messages');
  assert.equal(started.status, 202);
  const erasureId = started.body.id as string;
  const key = `erasure:${erasureId}`;

  // mid-job: some retracted, the job locked by a worker pool; whose pool it is, by its liveness lock's connection
  const holder = await eventually(
    'the erasure is under way on a dispatcher',
    async () => {
      const row = await erasureRunner(pool, erasureId);
      return row && row.retracted >= 200 && row.retracted < total / 2 ? row : undefined;
    },
    120_000,
  );
  const victim = cluster.dispatchers.find((d) => d.name === holder.name);
  assert.ok(victim, `the job's holder ${holder.name} is one of the dispatchers`);
  const survivor = cluster.dispatchers.find((d) => d !== victim)!;
  await victim.kill();
  const atKill = await pool.query<{ retracted: string; lease_token: string; locked_by: string | null }>(
    `select e.retracted, e.lease_token, j.locked_by from erasure_jobs e left join graphile_worker.jobs j on j.key = $2 where e.id = $1`,
    [erasureId, key],
  );
  assert.equal(atKill.rows[0]!.locked_by, holder.lockedBy, 'the dead dispatcher still held the job when it died');
  assert.ok(Number(atKill.rows[0]!.retracted) < total, 'killed mid-erasure');

  await eventually(
    'the erasure finishes on the other dispatcher',
    async () => (await control.get(`/v1/erasures/${erasureId}`)).body.status === 'done',
    180_000,
  );
  const job = (await control.get(`/v1/erasures/${erasureId}`)).body;
  const { rows } = await pool.query<{ retracted: string; left: string }>(
    `select count(*) filter (where m.retracted_at is not null) as retracted, count(*) filter (where m.retracted_at is null) as left
     from messages m join channels c on c.pk = m.channel_pk where c.environment_id = $1 and m.sender_id = 'alice'`,
    [env.environmentId],
  );
  assert.equal(Number(rows[0]!.left), 0, 'every message retracted');
  assert.equal(job.retracted, total, 'each message counted exactly once');
  assert.equal(job.lastError, null);
  const after = await pool.query<{ lease_token: string }>('select lease_token from erasure_jobs where id = $1', [erasureId]);
  assert.notEqual(after.rows[0]!.lease_token, atKill.rows[0]!.lease_token, 'another run took the erasure');
  assert.equal(survivor.child.exitCode, null, 'the other dispatcher is still running');
});
