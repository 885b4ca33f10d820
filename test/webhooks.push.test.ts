import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client } from './helpers/http.ts';
import { eventually, startReceiver, deliveredCount } from './helpers/webhook-receiver.ts';
import { metricTotal } from './helpers/metrics.ts';

const idOf = (raw: Buffer) => JSON.parse(raw.toString('utf8')).id as string;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test("webhooks - first attempts are pushed after commit; a lost notice is caught by the owner's catch-up", async (t) => {
  const cluster = await startCluster(t, {
    gateways: 1,
    channelNodes: 1,
    dispatchers: 0,
    // the push lease (channel-node) leaves the dispatcher's claim lease (timeout + 5 s) and its
    // 2 s slack: the notices' rows go unclaimed, and a lost notice is found 16 s after its commit
    env: { WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s,1s,1s', WORKER_RECOVERY_INTERVAL: '1s', WEBHOOK_TIMEOUT_MS: '5000', WEBHOOK_PUSH_LEASE: '16s' },
  });
  const api = (key: string) => client(cluster.gateways[0]!.controlUrl, key);

  await t.test('a commit adds no job; with no dispatcher subscribed the notice is lost, and the delivery is still made within the bound', async (t) => {
    const env = await cluster.createEnvironment('lost');
    const control = api(env.secretKey);
    const receiver = await startReceiver(t);
    assert.equal((await control.put('/v1/config', { webhooks: { url: receiver.url } })).status, 200);
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await control.post(`/v1/channels/lost-${i % 4}/messages`, { content: { i } });
      assert.equal(res.status, 201);
      ids.push(res.body.id);
    }
    const { rows: recorded } = await cluster.db.pool.query<{ n: number }>(
      `select count(*)::int as n from webhook_ledger where environment_id = $1 and status = 'pending' and attempts = 0`,
      [env.environmentId],
    );
    assert.equal(recorded[0]!.n, 20, 'the deliveries are committed with the messages');
    const { rows: jobs } = await cluster.db.pool.query<{ n: number }>(
      `select count(*)::int as n from graphile_worker.jobs where task_identifier in ('deliver_webhooks', 'deliver_webhook')`,
    );
    assert.equal(jobs[0]!.n, 0, 'a commit adds no delivery job: first attempts are pushed');

    // the notices went to nobody: a dispatcher that starts now owns every partition and reads the
    // rows from the delivery log above the partitions' positions as it takes them
    const started = Date.now();
    await cluster.start('dispatcher');
    await eventually(
      async () => {
        const got = new Set(receiver.received.map((r) => idOf(r.raw)));
        return ids.every((id) => got.has(id));
      },
      { timeoutMs: 40_000, what: 'every delivery whose notice was lost' },
    );
    t.diagnostic(`delivered ${Date.now() - started} ms after a dispatcher started (taking the partitions, then one read of the log)`);
    await eventually(async () => (await deliveredCount(cluster.db.pool, env.environmentId, 1)) === 20, {
      timeoutMs: 20_000,
      what: 'every delivery recorded once',
    });
  });

  await t.test('with a dispatcher subscribed, deliveries are sent from the notice: no job, one attempt each', async (t) => {
    const env = await cluster.createEnvironment('pushed');
    const control = api(env.secretKey);
    const receiver = await startReceiver(t);
    assert.equal((await control.put('/v1/config', { webhooks: { url: receiver.url } })).status, 200);
    const dispatcher = cluster.dispatchers[0]!;
    const before = await metricTotal(dispatcher.internalUrl, /^webhook_notices_total\{[^}]*result="queued"[^}]*\} (\d+)/);
    const leased = (by: string) => metricTotal(dispatcher.internalUrl, new RegExp(`^webhook_leased_total\\{[^}]*by="${by}"[^}]*\\} (\\d+)`));
    const [noticeBefore, claimBefore] = [await leased('notice'), await leased('claim')];
    const ids = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const res = await control.post(`/v1/channels/push-${i % 8}/messages`, { content: { i } });
        assert.equal(res.status, 201);
        return res.body.id as string;
      }),
    );
    await receiver.waitFor((r) => {
      const got = new Set(r.map((x) => idOf(x.raw)));
      return ids.every((id) => got.has(id));
    }, 'every pushed delivery');
    const after = await metricTotal(dispatcher.internalUrl, /^webhook_notices_total\{[^}]*result="queued"[^}]*\} (\d+)/);
    assert.ok(after > before, 'the dispatcher took post-commit notices');
    await eventually(async () => (await deliveredCount(cluster.db.pool, env.environmentId, 1)) === 40, {
      timeoutMs: 20_000,
      what: 'every delivery recorded delivered',
    });
    // each went as its notice carried it: no claim, and nothing but an outcome written for it
    assert.equal((await leased('notice')) - noticeBefore, 40, 'every delivery sent from its notice');
    assert.equal((await leased('claim')) - claimBefore, 0, 'none claimed');
    const { rows } = await cluster.db.pool.query<{ logged: number; outcomes: number; ledger: number }>(
      `select (select count(*)::int from webhook_log where environment_id = $1) as logged,
              (select count(*)::int from webhook_outcomes where environment_id = $1) as outcomes,
              (select count(*)::int from webhook_deliveries where environment_id = $1) as ledger`,
      [env.environmentId],
    );
    assert.deepEqual(rows[0], { logged: 40, outcomes: 40, ledger: 0 }, 'one log row and one outcome per delivery, no ledger row');
  });

  await t.test('a 410 Gone stops the retries: dropped at once with lastError "status 410"', async (t) => {
    const env = await cluster.createEnvironment('gone');
    const control = api(env.secretKey);
    const receiver = await startReceiver(t, () => ({ status: 410 }));
    const other = await startReceiver(t, (r) => (r.n === 1 ? { status: 500 } : { status: 200 }));
    assert.equal((await control.put('/v1/config', { webhooks: { url: receiver.url } })).status, 200);
    const res = await control.post('/v1/channels/gone/messages', { content: { gone: true } });
    assert.equal(res.status, 201);
    const row = await eventually(
      async () => {
        const list = await control.get('/v1/webhooks/deliveries');
        return list.body.data[0]?.status === 'dropped' ? list.body.data[0] : undefined;
      },
      { timeoutMs: 30_000, what: 'the delivery dropped' },
    );
    assert.equal(row.attempts, 1);
    assert.equal(row.lastError, 'status 410');
    // the schedule would retry after 1 s: nothing comes
    await sleep(3_000);
    assert.equal(receiver.received.length, 1, 'no retry after 410');

    // any other failure still retries (500, then 200)
    assert.equal((await control.put('/v1/config', { webhooks: { url: other.url } })).status, 200);
    assert.equal((await control.post('/v1/channels/gone/messages', { content: { later: true } })).status, 201);
    await other.waitFor((r) => r.length === 2, 'a retry after a 500');
  });
});
