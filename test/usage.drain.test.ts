/**
 * Usage after failures (docs/stats.md): a flush whose answer was lost and is written again adds
 * nothing; a gateway and a channel-node killed with SIGKILL mid-traffic lose at most what they
 * had not flushed, and nothing is counted twice (the counts stay at or under the messages
 * committed, read from the messages table).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UsageFlusher, UsageMeter, type Queryable } from '@rtm/usage';
import { createTestDatabase } from './helpers/database.ts';
import { startCluster } from './helpers/cluster.ts';
import { client } from './helpers/http.ts';
import { eventually } from './helpers/eventually.ts';
import { readUsageTotals } from './helpers/usage.ts';

test('usage - a flush repeated after its answer was lost adds nothing', async (t) => {
  const db = await createTestDatabase(t);
  const meter = new UsageMeter();
  meter.add('env_lost', 'messages_published_http', 7);
  meter.channel('env_lost', 'room');
  // the statement commits, then the answer is lost: the flusher cannot tell it happened
  let lose = true;
  const flaky: Queryable = {
    query: async (text, values) => {
      const result = await db.pool.query(text, values);
      if (lose) throw new Error('connection lost after the commit');
      return result;
    },
  };
  const outcomes: string[] = [];
  const flusher = new UsageFlusher({
    db: flaky,
    meter,
    flushMs: 60_000,
    source: 'lost-answer',
    flushes: { inc: ({ outcome }) => void outcomes.push(outcome) },
  });
  assert.equal(await flusher.flush(), false);
  assert.equal((await readUsageTotals(db.pool, 'env_lost')).messages_published_http, 7, 'it had committed');
  lose = false;
  meter.add('env_lost', 'messages_published_http', 1);
  assert.equal(await flusher.flush(), true, 'the same flush again');
  assert.equal((await readUsageTotals(db.pool, 'env_lost')).messages_published_http, 7, 'the repeat added nothing');
  assert.equal(await flusher.flush(), true, 'then the counts made meanwhile');
  const totals = await readUsageTotals(db.pool, 'env_lost');
  assert.equal(totals.messages_published_http, 8);
  assert.equal(totals.channels_active, 1);
  assert.deepEqual(outcomes, ['failed', 'repeated', 'written']);
  const { rows } = await db.pool.query(`select flush from usage_flushes where source = 'lost-answer' order by flush`);
  assert.deepEqual(
    rows.map((r) => Number(r.flush)),
    [1, 2],
  );
});

test('usage - kill -9 of a gateway and a channel-node mid-traffic: nothing counted twice, at most the unflushed lost', async (t) => {
  const FLUSH_MS = 1_000;
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 2, env: { USAGE_FLUSH_MS: String(FLUSH_MS), PARTITIONS: '16' } });
  const env = await cluster.createEnvironment();
  const apis = cluster.gateways.map((g) => client(g.controlUrl, env.secretKey));
  let running = true;
  let answered = 0;
  // publishers over both gateways and many channels (both nodes own some); errors while a process
  // is gone are expected, the client's retry with the same key must not count twice
  const publishers = Array.from({ length: 4 }, (_, p) =>
    (async () => {
      for (let n = 0; running; n++) {
        const body = { content: { p, n }, idempotencyKey: `k-${p}-${n}` };
        for (let attempt = 0; attempt < 3 && running; attempt++) {
          const res = await apis[(p + attempt) % 2]!.post(`/v1/channels/c.${(p * 7 + n) % 12}/messages`, body).catch(() => undefined);
          if (res?.status === 201) {
            answered += 1;
            break;
          }
        }
      }
    })(),
  );
  await eventually('traffic', async () => answered >= 60);
  const killedAt = Date.now();
  await Promise.all([cluster.gateways[1]!.kill(), cluster.channelNodes[1]!.kill()]);
  const after = answered;
  await eventually('traffic after the kill', async () => answered >= after + 60, 60_000);
  running = false;
  await Promise.all(publishers);

  const committed = async (where = 'true') => {
    const { rows } = await cluster.db.pool.query(
      `select count(*)::int as n from messages m join channels c on c.pk = m.channel_pk where c.environment_id = $1 and ${where}`,
      [env.environmentId],
    );
    return rows[0].n as number;
  };
  const truth = await committed();
  // what the killed node may have committed and not flushed: its last flush period (and a margin)
  const unflushable = await committed(`m.ts between ${killedAt - FLUSH_MS - 2_000} and ${killedAt + 2_000}`);
  let counted = 0;
  await eventually(
    async () => {
      counted = (await readUsageTotals(cluster.db.pool, env.environmentId)).messages_published_http;
      return counted >= truth - unflushable;
    },
    { what: `counted ${counted} of ${truth} (at most ${unflushable} lost)`, timeoutMs: 30_000 },
  );
  await new Promise((resolve) => setTimeout(resolve, FLUSH_MS * 3));
  counted = (await readUsageTotals(cluster.db.pool, env.environmentId)).messages_published_http;
  assert.ok(counted <= truth, `never more than committed: counted ${counted}, committed ${truth}`);
  assert.ok(counted >= truth - unflushable, `at most the unflushed lost: counted ${counted}, committed ${truth}, at risk ${unflushable}`);
  const { rows } = await cluster.db.pool.query(`select count(*)::int as n from usage_flushes`);
  assert.ok(rows[0].n > 0);
});
