import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client } from './helpers/http.ts';
import { enqueue, eventually, publishedEvent, startReceiver, deliveredCount } from './helpers/webhook-receiver.ts';

const MESSAGES = 400;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test('webhooks - kill -9 of a dispatcher and of a channel-node under load loses no event', async (t) => {
  const cluster = await startCluster(t, {
    gateways: 1,
    channelNodes: 2,
    dispatchers: 2,
    env: { WEBHOOK_RETRY_SCHEDULE: '1s,1s,2s,5s,10s', WEBHOOK_TIMEOUT_MS: '2000', WORKER_RECOVERY_INTERVAL: '1s' },
  });

  await t.test('publishing and delivering while a dispatcher and a channel-node die', async (t) => {
    const env = await cluster.createEnvironment('load');
    const api = client(cluster.gateways[0]!.controlUrl, env.secretKey);
    // slow enough that deliveries are in flight when the dispatcher dies
    const receiver = await startReceiver(t, () => ({ status: 200, delayMs: 50 }));
    assert.equal((await api.put('/v1/config', { webhooks: { url: receiver.url } })).status, 200);

    const acked: string[] = [];
    let next = 0;
    let dispatcherKilledAt = 0;
    let nodeKilled = false;
    const publishOne = async (i: number) => {
      // a publish that failed with the dying node is retried with the same idempotency key
      for (let attempt = 0; ; attempt++) {
        try {
          const res = await api.post(`/v1/channels/crash-${i % 16}/messages`, { content: { i }, idempotencyKey: `c-${i}` });
          if (res.status === 201) return res.body.id as string;
          assert.ok([503, 500].includes(res.status) && attempt < 50, `publish ${i}: ${res.status} ${JSON.stringify(res.body)}`);
        } catch (error) {
          if (attempt >= 50) throw error;
        }
        await sleep(200);
      }
    };
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < MESSAGES) {
          const i = next++;
          acked.push(await publishOne(i));
          if (acked.length === 100 && !dispatcherKilledAt) {
            dispatcherKilledAt = Date.now();
            await cluster.dispatchers[0]!.kill();
          }
          if (acked.length === 200 && !nodeKilled) {
            nodeKilled = true;
            await cluster.channelNodes[0]!.kill();
          }
        }
      }),
    );
    assert.ok(dispatcherKilledAt && nodeKilled);
    const persisted = await cluster.db.pool.query<{ id: string }>(
      `select m.id from messages m join channels c on c.pk = m.channel_pk where c.environment_id = $1`,
      [env.environmentId],
    );
    const expected = new Set(persisted.rows.map((row) => row.id));
    for (const id of acked) assert.ok(expected.has(id), `acknowledged ${id} is persisted`);
    assert.equal(expected.size, MESSAGES, 'idempotent retries created no duplicates');

    await receiver.waitFor((received) => {
      const ids = new Set(received.map((r) => JSON.parse(r.raw.toString('utf8')).id));
      return [...expected].every((id) => ids.has(id));
    }, 'every persisted message');
    t.diagnostic(`every event arrived ${Date.now() - dispatcherKilledAt} ms after the dispatcher was killed`);
    const received = new Set(receiver.received.map((r) => JSON.parse(r.raw.toString('utf8')).id as string));
    assert.deepEqual(received, expected);
    // never sent twice at once by live dispatchers: a repeat starts after the earlier one was
    // answered (the lease fences the rest). The one exception is a send the killed dispatcher had
    // in flight (it arrived within the receiver's 50 ms answer before the kill, or just after):
    // nobody waits for its answer, and the new owner of a dead owner's partitions takes its
    // deliveries over at once
    const arrivals = new Map<string, number[]>();
    for (const r of receiver.received) {
      const id = JSON.parse(r.raw.toString('utf8')).id as string;
      (arrivals.get(id) ?? arrivals.set(id, []).get(id)!).push(r.at);
    }
    const repeats = [...arrivals.values()].filter((times) => times.length > 1);
    t.diagnostic(`${repeats.length} events were delivered more than once (at-least-once, after the crash)`);
    const inFlightAtKill = (at: number) => at >= dispatcherKilledAt - 250 && at <= dispatcherKilledAt + 250;
    for (const times of repeats) {
      const sorted = times.sort((x, y) => x - y);
      for (let i = 1; i < sorted.length; i++) {
        if (inFlightAtKill(sorted[i - 1]!)) continue;
        assert.ok(sorted[i]! - sorted[i - 1]! >= 50, `overlapping sends: ${sorted.join(', ')} (dispatcher killed at ${dispatcherKilledAt})`);
      }
    }
    // a delivery the killed dispatcher sent but did not record gets a job again once its lease
    // lapses (recovery's reconciler, every 10 s), so the ledger catches up within seconds; the
    // deadline is under the overdue backstop (WEBHOOK_STALE_AFTER, 60 s), so this fails if only
    // the backstop would find it
    await eventually(async () => (await deliveredCount(cluster.db.pool, env.environmentId)) === MESSAGES, {
      intervalMs: 250,
      timeoutMs: 30_000,
      what: 'every delivery recorded as delivered',
    });
    t.diagnostic(`every delivery recorded as delivered ${Date.now() - dispatcherKilledAt} ms after the dispatcher was killed`);
  });

  await t.test('a delivery in flight on a dispatcher killed with -9 is completed by another one', async (t) => {
    // only one dispatcher runs, so the one killed is the one holding the delivery
    await Promise.all(cluster.dispatchers.map((d) => d.kill()));
    const doomed = await cluster.start('dispatcher');
    const env = await cluster.createEnvironment('in-flight');
    const api = client(cluster.gateways[0]!.controlUrl, env.secretKey);
    const receiver = await startReceiver(t, (req) => (req.n === 1 ? 'hang' : { status: 200 }));
    assert.equal((await api.put('/v1/config', { webhooks: { url: receiver.url } })).status, 200);
    const event = publishedEvent(env.environmentId);
    await enqueue(cluster.db.pool, [event]);
    await receiver.waitFor((r) => r.length === 1, 'the first attempt');
    const killedAt = Date.now();
    await doomed.kill();
    await cluster.start('dispatcher');
    await receiver.waitFor((r) => r.length === 2, 'the attempt after the crash');
    const row = await eventually(async () => {
      const list = await api.get('/v1/webhooks/deliveries');
      return list.body.data[0]?.status === 'delivered' ? list.body.data[0] : undefined;
    });
    t.diagnostic(`delivered ${Date.parse(row.deliveredAt) - killedAt} ms after the kill (lease = timeout 2000 ms + 5000 ms)`);
    // the attempt that died with its dispatcher left no record; the one that succeeded did
    assert.equal(row.attempts, 1);
    assert.equal(JSON.parse(receiver.received[1]!.raw.toString('utf8')).id, event.eventId);
    const locked = await cluster.db.pool.query(
      `select count(*)::int as n from graphile_worker.jobs where locked_by is not null and locked_at < now() - interval '10 seconds'`,
    );
    assert.equal(locked.rows[0].n, 0, 'no job stays locked by the dead dispatcher');
  });
});
