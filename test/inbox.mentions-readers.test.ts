import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode, mintToken } from './helpers/http.ts';
import { openSocket } from './helpers/ws.ts';

/**
 * Mentions notify only users who may read the channel when the message commits (access,
 * membership, bans, `to`), on every way to publish; the others are dropped without a word to the
 * sender. Every publish path ends in the channel-node's commit, which decides.
 */
test('inbox - mentions reach only readers of the channel: members-only channels, bans, namespaces, `to`, every publish path', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1 });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  const control = client(gw.controlUrl, env.secretKey);
  const pool = cluster.db.pool;

  // `club` is members-only by its own setting, `staff:1` by its namespace; `lobby` is open
  assert.equal((await control.put('/v1/config', { namespaces: [{ prefix: 'staff:', access: 'members' }] })).status, 200);
  assert.equal((await control.put('/v1/channels/club', { access: 'members' })).status, 200);
  for (const user of ['ann', 'mal', 'bob', 'dan']) {
    for (const channel of ['club', 'staff:1']) assert.equal((await control.put(`/v1/channels/${channel}/members/${user}`, {})).status < 300, true);
  }
  // bob is banned from the club, dan from the whole environment (both remain members)
  assert.equal((await control.put('/v1/channels/club/bans/bob', { reason: 'spam' })).status < 300, true);
  assert.equal((await control.put('/v1/bans/dan', {})).status < 300, true);

  const rowsOf = async (userId: string) =>
    (
      await pool.query<{ channel: string }>(
        `select payload ->> 'channelId' as channel from notifications where environment_id = $1 and user_id = $2 and type = 'mention' order by id`,
        [env.environmentId, userId],
      )
    ).rows.map((r) => r.channel);

  const [mal, eve, zed, ann] = await Promise.all(['mal', 'eve', 'zed', 'ann'].map((u) => mintToken(gw.controlUrl, env.secretKey, u)));
  // zed (not a member of anything) listens on his inbox: a dropped mention must not reach him live either
  const zedInbox = openSocket(gw.realtimeUrl, `/inbox?token=${zed}`);
  const annInbox = openSocket(gw.realtimeUrl, `/inbox?token=${ann}`);
  await Promise.all([zedInbox, annInbox].map((s) => s.waitFor('ready', (f) => f.op === 'ready')));

  const everyone = ['ann', 'bob', 'dan', 'zed', 'eve', 'mal'];

  // 1. a member's HTTP publish in the members-only channel: readers only (ann, and mal himself)
  const asMal = client(gw.realtimeUrl, mal);
  const posted = await asMal.post('/v1/channels/club/messages', { content: { text: 'hi all' }, mentions: everyone });
  assert.equal(posted.status, 201, JSON.stringify(posted.body));
  // the sender is told nothing about who was notified
  assert.deepEqual(Object.keys(posted.body).sort(), ['id', 'seq', 'timestamp']);

  // 2. the channel's access comes from its namespace: same rule
  assert.equal((await asMal.post('/v1/channels/staff:1/messages', { content: {}, mentions: everyone })).status, 201);

  // 3. the secret key's publish and batch, on the control plane: the rule is the channel's, whoever sends
  assert.equal((await control.post('/v1/channels/club/messages', { content: {}, mentions: ['zed', 'ann'] })).status, 201);
  const batch = await control.post('/v1/messages/batch', {
    messages: [
      { channelId: 'club', content: {}, mentions: ['eve', 'bob'] },
      { channelId: 'lobby', content: {}, mentions: ['zed'] },
    ],
  });
  assert.equal(batch.status, 200, JSON.stringify(batch.body));

  // 4. a stranger can publish only where anyone may: an open channel, where every user reads
  const asEve = client(gw.realtimeUrl, eve);
  assert.equal(errorCode(await asEve.post('/v1/channels/club/messages', { content: {}, mentions: ['ann'] })), 'forbidden');
  // …on the realtime batch route and over /v1/connect too
  const eveBatch = await asEve.post('/v1/messages/batch', {
    messages: [
      { channelId: 'lobby', content: {}, mentions: ['bob'] },
      // `to` narrows who reads the message: a mention of anyone else is dropped
      { channelId: 'lobby', content: {}, to: ['ann'], mentions: ['ann', 'zed'] },
    ],
  });
  assert.equal(eveBatch.status, 200, JSON.stringify(eveBatch.body));
  assert.deepEqual(
    eveBatch.body.results.map((r: any) => typeof r.seq),
    ['number', 'number'],
  );
  const eveSocket = openSocket(gw.realtimeUrl, `/v1/connect?token=${eve}`);
  await eveSocket.waitFor('connected', (f) => f.op === 'connected');
  eveSocket.send({ op: 'publish', ref: 1, channelId: 'staff:1', content: {}, mentions: ['ann'] });
  assert.equal((await eveSocket.waitFor('refused', (f) => f.ref === 1)).code, 'forbidden');
  // a member's socket publish in the members-only channel: the same filter
  const malSocket = openSocket(gw.realtimeUrl, `/v1/connect?token=${mal}`);
  await malSocket.waitFor('connected', (f) => f.op === 'connected');
  malSocket.send({ op: 'publish', ref: 2, channelId: 'club', content: {}, mentions: ['zed', 'ann', 'dan'] });
  assert.equal((await malSocket.waitFor('ack', (f) => f.ref === 2)).op, 'ack');

  // rows: readers only
  assert.deepEqual(await rowsOf('ann'), ['club', 'staff:1', 'club', 'lobby', 'club']);
  assert.deepEqual(await rowsOf('mal'), ['club', 'staff:1']);
  assert.deepEqual(await rowsOf('zed'), ['lobby'], 'zed is a member of nothing: only the open channel');
  assert.deepEqual(await rowsOf('eve'), [], 'not a member');
  assert.deepEqual(await rowsOf('bob'), ['staff:1', 'lobby'], 'banned from the club only');
  assert.deepEqual(await rowsOf('dan'), [], 'banned from the environment');

  // live frames follow the rows: ann got hers, zed only the open channel's
  await annInbox.waitFor('fifth mention', () => annInbox.frames.filter((f) => f.type === 'mention').length === 5);
  const marker = await control.post('/v1/notifications', { userIds: ['zed'], type: 'marker', payload: {} });
  await zedInbox.waitFor('marker', (f) => f.id === marker.body.ids[0]);
  assert.deepEqual(
    zedInbox.frames.filter((f) => f.type === 'mention').map((f) => f.payload.channelId),
    ['lobby'],
  );

  // a ban that ends, a membership that starts: decided at the message's commit, not before
  assert.equal((await control.delete('/v1/channels/club/bans/bob')).status < 300, true);
  assert.equal((await control.put('/v1/channels/club/members/zed', {})).status < 300, true);
  assert.equal((await asMal.post('/v1/channels/club/messages', { content: {}, mentions: ['bob', 'zed'] })).status, 201);
  assert.deepEqual(await rowsOf('bob'), ['staff:1', 'lobby', 'club']);
  assert.deepEqual(await rowsOf('zed'), ['lobby', 'club']);

  await Promise.all([zedInbox, annInbox, eveSocket, malSocket].map((s) => s.close()));
});

/**
 * Runs `body` again until it ran within one minute of the database's clock (the cap's window). A
 * body that fails across a minute's end is run again too: its counts spanned two windows (each may
 * hold the cap). One that fails within a minute is a failure.
 */
async function withinOneMinute<T>(
  pool: { query: (sql: string) => Promise<{ rows: { minute: string }[] }> },
  body: (attempt: number) => Promise<T>,
): Promise<T> {
  const minute = async () => (await pool.query(`select floor(extract(epoch from now()) / 60)::text as minute`)).rows[0]!.minute;
  for (let attempt = 0; ; attempt++) {
    const before = await minute();
    try {
      const result = await body(attempt);
      if ((await minute()) === before) return result;
    } catch (error) {
      if ((await minute()) === before) throw error;
    }
    assert.ok(attempt < 3, 'the body never fit in one minute');
  }
}

test('inbox - a recipient gets at most notificationsPerUserPerMinute notifications a minute, mentions and the control plane together', async (t) => {
  // two channel-nodes and two gateways: the writers that race for one recipient are separate processes
  const cluster = await startCluster(t, { gateways: 2, channelNodes: 2 });
  const gw = cluster.gateways[0]!;
  const env = await cluster.createEnvironment();
  const control = client(gw.controlUrl, env.secretKey);
  const pool = cluster.db.pool;
  const deployed = await control.put('/v1/config', { limits: { notificationsPerUserPerMinute: 5, userPublishesPerSecond: 1000 } });
  assert.equal(deployed.status, 200);
  assert.equal(deployed.body.config.limits.notificationsPerUserPerMinute, 5);
  const count = async (userId: string) =>
    Number((await pool.query(`select count(*) from notifications where environment_id = $1 and user_id = $2`, [env.environmentId, userId])).rows[0].count);

  const sender = await mintToken(gw.controlUrl, env.secretKey, 'sender');
  const asSender = client(gw.realtimeUrl, sender);

  await withinOneMinute(pool, async (attempt) => {
    const victim = `victim-${attempt}`;
    // 4 single publishes, then a batch of 8 messages each mentioning the victim: 12 mentions, 5 stored
    for (let i = 0; i < 4; i++) assert.equal((await asSender.post('/v1/channels/lobby/messages', { content: { i }, mentions: [victim] })).status, 201);
    const batch = await asSender.post('/v1/messages/batch', {
      messages: Array.from({ length: 8 }, (_, i) => ({ channelId: 'room', content: { i }, mentions: [victim, `bystander-${attempt}`] })),
    });
    assert.equal(batch.status, 200);
    assert.ok(
      batch.body.results.every((r: any) => typeof r.seq === 'number'),
      'every message is published: only notifications are dropped',
    );
    assert.equal(await count(victim), 5);
    // the first five in publish order are kept (one channel: one owner commits them in order)
    const kept = await pool.query(`select payload ->> 'channelId' as channel from notifications where user_id = $1 order by id`, [victim]);
    assert.deepEqual(
      kept.rows.map((r) => r.channel),
      ['lobby', 'lobby', 'lobby', 'lobby', 'room'],
    );
    assert.equal(await count(`bystander-${attempt}`), 5);

    // the control plane counts in the same window: the victim alone → 429 with retry-after, nothing stored
    const refused = await control.post('/v1/notifications', { userIds: [victim], payload: {} });
    assert.equal(refused.status, 429);
    assert.equal(errorCode(refused), 'rate_limited');
    const retryAfter = Number(refused.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `retry-after ${refused.headers.get('retry-after')}`);
    // with others: they get theirs, the victim is listed as dropped
    const partial = await control.post('/v1/notifications', { userIds: [`fresh-${attempt}`, victim, `fresh-${attempt}`], payload: {} });
    assert.equal(partial.status, 202);
    assert.equal(partial.body.ids.length, 1);
    assert.deepEqual(partial.body.dropped, [victim]);
    assert.equal(await count(`fresh-${attempt}`), 1);
    assert.equal(await count(victim), 5);
    // the cap holds from the control plane alone too
    const alone = `alone-${attempt}`;
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push((await control.post('/v1/notifications', { userIds: [alone], payload: { i } })).status);
    assert.deepEqual(answers, [202, 202, 202, 202, 202, 429, 429]);
    assert.equal(await count(alone), 5);

    // concurrent writers for one recipient (mentions committed by both channel-nodes, the control
    // plane on both gateways): exactly the cap is stored, and only stored ones were answered 202
    const crowded = `crowded-${attempt}`;
    const controlB = client(cluster.gateways[1]!.controlUrl, env.secretKey);
    const asSenderB = client(cluster.gateways[1]!.realtimeUrl, sender);
    const [published, sent] = await Promise.all([
      Promise.all(
        Array.from({ length: 24 }, (_, i) => (i % 2 ? asSender : asSenderB).post(`/v1/channels/spread.${i}/messages`, { content: { i }, mentions: [crowded] })),
      ),
      Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? control : controlB).post('/v1/notifications', { userIds: [crowded], payload: {} }))),
    ]);
    assert.ok(
      published.every((res) => res.status === 201),
      JSON.stringify(published.map((res) => res.status)),
    );
    assert.ok(
      sent.every((res) => res.status === 202 || res.status === 429),
      JSON.stringify(sent.map((res) => res.status)),
    );
    assert.equal(await count(crowded), 5);
    const storedByControl = Number((await pool.query(`select count(*) from notifications where user_id = $1 and type <> 'mention'`, [crowded])).rows[0].count);
    assert.equal(sent.filter((res) => res.status === 202).length, storedByControl);
  });

  // the counts are per environment: another environment's user of the same id is not affected
  const other = await cluster.createEnvironment();
  assert.equal((await client(gw.controlUrl, other.secretKey).post('/v1/notifications', { userIds: ['victim-0'], payload: {} })).status, 202);
});
