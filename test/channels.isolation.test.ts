import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connectBus, decodeJson, partitionOf, subjects } from '@rtm/bus';
import { encodeCommand, frameRequest, type ChannelCommand, type CommandReply } from '@rtm/schemas';
import { startCluster } from './helpers/cluster.ts';
import { eventually } from './helpers/eventually.ts';
import { client, errorCode } from './helpers/http.ts';
import { serverPublish } from './helpers/commands.ts';

const PARTITIONS = 32;

/** `count` channel ids of `environmentId` that hash to `partition`. */
function channelsIn(environmentId: string, partition: number, prefix: string, count: number): string[] {
  const found: string[] = [];
  for (let i = 0; found.length < count; i++) {
    if (partitionOf(environmentId, `${prefix}-${i}`, PARTITIONS) === partition) found.push(`${prefix}-${i}`);
  }
  return found;
}

test("channels isolation - a command that fails a merged commit fails alone; every other environment's commands commit with contiguous seqs", async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1, env: { PARTITIONS: String(PARTITIONS) } });
  const [envA, envB] = [await cluster.createEnvironment(), await cluster.createEnvironment()];
  const controlA = client(cluster.gateways[0]!.controlUrl, envA.secretKey);
  const nc = await connectBus(cluster.env.NATS_URL!, 'isolation-test');
  t.after(() => nc.close());
  const bus = subjects(cluster.prefix);

  // every command below goes to the owner of one partition, as a gateway (buggy or hostile) would send it
  const partition = partitionOf(envA.environmentId, 'gate', PARTITIONS);
  const send = async (command: ChannelCommand): Promise<CommandReply> => {
    assert.equal(partitionOf(command.environmentId, command.channelId, PARTITIONS), partition);
    const msg = await nc.request(bus.partition(partition), frameRequest([encodeCommand(command)]), { timeout: 20_000 });
    return decodeJson<CommandReply>(msg.data);
  };
  const publish = serverPublish;

  // hold the partition's actor in a commit, so everything sent meanwhile meets in its next batch
  assert.equal((await controlA.post('/v1/channels/gate/messages', { content: { n: 'gate' } })).status, 201);
  const holder = await cluster.db.pool.connect();
  await holder.query('begin');
  await holder.query('select 1 from channels where environment_id = $1 and id = $2 for update', [envA.environmentId, 'gate']);
  const gate = send(publish(envA.environmentId, 'gate', -1));
  await eventually('the gate commit waits on the held row', async () => {
    const { rows } = await cluster.db.pool.query<{ n: number }>('select count(*)::int as n from pg_locks where not granted');
    return rows[0]!.n > 0;
  });

  const channelsA = channelsIn(envA.environmentId, partition, 'a', 3);
  const channelsB = channelsIn(envB.environmentId, partition, 'b', 3);
  const good: { environmentId: string; channelId: string; n: number }[] = [];
  for (let n = 0; n < 12; n++) {
    good.push({ environmentId: envA.environmentId, channelId: channelsA[n % 3]!, n });
    good.push({ environmentId: envB.environmentId, channelId: channelsB[n % 3]!, n: 100 + n });
  }
  // passes every check but fails in Postgres: its environment does not exist (a foreign key)
  const ghost = 'env_0000000000000000000000ghost';
  const failing = publish(ghost, channelsIn(ghost, partition, 'g', 1)[0]!, -2);
  // refused before any commit: a NUL byte in a message id (Postgres text cannot hold it)
  const nul: ChannelCommand = { op: 'retract', environmentId: envB.environmentId, channelId: channelsB[0]!, messageId: 'a\u0000b' };
  const goodReplies = good.map((g) => send(publish(g.environmentId, g.channelId, g.n)));
  const failingReply = send(failing);
  const nulReply = send(nul);
  await nc.flush();
  await holder.query('commit');
  holder.release();
  assert.ok((await gate).ok);

  const failed = await failingReply;
  assert.equal(failed.ok, false);
  assert.equal(!failed.ok && failed.code, 'invalid_request');
  const refused = await nulReply;
  assert.equal(!refused.ok && refused.code, 'invalid_request');

  // every good command committed exactly once, seqs contiguous per channel in sending order
  const replies = await Promise.all(goodReplies);
  for (const [i, reply] of replies.entries()) assert.ok(reply.ok, `command ${i}: ${JSON.stringify(reply)}`);
  for (const environmentId of [envA.environmentId, envB.environmentId]) {
    const { rows } = await cluster.db.pool.query<{ channel: string; seq: number; n: number }>(
      `select c.id as channel, m.seq, (m.content->>'n')::int as n from messages m join channels c on c.pk = m.channel_pk
       where c.environment_id = $1 and c.id <> 'gate' order by c.id, m.seq`,
      [environmentId],
    );
    const sent = good.filter((g) => g.environmentId === environmentId);
    assert.equal(rows.length, sent.length);
    for (const channelId of new Set(sent.map((g) => g.channelId))) {
      const stored = rows.filter((r) => r.channel === channelId);
      assert.deepEqual(
        stored.map((r) => r.seq),
        stored.map((_, i) => i + 1),
        channelId,
      );
      assert.deepEqual(
        stored.map((r) => r.n),
        sent.filter((g) => g.channelId === channelId).map((g) => g.n),
        channelId,
      );
    }
  }
  for (const [i, reply] of replies.entries()) {
    const { rows } = await cluster.db.pool.query('select 1 from messages where id = $1', [reply.ok ? reply.result.id : '']);
    assert.equal(rows.length, 1, `command ${i}'s reply names its stored message`);
  }
  const { rows: ghosts } = await cluster.db.pool.query('select 1 from channels where environment_id = $1', [ghost]);
  assert.equal(ghosts.length, 0);

  // the failing command met the others in one commit, and was isolated from them
  const metrics = await (await fetch(`${cluster.channelNodes[0]!.internalUrl}/internal/metrics`)).text();
  assert.match(metrics, /channel_commit_isolation_total\{[^}]*event="failed_alone"[^}]*\} 1\n/);

  // the same through the public interface: a retraction of an id with NUL is a 400, not a 500
  const res = await controlA.delete(`/v1/channels/${channelsA[0]}/messages/a%00b`);
  assert.equal(res.status, 400);
  assert.equal(errorCode(res), 'invalid_request');
});
