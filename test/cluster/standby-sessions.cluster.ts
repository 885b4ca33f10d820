/**
 * Sessions on servers that do not accept writes, with a streaming pair (primary + synchronous
 * standby, promoted by the test: quicker than a formation):
 *
 * 3. A gateway and a channel-node with DATABASE_URL naming only the standby start (the schema is
 *    current there), write nothing and answer a publish 503 `unavailable`; once that standby is
 *    promoted (the primary killed first), publishes succeed, with no restart. Timed: promotion to
 *    the first 201.
 * 4. The primary then turns read-only under the processes' open sessions
 *    (`default_transaction_read_only = on`, reloaded): publishes answer 503 `unavailable` (25006 is a
 *    connection error), never 500; reset and reloaded, they succeed again. Timed: reset to the
 *    first 201.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { createEnvironment } from '@rtm/auth';
import { createPool, migrate } from '@rtm/db';
import { startProcess, type RunningProcess } from '../helpers/cluster.ts';
import { ReplicatedPostgres } from './replicated-postgres.ts';
import { sleep, until } from './fleet.ts';
import { Publishers } from './load.ts';
import { assertOnlyUnavailable, privateNats, refusalCounts, verifyOn } from './failover-world.ts';

/** Promotion (or the reset) to the first 201: "within a few seconds", bounded for 2 busy cores. */
const RESUME_BOUND_MS = 10_000;
const CHANNELS = ['sb-0', 'sb-1', 'sb-2', 'sb-3'];
const LATEST_MIGRATION = readdirSync(new URL('../../libs/db/migrations/', import.meta.url))
  .filter((f) => /^\d{6}\.sql$/.test(f))
  .sort()
  .at(-1)!
  .slice(0, 6);

test('standby sessions - a process on a standby alone answers 503 and finds the promoted primary; a primary turned read-only answers 503', {
  timeout: 300_000,
}, async (t) => {
  const started = Date.now();
  const set = await ReplicatedPostgres.start(t);
  const { primary, standby } = set;
  await primary.query('create database rtm');
  const pool = createPool(primary.url('rtm'), { max: 2, name: 'standby-test' });
  const env = await migrate(pool)
    .then(() => createEnvironment(pool, { organization: 'standby-org', project: 'standby', environment: 'load' }))
    .finally(() => pool.end());
  await until(
    'the standby has the schema and the environment',
    async () => {
      const [row] = await standby.query<{ id: string }>('select max(id) as id from migrations', [], 'rtm');
      return (
        row?.id === LATEST_MIGRATION && (await standby.query('select 1 from signing_keys where environment_id = $1', [env.environmentId], 'rtm')).length > 0
      );
    },
    20_000,
  );

  const procs: RunningProcess[] = [];
  let publishers: Publishers | undefined;
  t.after(async () => {
    await publishers?.stop().catch(() => {});
    await Promise.all(procs.map((p) => p.kill()));
  });
  const processEnv = { DATABASE_URL: standby.url('rtm'), NATS_URL: await privateNats(t), NATS_PREFIX: 'rtm' };
  // 3. pointed at the standby alone: both start (they print `listening`), not ready
  const [channelNode, gateway] = await Promise.all([startProcess('channel-node', processEnv), startProcess('gateway', processEnv)]);
  procs.push(channelNode, gateway);
  t.diagnostic(`streaming pair up, gateway and channel-node on the standby alone listening, ${Date.now() - started} ms`);
  for (const proc of procs) {
    assert.ok(
      proc.output.some((line) => line.includes('no listed Postgres server accepts writes')),
      `${proc.name} says it starts without a server that accepts writes`,
    );
    assert.equal((await fetch(`${proc.internalUrl}/internal/ready`)).status, 503, `${proc.name} is not ready`);
  }
  const headers = { authorization: `Bearer ${env.secretKey}`, 'content-type': 'application/json' };
  const publish = await fetch(`${gateway.controlUrl}/v1/channels/sb-0/messages`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ content: { key: 'probe' } }),
  });
  const publishBody = (await publish.json()) as { code?: string };
  const history = await fetch(`${gateway.controlUrl}/v1/channels/sb-0/history`, { headers });
  const historyBody = (await history.json()) as { code?: string };
  t.diagnostic(`on the standby alone: publish ${publish.status} ${publishBody.code}, history ${history.status} ${historyBody.code ?? ''}`);
  assert.equal(publish.status, 503);
  assert.equal(publishBody.code, 'unavailable');
  // reads go through the same sessions, refused on a standby: never 500
  assert.ok(history.status === 200 || (history.status === 503 && historyBody.code === 'unavailable'), `history answered ${history.status} ${historyBody.code}`);

  publishers = new Publishers(gateway.controlUrl, env.secretKey, CHANNELS, 4, 50);
  const checked = { publishers, environmentId: env.environmentId, channels: CHANNELS };
  publishers.start();
  await sleep(2_000);
  publishers.check();
  assert.equal(publishers.acks.length, 0, 'nothing acknowledged while only a standby is listed');
  assert.ok(publishers.refusals.length > 0);
  assertOnlyUnavailable(publishers, 'on the standby alone');
  const beforePromotion = refusalCounts(publishers).line;

  await primary.kill();
  const promoteMs = await set.promote();
  const promotedAt = Date.now();
  const firstAckMs = await until('a publish acknowledged after the promotion', () => publishers!.acks.length > 0, 30_000).then(
    () => publishers!.acks[0]!.at - promotedAt,
  );
  await sleep(2_000);
  publishers.check();
  const promoted = await verifyOn(checked, standby, 'after the promotion');
  t.diagnostic(`3. on the standby alone: refusals ${beforePromotion}; promoted (primary killed) and writable in ${promoteMs} ms`);
  t.diagnostic(`   first 201 ${firstAckMs} ms after the promotion (bound ${RESUME_BOUND_MS}), no restart; ${promoted.messages} messages stored once`);
  assertOnlyUnavailable(publishers, 'the promotion');
  assert.ok(firstAckMs <= RESUME_BOUND_MS, `first publish acknowledged ${firstAckMs} ms after the promotion (bound ${RESUME_BOUND_MS} ms)`);

  // 4. the primary turns read-only under open sessions
  const server = set.primary;
  const readOnlyAt = Date.now();
  await server.query('alter system set default_transaction_read_only = on');
  await server.query('select pg_reload_conf()');
  await sleep(4_000);
  publishers.check();
  const resetAt = Date.now();
  await server.query('alter system reset default_transaction_read_only');
  await server.query('select pg_reload_conf()');
  const whileReadOnly = refusalCounts(publishers, readOnlyAt, resetAt);
  // a publish sent 1 s after the switch meets it (the reload reaches every session by then)
  const acksWhileReadOnly = publishers.acks.filter((ack) => ack.startedAt >= readOnlyAt + 1_000 && ack.at <= resetAt).length;
  const resumedMs = await until('a publish acknowledged after the reset', () => publishers!.acks.some((ack) => ack.at >= resetAt), 30_000).then(
    () => publishers!.acks.find((ack) => ack.at >= resetAt)!.at - resetAt,
  );
  await sleep(2_000);
  publishers.check();
  const final = await verifyOn(checked, server, 'after read-only and back');
  t.diagnostic(`4. primary read-only for ${resetAt - readOnlyAt} ms: refusals ${whileReadOnly.line}, ${acksWhileReadOnly} acknowledged`);
  t.diagnostic(`   reset: first 201 ${resumedMs} ms later (bound ${RESUME_BOUND_MS}); ${final.messages} messages stored once`);
  assert.ok(whileReadOnly.kinds.length > 0, 'publishes were refused while the primary was read-only');
  assert.equal(acksWhileReadOnly, 0, 'nothing acknowledged while the primary was read-only');
  assertOnlyUnavailable(publishers, 'the read-only primary');
  assert.ok(resumedMs <= RESUME_BOUND_MS, `first publish acknowledged ${resumedMs} ms after the reset (bound ${RESUME_BOUND_MS} ms)`);
  await publishers.stop();
});
