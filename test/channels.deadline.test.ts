import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCluster } from './helpers/cluster.ts';
import { client, errorCode } from './helpers/http.ts';

test('channels - commands whose caller gave up while the owner was stalled are not written', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 1, env: { OWNER_TIMEOUT_MS: '1000' } });
  const env = await cluster.createEnvironment();
  const control = client(cluster.gateways[0]!.controlUrl, env.secretKey);
  assert.equal((await control.post('/v1/channels/slow/messages', { content: { n: 'first' } })).status, 201);

  // stall the owner: its next commit waits on the channel row this test holds
  const holder = await cluster.db.pool.connect();
  await holder.query('begin');
  await holder.query('select 1 from channels where environment_id = $1 and id = $2 for update', [env.environmentId, 'slow']);

  const a = control.post('/v1/channels/slow/messages', { content: { n: 'a' } });
  await new Promise((resolve) => setTimeout(resolve, 300)); // a is now in its commit; b and c queue behind it
  const b = control.post('/v1/channels/slow/messages', { content: { n: 'b' } });
  const c = control.post('/v1/channels/slow/messages', { content: { n: 'c' } });
  for (const res of await Promise.all([a, b, c])) {
    assert.equal(res.status, 503);
    assert.equal(errorCode(res), 'unavailable');
  }
  await holder.query('commit');
  holder.release();

  // once the stall ends, a new publish goes through; a (already in its commit) may have been
  // written, but b and c waited past their deadline in the mailbox and must not be
  assert.equal((await control.post('/v1/channels/slow/messages', { content: { n: 'after' } })).status, 201);
  const history = (await control.get('/v1/channels/slow/history')).body as { messages: { seq: number; content: { n: string } }[] };
  const written = history.messages.map((m) => m.content.n);
  assert.ok(!written.includes('b') && !written.includes('c'), `written: ${written.join(', ')}`);
  assert.deepEqual(
    history.messages.map((m) => m.seq),
    history.messages.map((_, i) => i + 1),
  );
  assert.equal(written[0], 'first');
  assert.equal(written.at(-1), 'after');
});
