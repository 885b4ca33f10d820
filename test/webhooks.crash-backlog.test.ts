import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client } from './helpers/http.ts';
import { deliveredCount, eventually, startReceiver } from './helpers/webhook-receiver.ts';
import { webhookPartitionOf } from '@rtm/bus';
import { ADVISORY_LOCKS } from '@rtm/db';

const BATCHES = 50;
const PER_BATCH = 100;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('webhooks - kill -9 of the owning dispatcher with thousands in flight strands nothing', async (t) => {
  // production timings (the 10 s timeout, the default schedule) but a push lease longer than the
  // 60 s allowed: the deliveries the killed owner held must be taken over when it is found dead,
  // not when its leases run out (with the default 30 s lease they arrive ~32 s after the kill
  // that way, against ~6 s taken over)
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1, dispatchers: 1, env: { WEBHOOK_PUSH_LEASE: '90s' } });
  const env = await cluster.createEnvironment('backlog');
  const api = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  const receiver = await startReceiver(t, () => ({ status: 204 }));
  assert.equal((await api.put('/v1/config', { webhooks: { url: receiver.url } })).status, 200);
  // a second dispatcher started shortly before, as an operator scaling out would
  await cluster.start('dispatcher');
  await sleep(8_000);

  const expected = new Set<string>();
  let killedAt = 0;
  // the dispatcher killed is the one that owns the environment's webhook partition: every
  // delivery of the environment is its to send
  const partition = webhookPartitionOf(env.environmentId);
  const holder = await cluster.db.pool.query<{ name: string }>(
    `select a.application_name as name from pg_locks l join pg_stat_activity a on a.pid = l.pid
     where l.locktype = 'advisory' and l.granted and l.objsubid = 2
       and l.database = (select oid from pg_database where datname = current_database()) and l.classid = $1::int8::oid and l.objid = $2::int8::oid`,
    [ADVISORY_LOCKS.webhookPartitions, partition],
  );
  const owner = cluster.dispatchers.find((d) => holder.rows[0]?.name === `dispatcher-locks ${d.name}`);
  assert.ok(owner, `the owner of partition ${partition}: ${JSON.stringify(holder.rows)}`);
  const killer = (async () => {
    await sleep(400);
    killedAt = Date.now();
    await owner.kill();
    // the supervisor starts a new one
    await cluster.start('dispatcher');
  })();
  for (let b = 0; b < BATCHES; b++) {
    const messages = Array.from({ length: PER_BATCH }, (_, i) => ({ channelId: `backlog-${i % 20}`, content: { b, i } }));
    const res = await api.post('/v1/messages/batch', { messages });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    for (const result of res.body.results) {
      assert.ok(result.id, JSON.stringify(result));
      expected.add(result.id);
    }
  }
  await killer;
  assert.equal(expected.size, BATCHES * PER_BATCH);

  // the receiver runs in this process: its ids are read incrementally, never all again per check
  const got = new Set<string>();
  let read = 0;
  const missingNow = () => {
    for (; read < receiver.received.length; read++) got.add(JSON.parse(receiver.received[read]!.raw.toString('utf8')).id as string);
    let missing = 0;
    for (const id of expected) if (!got.has(id)) missing++;
    return missing;
  };
  const deadline = killedAt + 60_000;
  while (Date.now() < deadline && missingNow() > 0) await sleep(250);
  const missing = missingNow();
  t.diagnostic(`${Date.now() - killedAt} ms after the kill: ${got.size} distinct received, ${receiver.received.length} requests, ${missing} missing`);
  assert.equal(missing, 0, `every event reaches the receiver within 60 s of the kill (${missing} missing)`);
  const duplicates = receiver.received.length - got.size;
  t.diagnostic(`${duplicates} duplicates (sends in flight at the kill)`);
  // only sends that were on the wire when the owner died are made again: at most its
  // environment's concurrency limit (64) of them, with as many claimed ahead
  assert.ok(duplicates <= 128, `${duplicates} duplicates`);
  // the ledger catches up: every delivery recorded delivered at its first attempt (the sends the
  // dead owner made left no record; nothing is recorded twice: an outcome is keyed by its delivery)
  await eventually(async () => ((await deliveredCount(cluster.db.pool, env.environmentId, 1)) === BATCHES * PER_BATCH ? true : undefined), {
    intervalMs: 500,
    timeoutMs: 60_000,
    what: 'every delivery recorded delivered once',
  });
  const ledger = await cluster.db.pool.query<{ n: number }>(`select count(*)::int as n from webhook_deliveries`);
  assert.equal(ledger.rows[0]!.n, 0, 'no delivery needed a ledger row: every first attempt succeeded');
});
