import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster, type RunningProcess } from './helpers/cluster.ts';
import { client, request } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';
import { startReceiver } from './helpers/webhook-receiver.ts';
import { metricsOf, type ProcessKind } from '@rtm/ops';
import { familyLabels, isDefaultMetric, metricFamilies, sampleValue } from './helpers/metrics-catalogue.ts';

const PARTITIONS = 4;

const scrape = async (proc: RunningProcess) => {
  const res = await fetch(`${proc.internalUrl}/internal/metrics`);
  assert.equal(res.status, 200);
  return res.text();
};

test('metrics - what the alerts and the dashboard read is exported, and the catalogue lists every metric', async (t) => {
  // one retry a second after the first attempt: a failing endpoint's delivery is dropped soon
  const cluster = await startCluster(t, { channelNodes: 1, dispatchers: 1, env: { WEBHOOK_RETRY_SCHEDULE: '1s', PARTITIONS: String(PARTITIONS) } });
  const [gateway, node, dispatcher] = [cluster.gateways[0]!, cluster.channelNodes[0]!, cluster.dispatchers[0]!];
  const byKind: Record<ProcessKind, RunningProcess> = { gateway, 'channel-node': node, dispatcher };

  await t.test('each process exports exactly its metrics of the catalogue (libs/ops/src/metrics-catalogue.ts), with their labels', async () => {
    for (const kind of Object.keys(byKind) as ProcessKind[]) {
      const text = await scrape(byKind[kind]);
      const exported = metricFamilies(text);
      const own = [...exported].filter(([name]) => !isDefaultMetric(name));
      const listed = metricsOf(kind);
      assert.deepEqual(
        listed.map((row) => `${row.name} ${row.type}`).sort(),
        own.map(([name, type]) => `${name} ${type}`).sort(),
        `the ${kind}'s metrics and the catalogue's entries for it differ`,
      );
      assert.ok([...exported.keys()].some(isDefaultMetric), 'the default process metrics are exported too');
      // every series: the registry's node and kind, a histogram's le, and the entry's own labels
      const labels = familyLabels(text);
      for (const row of listed) {
        const allowed = new Set(['node', 'kind', 'le', ...row.labels]);
        const extra = [...(labels.get(row.name) ?? [])].filter((label) => !allowed.has(label));
        assert.deepEqual(extra, [], `${row.name} on the ${kind}: labels the catalogue does not list`);
      }
    }
  });

  await t.test('channel_partitions_owned sums to channel_partitions when every partition has an owner', async () => {
    await eventually('the node owns every partition', async () => sampleValue(await scrape(node), 'channel_partitions_owned') === PARTITIONS);
    assert.equal(sampleValue(await scrape(node), 'channel_partitions'), PARTITIONS);
    // a second node takes a share: the sum stays, each holds part
    const second = await cluster.start('channel-node');
    await eventually('the partitions are spread over both nodes', async () => {
      const [a, b] = [sampleValue(await scrape(node), 'channel_partitions_owned'), sampleValue(await scrape(second), 'channel_partitions_owned')];
      return a! > 0 && b! > 0 && a! + b! === PARTITIONS;
    });
    await second.stop();
    await eventually('the first node owns every partition again', async () => sampleValue(await scrape(node), 'channel_partitions_owned') === PARTITIONS);
  });

  const env = await cluster.createEnvironment();
  const api = client(gateway.controlUrl, env.secretKey);
  const receiver = await startReceiver(t, () => ({ status: 500 }));

  await t.test('gateway_publish_seconds counts publishes by sender and outcome', async () => {
    const before = sampleValue(await scrape(gateway), 'gateway_publish_seconds_count', { sender: 'server', outcome: 'ok' }) ?? 0;
    assert.equal((await api.post('/v1/channels/room-1/messages', { content: { text: 'one' } })).status, 201);
    assert.equal((await api.post('/v1/channels/room-1/messages', { content: { text: 'two' } })).status, 201);
    assert.equal(sampleValue(await scrape(gateway), 'gateway_publish_seconds_count', { sender: 'server', outcome: 'ok' }), before + 2);
  });

  await t.test('webhook_dropped_total counts a delivery whose retry schedule is used up', async () => {
    assert.equal(sampleValue(await scrape(dispatcher), 'webhook_dropped_total'), 0);
    assert.equal((await api.put('/v1/config', { webhooks: { url: receiver.url } })).status, 200);
    assert.equal((await api.post('/v1/channels/room-2/messages', { content: { text: 'to a failing endpoint' } })).status, 201);
    await eventually('the delivery is dropped and counted', async () => sampleValue(await scrape(dispatcher), 'webhook_dropped_total') === 1);
    const rows = await cluster.db.pool.query(`select status from webhook_deliveries`);
    assert.deepEqual(
      rows.rows.map((r) => r.status),
      ['dropped'],
    );
  });

  await t.test('webhook_backlog_oldest_seconds is the age of the oldest due delivery, 0 when none waits', async () => {
    assert.equal(sampleValue(await scrape(dispatcher), 'webhook_backlog_oldest_seconds'), 0);
    // a delivery due an hour ago that nobody could deliver yet (leased by a dispatcher that died)
    await cluster.db.pool.query(
      `update webhook_deliveries set status = 'pending', next_attempt_at = now() - interval '1 hour', locked_until = now() + interval '1 hour'`,
    );
    const age = sampleValue(await scrape(dispatcher), 'webhook_backlog_oldest_seconds')!;
    assert.ok(age >= 3600 && age < 3700, `backlog age ${age}`);
  });

  await t.test('answers are counted in http_request_duration_seconds by status (what the 5xx alert reads)', async () => {
    const res = await request(gateway.realtimeUrl, 'GET', '/v1/me');
    assert.equal(res.status, 401);
    assert.ok(sampleValue(await scrape(gateway), 'http_request_duration_seconds_count', { status: '401' })! >= 1);
  });
});
