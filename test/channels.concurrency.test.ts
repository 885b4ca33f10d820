import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client } from './helpers/http.ts';
import { FenceError, WebhookBelief, writeBatch, writesInOneStatement, type ChannelState } from '../apps/channel-node/src/commit-batch.ts';

interface Ack {
  channel: string;
  id: string;
  seq: number;
}

/** Every persisted message of the environment, by channel, in seq order. */
async function persisted(pool: import('@rtm/db').Pool, environmentId: string) {
  const { rows } = await pool.query<{ channel: string; id: string; seq: number; last_seq: number }>(
    `select c.id as channel, m.id, m.seq, c.last_seq from messages m join channels c on c.pk = m.channel_pk
     where c.environment_id = $1 order by c.id, m.seq`,
    [environmentId],
  );
  const byChannel = new Map<string, { ids: string[]; seqs: number[]; lastSeq: number }>();
  for (const row of rows) {
    const entry = byChannel.get(row.channel) ?? { ids: [], seqs: [], lastSeq: row.last_seq };
    entry.ids.push(row.id);
    entry.seqs.push(row.seq);
    byChannel.set(row.channel, entry);
  }
  return byChannel;
}

function assertExactlyOnceAndContiguous(acks: Ack[], stored: Awaited<ReturnType<typeof persisted>>) {
  for (const [channel, entry] of stored) {
    assert.deepEqual(
      entry.seqs,
      Array.from({ length: entry.seqs.length }, (_, i) => i + 1),
      `${channel}: seqs contiguous from 1`,
    );
    assert.equal(entry.lastSeq, entry.seqs.length, `${channel}: last_seq matches`);
    assert.equal(new Set(entry.ids).size, entry.ids.length, `${channel}: ids unique`);
  }
  const where = new Map<string, { channel: string; seq: number }>();
  for (const [channel, entry] of stored) entry.ids.forEach((id, i) => where.set(id, { channel, seq: entry.seqs[i]! }));
  for (const ack of acks) assert.deepEqual(where.get(ack.id), { channel: ack.channel, seq: ack.seq }, `acked ${ack.id} stored once`);
  assert.equal(new Set(acks.map((a) => a.id)).size, acks.length, 'no id acknowledged twice');
}

test('channels - concurrent publishers, a fenced writer, and failover when a channel-node is killed', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 2, env: { OWNER_TIMEOUT_MS: '2000', REBALANCE_MS: '250' } });
  const gw = cluster.gateways[0]!;

  await t.test('20 concurrent publishers on one channel: every ack stored once, seqs contiguous', async () => {
    const env = await cluster.createEnvironment();
    const control = client(gw.controlUrl, env.secretKey);
    const acks: Ack[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async (_, p) => {
        for (let i = 0; i < 25; i++) {
          const res = await control.post('/v1/channels/hot/messages', { content: { p, i } });
          assert.equal(res.status, 201, JSON.stringify(res.body));
          acks.push({ channel: 'hot', id: res.body.id, seq: res.body.seq });
        }
      }),
    );
    const stored = await persisted(cluster.db.pool, env.environmentId);
    assert.equal(stored.get('hot')!.seqs.length, 500);
    assertExactlyOnceAndContiguous(acks, stored);
  });

  await t.test('20 concurrent publishers on 200 channels: every ack stored once, seqs contiguous per channel', async () => {
    const env = await cluster.createEnvironment();
    const control = client(gw.controlUrl, env.secretKey);
    const acks: Ack[] = [];
    await Promise.all(
      Array.from({ length: 20 }, async (_, p) => {
        for (let i = 0; i < 60; i++) {
          const channel = `ch-${(p * 61 + i * 7) % 200}`;
          const res = await control.post(`/v1/channels/${channel}/messages`, { content: { p, i } });
          assert.equal(res.status, 201, JSON.stringify(res.body));
          acks.push({ channel, id: res.body.id, seq: res.body.seq });
        }
      }),
    );
    const stored = await persisted(cluster.db.pool, env.environmentId);
    assert.equal(stored.size, 200);
    assertExactlyOnceAndContiguous(acks, stored);
  });

  await t.test('a writer with a stale view of a channel is fenced off: nothing is written', async () => {
    const env = await cluster.createEnvironment();
    const control = client(gw.controlUrl, env.secretKey);
    await control.post('/v1/channels/fenced/messages', { content: { n: 1 } });
    const { rows } = await cluster.db.pool.query<{ pk: number }>('select pk from channels where environment_id = $1 and id = $2', [
      env.environmentId,
      'fenced',
    ]);
    // this writer believes last_seq is 0 (as an old owner would after another node moved on)
    const stale = new Map<string, ChannelState>([[`${env.environmentId}\u0000fenced`, { pk: rows[0]!.pk, lastSeq: 0 }]]);
    const pg = await cluster.db.pool.connect();
    try {
      await pg.query('begin');
      // (the fence's own error, not a key violation: the actor retries FenceErrors after a reload)
      await assert.rejects(
        writeBatch(
          pg,
          [
            {
              op: 'publish',
              environmentId: env.environmentId,
              channelId: 'fenced',
              type: 'message',
              kind: 'server',
              content: '{"stale":true}',
              sender: { id: 'x', anon: false },
              ephemeral: false,
            },
          ],
          stale,
          new WebhookBelief(),
        ),
        FenceError,
      );
    } finally {
      await pg.query('rollback');
      pg.release();
    }
    const after = await control.get('/v1/channels/fenced/history');
    assert.deepEqual(
      after.body.messages.map((m: any) => [m.seq, m.content]),
      [[1, { n: 1 }]],
    );
    assert.equal((await control.post('/v1/channels/fenced/messages', { content: { n: 2 } })).body.seq, 2);
  });

  await t.test('a batch written as one statement (no transaction) with one stale channel writes nothing on any channel', async () => {
    const env = await cluster.createEnvironment();
    const control = client(gw.controlUrl, env.secretKey);
    for (const id of ['fresh', 'moved']) await control.post(`/v1/channels/${id}/messages`, { content: { n: 1 } });
    const { rows } = await cluster.db.pool.query<{ id: string; pk: number; last_seq: number }>(
      'select id, pk, last_seq from channels where environment_id = $1 order by id',
      [env.environmentId],
    );
    const pkOf = (id: string) => rows.find((r) => r.id === id)!.pk;
    // right about `fresh` (last_seq 1), wrong about `moved` (believes 0): the fence matches one
    // channel of two, and that channel's advance must not survive the failed statement
    const view = new Map<string, ChannelState>([
      [`${env.environmentId}\u0000fresh`, { pk: pkOf('fresh'), lastSeq: 1 }],
      [`${env.environmentId}\u0000moved`, { pk: pkOf('moved'), lastSeq: 0 }],
    ]);
    const publish = (channelId: string) => ({
      op: 'publish' as const,
      environmentId: env.environmentId,
      channelId,
      type: 'message',
      kind: 'server' as const,
      content: '{"stale":true}',
      sender: { id: 'x', anon: false },
      ephemeral: false,
    });
    const commands = [publish('fresh'), publish('moved')];
    assert.equal(writesInOneStatement(commands, view), true);
    const pg = await cluster.db.pool.connect();
    try {
      await assert.rejects(writeBatch(pg, commands, view, new WebhookBelief()), FenceError);
    } finally {
      pg.release();
    }
    const { rows: now } = await cluster.db.pool.query<{ id: string; last_seq: number; stored: number }>(
      `select c.id, c.last_seq, (select count(*)::int from messages m where m.channel_pk = c.pk) as stored
       from channels c where environment_id = $1 order by id`,
      [env.environmentId],
    );
    assert.deepEqual(
      now.map((r) => [r.id, r.last_seq, r.stored]),
      [
        ['fresh', 1, 1],
        ['moved', 1, 1],
      ],
    );
    assert.equal((await control.post('/v1/channels/fresh/messages', { content: { n: 2 } })).body.seq, 2);
  });

  await t.test('a webhook set after the node learnt its environment had none: the next publish still records a delivery', async () => {
    const env = await cluster.createEnvironment();
    const control = client(gw.controlUrl, env.secretKey);
    // through the running node: it learns this environment has no webhook
    assert.equal((await control.post('/v1/channels/late-hook/messages', { content: { n: 1 } })).status, 201);
    await cluster.db.pool.query("update environments set webhook_url = 'https://hooks.example.com/in' where id = $1", [env.environmentId]);
    assert.equal((await control.post('/v1/channels/late-hook/messages', { content: { n: 2 } })).status, 201);
    const { rows } = await cluster.db.pool.query<{ body: string }>('select body from webhook_ledger where environment_id = $1', [env.environmentId]);
    assert.deepEqual(
      rows.map((r) => JSON.parse(r.body).data.content),
      [{ n: 2 }],
    );

    // the same, on writeBatch directly: a belief out of date fails the statement, then is dropped
    const { rows: channel } = await cluster.db.pool.query<{ pk: number }>('select pk from channels where environment_id = $1', [env.environmentId]);
    const belief = new WebhookBelief();
    belief.learn([env.environmentId], []);
    const view = new Map<string, ChannelState>([[`${env.environmentId}\u0000late-hook`, { pk: channel[0]!.pk, lastSeq: 2 }]]);
    const command = {
      op: 'publish' as const,
      environmentId: env.environmentId,
      channelId: 'late-hook',
      type: 'message',
      kind: 'server' as const,
      content: '{"n":3}',
      sender: { id: 'x', anon: false },
      ephemeral: false,
    };
    const pg = await cluster.db.pool.connect();
    let written: Awaited<ReturnType<typeof writeBatch>> | undefined;
    try {
      await assert.rejects(writeBatch(pg, [command], view, belief), FenceError);
      assert.equal(belief.hookless(env.environmentId), false);
      written = await writeBatch(pg, [command], view, belief);
    } finally {
      pg.release();
    }
    const { rows: after } = await cluster.db.pool.query<{ body: string }>('select body from webhook_ledger where environment_id = $1 order by id', [
      env.environmentId,
    ]);
    assert.deepEqual(
      after.map((r) => JSON.parse(r.body).data.content).sort((a, b) => a.n - b.n),
      [{ n: 2 }, { n: 3 }],
    );
    // the delivery has no job: it is in the outcome, row and all, for the post-commit notice to
    // the dispatchers (a row of the delivery log: its position, no lease)
    const { rows: recorded } = await cluster.db.pool.query<{ id: string; body: string; tx: string; created_at: string }>(
      'select id, body, tx::text as tx, created_at::text as created_at from webhook_log where environment_id = $1',
      [env.environmentId],
    );
    const third = recorded.find((r) => JSON.parse(r.body).data.content.n === 3)!;
    assert.equal(written?.deliveries?.length, 1);
    const [delivery] = written!.deliveries!;
    assert.deepEqual([delivery!.id, delivery!.environmentId], [third.id, env.environmentId]);
    assert.deepEqual(delivery!.pushed?.logged, { tx: third.tx, createdAt: third.created_at });
    assert.equal(delivery!.pushed?.body, third.body);
  });

  await t.test('kill -9 of one of two channel-nodes under load: acks persisted once, seqs contiguous, publishing resumes', async () => {
    const env = await cluster.createEnvironment();
    const control = client(gw.controlUrl, env.secretKey);
    const channels = Array.from({ length: 32 }, (_, i) => `fo-${i}`);
    const acks: Ack[] = [];
    const statuses = new Map<number, number>();
    const successAt = new Map<string, number[]>();
    let killedAt = 0;
    let stop = false;
    const afterKill = () => (killedAt ? channels.filter((c) => (successAt.get(c) ?? []).some((at) => at > killedAt)).length : 0);
    const workers = Array.from({ length: 16 }, async (_, w) => {
      for (let i = 0; !stop; i++) {
        const channel = channels[(w * 5 + i) % channels.length]!;
        const res = await control.post(`/v1/channels/${channel}/messages`, { content: { w, i } });
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 201) {
          acks.push({ channel, id: res.body.id, seq: res.body.seq });
          (successAt.get(channel) ?? successAt.set(channel, []).get(channel)!).push(Date.now());
        } else {
          assert.equal(res.status, 503, JSON.stringify(res.body));
          assert.equal(res.body.code, 'unavailable');
        }
      }
    });
    // load first, then the crash, then keep going until every channel has published again
    while (acks.length < 400) await new Promise((resolve) => setTimeout(resolve, 10));
    killedAt = Date.now();
    await cluster.channelNodes[0]!.kill();
    const deadline = Date.now() + 20_000;
    while (afterKill() < channels.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    const recovered = Date.now();
    const ackedAfterKill = acks.length;
    while (acks.length < ackedAfterKill + 200) await new Promise((resolve) => setTimeout(resolve, 10));
    stop = true;
    await Promise.all(workers);
    assert.equal(afterKill(), channels.length, 'every channel publishes again after the crash');
    const firstAfter = channels.map((c) => Math.min(...successAt.get(c)!.filter((at) => at > killedAt)));
    t.diagnostic(
      `failover: all ${channels.length} channels publishing again ${recovered - killedAt} ms after kill -9 ` +
        `(slowest channel's first ack ${Math.max(...firstAfter) - killedAt} ms); statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    const stored = await persisted(cluster.db.pool, env.environmentId);
    assertExactlyOnceAndContiguous(acks, stored);
  });
});
