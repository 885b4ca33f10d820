import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type NatsConnection } from 'nats';
import { PART_STATUS, decodeBundleReply, decodeJson, encodeBundle, encodeText, partitionOf, subjects as subjectsOf, type OwnerAnnouncement } from '@rtm/bus';
import { startCluster } from './helpers/cluster.ts';
import { client } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';
import { metricTotal } from './helpers/metrics.ts';

const PARTITIONS = 32;
const bundles = (internalUrl: string) => metricTotal(internalUrl, /^gateway_owner_requests_total\{[^}]*route="node"[^}]*\} (\d+)/);
const parts = (internalUrl: string, route: string) =>
  metricTotal(internalUrl, new RegExp(`^channel_bundle_parts_total\\{[^}]*route="${route}"[^}]*\\} (\\d+)`));

/** The channel-nodes' latest announcements, as gateways hear them. */
async function listenToOwners(nc: NatsConnection, prefix: string) {
  const latest = new Map<string, OwnerAnnouncement>();
  nc.subscribe(subjectsOf(prefix).owners, {
    callback: (error, msg) => error || latest.set(decodeJson<OwnerAnnouncement>(msg.data).node, decodeJson(msg.data)),
  });
  await nc.flush();
  nc.publish(subjectsOf(prefix).ownersQuery);
  return latest;
}

test("channels - node bundles: a turn's commands for one node travel in one message, parts for partitions a node does not own are forwarded", async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 2, env: { REBALANCE_MS: '200' } });
  const env = await cluster.createEnvironment();
  const gw = cluster.gateways[0]!;
  const control = client(gw.controlUrl, env.secretKey);
  const nc = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' });
  t.after(() => nc.close());
  const owners = await listenToOwners(nc, cluster.prefix);
  // both nodes own a share, and the gateway has heard it (its next announcement is ≤ 5 s away)
  await eventually(
    async () =>
      owners.size === 2 &&
      [...owners.values()].every((a) => a.partitions.length > 0) &&
      [...owners.values()].reduce((n, a) => n + a.partitions.length, 0) === PARTITIONS,
    { timeoutMs: 30_000, what: 'the partitions shared by the two nodes' },
  );

  await t.test('a batch over many channels: every message committed in request order, in bundles both nodes answered', async () => {
    await eventually(
      async () => {
        const res = await control.post('/v1/messages/batch', {
          messages: [
            { channelId: 'warm', content: {} },
            { channelId: 'warm-2', content: {} },
          ],
        });
        return res.status === 200 && (await bundles(gw.internalUrl)) > 0;
      },
      { timeoutMs: 15_000, what: 'the gateway bundling per node' },
    );
    const before = await bundles(gw.internalUrl);
    const channels = Array.from({ length: 50 }, (_, i) => `bundle-${i}`);
    const messages = channels.flatMap((channelId) => [0, 1].map((n) => ({ channelId, content: { n } })));
    const res = await control.post('/v1/messages/batch', { messages });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const results = res.body.results as { seq?: number; error?: unknown }[];
    results.forEach((result, i) => assert.equal(result.seq, (i % 2) + 1, JSON.stringify(result)));
    // 100 commands over ~32 partitions on 2 nodes: a handful of bus messages, not one per partition
    const used = (await bundles(gw.internalUrl)) - before;
    assert.ok(used >= 1 && used <= 4, `${used} bundles`);
    for (const node of cluster.channelNodes) assert.ok((await parts(node.internalUrl, 'local')) > 0);
    const { rows } = await cluster.db.pool.query<{ id: string; content: { n: number }; seq: number }>(
      `select c.id, m.content, m.seq from messages m join channels c on c.pk = m.channel_pk where c.id like 'bundle-%' order by c.id, m.seq`,
    );
    assert.equal(rows.length, 100);
    for (const row of rows) assert.equal(row.content.n, row.seq - 1, row.id);
  });

  await t.test('a part sent to a node that does not own its partition is forwarded to the owner and answered', async () => {
    const [a, b] = [...owners.values()];
    const channelId = Array.from({ length: 500 }, (_, i) => `stray-${i}`).find((c) => b!.partitions.includes(partitionOf(env.environmentId, c, PARTITIONS)))!;
    const partition = partitionOf(env.environmentId, channelId, PARTITIONS);
    const command = {
      op: 'publish',
      environmentId: env.environmentId,
      channelId,
      type: 'message',
      kind: 'server',
      content: { via: 'a' },
      sender: { id: 'server', anon: false },
      ephemeral: false,
    };
    const forwardedBefore = await Promise.all(cluster.channelNodes.map((node) => parts(node.internalUrl, 'forwarded')));
    const reply = await nc.request(subjectsOf(cluster.prefix).node(a!.node), encodeBundle([{ partition, data: encodeText(JSON.stringify(command)) }]), {
      timeout: 5_000,
    });
    const [part] = decodeBundleReply(reply.data);
    assert.equal(part!.status, PART_STATUS.ANSWERED);
    const answer = decodeJson<{ ok: boolean; result: { seq: number } }>(part!.data);
    assert.equal(answer.ok, true, JSON.stringify(answer));
    assert.equal(answer.result.seq, 1);
    const forwardedAfter = await Promise.all(cluster.channelNodes.map((node) => parts(node.internalUrl, 'forwarded')));
    assert.equal(forwardedAfter.reduce((x, y) => x + y, 0) - forwardedBefore.reduce((x, y) => x + y, 0), 1);
    // the channel's history has it once
    const history = await control.get(`/v1/channels/${channelId}/history`);
    assert.deepEqual(
      history.body.messages.map((m: { content: unknown }) => m.content),
      [{ via: 'a' }],
    );
  });

  await t.test('a malformed bundle is answered with an error, and the node goes on', async () => {
    const [a] = [...owners.values()];
    const reply = await nc.request(subjectsOf(cluster.prefix).node(a!.node), new Uint8Array([0xb1, 0, 1, 0]), { timeout: 5_000 });
    assert.equal(decodeJson<{ code: string }>(reply.data).code, 'invalid_request');
    assert.equal((await control.post('/v1/channels/after-junk/messages', { content: {} })).status, 201);
  });

  await t.test('a node killed: the gateway stops bundling to it and every channel is served by the survivor', async () => {
    const victim = cluster.channelNodes[0]!;
    await victim.kill();
    await eventually(
      async () => {
        const results = await Promise.all(
          Array.from({ length: 40 }, (_, i) => control.post(`/v1/channels/after-kill-${i}/messages`, { content: { i }, idempotencyKey: `k-${i}` })),
        );
        return results.every((res) => res.status === 201);
      },
      { timeoutMs: 30_000, what: 'every channel served after the kill' },
    );
  });
});
