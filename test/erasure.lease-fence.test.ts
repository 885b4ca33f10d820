import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { writeUserMessages } from './helpers/stored-messages.ts';
import { client } from './helpers/http.ts';

// enough messages that the job is still running after a few re-runs, even on a fast machine
const CHANNELS = 8;
const PER_CHANNEL = 1_000;

/**
 * A run of an erasure's job that is still going when the job is run again (here: the job is
 * force-unlocked again and again while it runs, as the recovery pass does for a dispatcher taken
 * for dead, and another run takes it) must change nothing and count nothing: `retracted` ends
 * exactly at the number of messages the user had, each re-run took its own token, and the runs
 * that lost the erasure noticed (the channel owner refused their retractions, their cursor writes
 * found another token).
 */
test('erasure - a run whose job was run again changes nothing: retracted stays exact while dispatchers take the job from each other', {
  timeout: 300_000,
}, async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1, dispatchers: 2 });
  const env = await cluster.createEnvironment();
  const pool = cluster.db.pool;
  const total = await writeUserMessages(pool, { environmentId: env.environmentId, userId: 'alice', channels: CHANNELS, perChannel: PER_CHANNEL, tag: 'fence' });
  const control = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  const started = await control.delete('/v1/users/alice/messages');
  assert.equal(started.status, 202);
  const jobId = started.body.id as string;

  // run the job again while it runs, over and over, until it is done (a few times per job at most: each
  // re-run is an attempt, and a job out of attempts gives up)
  const tokens = new Set<string>();
  let steals = 0;
  // bounded by time, not by rounds: on a loaded machine each round's statements take longer
  const deadline = Date.now() + 220_000;
  for (;;) {
    const { rows } = await pool.query<{ status: string; lease_token: string | null }>('select status, lease_token from erasure_jobs where id = $1', [jobId]);
    if (rows[0]!.lease_token) tokens.add(rows[0]!.lease_token);
    if (rows[0]!.status !== 'running') break;
    assert.ok(Date.now() < deadline, 'the job did not finish');
    const stolen = await pool.query(
      `select graphile_worker.force_unlock_workers(array[locked_by]) from graphile_worker.jobs
       where key = $1 and locked_by is not null and attempts < 4`,
      [`erasure:${jobId}`],
    );
    steals += stolen.rowCount ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  const job = (await control.get(`/v1/erasures/${jobId}`)).body;
  const { rows } = await pool.query<{ retracted: string; left: string }>(
    `select count(*) filter (where m.retracted_at is not null) as retracted, count(*) filter (where m.retracted_at is null) as left
     from messages m join channels c on c.pk = m.channel_pk where c.environment_id = $1 and m.sender_id = 'alice'`,
    [env.environmentId],
  );
  assert.equal(job.status, 'done', JSON.stringify(job));
  assert.equal(Number(rows[0]!.left), 0, 'every message retracted');
  assert.equal(Number(rows[0]!.retracted), total);
  assert.equal(job.retracted, total, `retracted counts each message once (${steals} re-runs)`);
  // how often a run is taken over before the job ends depends on how soon a worker picks the freed job
  // up (CI saw one); one take-over is what the fence has to withstand, each further one is the same case
  assert.ok(steals >= 1, `the job was run again while it ran (${steals})`);
  // a token is the job's id and attempt: a re-run of the same job took a new one
  const byJob = new Map<string, Set<string>>();
  for (const token of tokens) {
    const [id, attempt] = token.split(':');
    assert.match(attempt ?? '', /^\d+$/, `token ${token}`);
    byJob.set(id!, (byJob.get(id!) ?? new Set()).add(attempt!));
  }
  assert.ok(
    [...byJob.values()].some((attempts) => attempts.size >= 2),
    `a re-run of one job took a new token (${[...tokens].join(', ')})`,
  );
  // the runs that lost the erasure found out (their retractions refused, their cursor writes fenced) and stopped
  const output = cluster.dispatchers.flatMap((d) => d.output).join('\n');
  assert.match(output, /taken over by a newer run/);
});
