import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, JSONCodec } from 'nats';
import { partitionOf, subjects } from '@rtm/bus';
import { startCluster } from './helpers/cluster.ts';
import { request } from './helpers/http.ts';

const json = JSONCodec();

/** Contiguous 1..n seqs for every channel of an environment. */
async function assertContiguous(pool: { query: Function }, environmentId: string): Promise<number> {
  const { rows } = await pool.query(
    `select c.id, array_agg(m.seq order by m.seq) as seqs from messages m join channels c on c.pk = m.channel_pk
     where c.environment_id = $1 group by c.id`,
    [environmentId],
  );
  let total = 0;
  for (const row of rows as { id: string; seqs: number[] }[]) {
    assert.deepEqual(row.seqs.map(Number), row.seqs.map((_, i) => i + 1), `channel ${row.id}`);
    total += row.seqs.length;
  }
  return total;
}

test('isolation - one bad command never fails another: refused at the owner, or bisected out of the merged commit', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1, env: { PARTITIONS: '4' } });
  const gateway = cluster.gateways[0]!;
  const [a, b] = [await cluster.createEnvironment('a'), await cluster.createEnvironment('b')];

  /** Publishes `count` good messages per environment over 8 channels, all at once. */
  const goodBurst = (count: number, tag: string) =>
    Promise.all(
      [a, b].flatMap((env) =>
        Array.from({ length: count }, (_, i) =>
          request(gateway.controlUrl, 'POST', `/v1/channels/${tag}-${i % 8}/messages`, { token: env.secretKey, body: { content: { i } } }),
        ),
      ),
    );

  await t.test('a command sent straight over NATS that Postgres would refuse gets invalid_request alone', async () => {
    const nc = await connect({ servers: cluster.env.NATS_URL });
    t.after(() => nc.close());
    const subject = subjects(cluster.prefix).partition(partitionOf(a.environmentId, 'raw-0', 4));
    const bad = [
      { op: 'retract', environmentId: a.environmentId, channelId: 'raw-0', messageId: 'a\u0000b' },
      { op: 'publish', environmentId: a.environmentId, channelId: 'raw-0', type: 'x\u0000', kind: 'user', content: {}, sender: { id: 'u', anon: false }, ephemeral: false },
    ];
    const [replies, results] = await Promise.all([
      Promise.all(bad.map((command) => nc.request(subject, json.encode(command), { timeout: 5_000 }).then((m) => json.decode(m.data) as any))),
      goodBurst(40, 'raw'),
    ]);
    for (const reply of replies) {
      assert.equal(reply.ok, false);
      assert.equal(reply.code, 'invalid_request');
    }
    assert.deepEqual(results.map((r) => r.status).filter((s) => s !== 201), []);
  });

  await t.test('a statement that fails inside a merged transaction fails only its own command', async () => {
    // an unexpected failure, injected in Postgres itself: a trigger refusing one marked message
    await cluster.db.pool.query(`
      create function refuse_marked() returns trigger language plpgsql as $$
      begin
        if new.content::text like '%"explode"%' then raise exception 'injected statement failure'; end if;
        return new;
      end $$;
      create trigger refuse_marked before insert on messages for each row execute function refuse_marked();`);
    const poisoned = Array.from({ length: 3 }, (_, i) =>
      request(gateway.controlUrl, 'POST', `/v1/channels/mixed-${i}/messages`, { token: a.secretKey, body: { content: { explode: true } } }),
    );
    const [bad, good] = await Promise.all([Promise.all(poisoned), goodBurst(60, 'mixed')]);
    for (const res of bad) {
      assert.equal(res.status, 500);
      assert.equal(res.body.code, 'internal');
    }
    assert.deepEqual(good.map((r) => r.status).filter((s) => s !== 201), [], 'every good publish committed');
    // every good message of both environments is stored once, with contiguous seqs per channel
    assert.equal(await assertContiguous(cluster.db.pool, a.environmentId), 40 + 60);
    assert.equal(await assertContiguous(cluster.db.pool, b.environmentId), 40 + 60);
    // and the channels keep working afterwards
    const after = await request(gateway.controlUrl, 'POST', '/v1/channels/mixed-0/messages', { token: a.secretKey, body: { content: { later: 1 } } });
    assert.equal(after.status, 201);
  });
});
