import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { eventually } from './helpers/eventually.ts';
import { partitionsOwned } from './helpers/metrics.ts';
import { client } from './helpers/http.ts';
import { startTcpProxy } from './helpers/tcp-proxy.ts';
import { enqueue, publishedEvent, startReceiver } from './helpers/webhook-receiver.ts';

test('webhooks - a dispatcher whose worker pool stopped during a Postgres outage starts new runners and delivers again', async (t) => {
  const cluster = await startCluster(t, {
    gateways: 1,
    channelNodes: 1,
    env: { WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s,1s,1s', WORKER_RECOVERY_INTERVAL: '1s', WEBHOOK_STALE_AFTER: '5s' },
  });
  // A job lasts past its first moments only when its partition's owner does not take its
  // deliveries (a job's deliveries otherwise join the owner's memory queue and the job ends at
  // once). So: an owner that holds every webhook partition, then frozen (SIGSTOP: its locks and
  // connections stay, it answers nothing), and the dispatcher under test, which owns none,
  // forwards in vain for 2 s (it never sends another owner's deliveries itself) while Postgres
  // goes out of its reach: what the job then writes (its deliveries deferred, its own end) cannot be.
  const owner = await cluster.start('dispatcher');
  await eventually('the first dispatcher owns every webhook partition', async () => (await partitionsOwned(owner.internalUrl)) === 16, 20_000);
  owner.child.kill('SIGSTOP');
  t.after(() => void owner.child.kill('SIGCONT'));
  // the dispatcher under test reaches Postgres through a proxy that can make it unreachable for it alone
  const db = new URL(cluster.db.url);
  const proxy = await startTcpProxy([`postgres://${db.host}`]);
  t.after(() => proxy.close());
  const dispatcher = await cluster.start('dispatcher', { DATABASE_URL: `postgres://postgres@127.0.0.1:${new URL(proxy.url).port}${db.pathname}` });
  const env = await cluster.createEnvironment();
  const api = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  const receiver = await startReceiver(t);
  assert.equal((await api.put('/v1/config', { webhooks: { url: receiver.url } })).status, 200);

  // a job's delivery (first attempts of publishes have no job: they are pushed), which the
  // dispatcher under test tries to forward to the frozen owner
  const first = publishedEvent(env.environmentId, 'w');
  assert.equal(await enqueue(cluster.db.pool, [first]), 1);
  await eventually(
    'the dispatcher under test running the job',
    async () => {
      const { rows } = await cluster.db.pool.query(`select 1 from graphile_worker.jobs where task_identifier = 'deliver_webhooks' and locked_at is not null`);
      return rows.length > 0;
    },
    20_000,
  );
  proxy.refuse(true);
  proxy.cut();
  // the job ends while nothing can be written: graphile-worker gives up on its pool
  await eventually('the worker pool gave up', async () => dispatcher.output.some((line) => /Failed to (complete|fail) jobs/.test(line)), 30_000);
  proxy.refuse(false);

  await eventually('the dispatcher is ready again', async () => (await fetch(`${dispatcher.internalUrl}/internal/ready`)).ok, 30_000);
  // the owner comes back for the second message's notice
  owner.child.kill('SIGCONT');
  const second = await api.post('/v1/channels/w/messages', { content: { n: 2 } });
  assert.equal(second.status, 201);
  const ids = [first.eventId, second.body.id];
  await eventually(
    'both messages delivered and recorded',
    async () => {
      const { rows } = await cluster.db.pool.query<{ event_id: string }>(
        `select event_id from webhook_ledger where environment_id = $1 and status = 'delivered'`,
        [env.environmentId],
      );
      return ids.every((id) => rows.some((row) => row.event_id === id));
    },
    30_000,
  );
  const received = new Set(receiver.received.map((r) => JSON.parse(r.raw.toString('utf8')).id as string));
  for (const id of ids) assert.ok(received.has(id), `${id} reached the receiver`);
});
