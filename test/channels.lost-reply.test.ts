import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connectBus, decodeText, encodeJson, subjects } from '@rtm/bus';
import { unframeRequest } from '@rtm/schemas';
import { startCluster } from './helpers/cluster.ts';
import { client } from './helpers/http.ts';

/**
 * A bus server that dies takes the requests and replies passing through it with it. Here a fake
 * partition owner plays that loss: it drops the first request of each publish and answers any
 * later one. A keyed publish is sent again by the gateway and answered; an unkeyed one is sent
 * once and waits out the owner time-out (its repeat could write it twice).
 */
test('channels - a publish whose request or reply was lost on the bus is sent again when it has an idempotencyKey, never without', async (t) => {
  const cluster = await startCluster(t, { gateways: 1, channelNodes: 0, env: { OWNER_TIMEOUT_MS: '3000' } });
  const env = await cluster.createEnvironment();
  const api = client(cluster.gateways[0]!.controlUrl, env.secretKey);

  const nc = await connectBus(cluster.env.NATS_URL!, 'lost-reply-test');
  t.after(() => nc.close());
  const received = new Map<string, number>();
  const partitions = subjects(cluster.prefix).partition(0).replace(/\.0$/, '.*');
  nc.subscribe(partitions, {
    callback: (_error, msg) => {
      // a framed request (libs/schemas command-codec.ts): each command a header and its content's bytes
      const framed = unframeRequest(msg.data, 500);
      if (!framed.ok) throw new Error(framed.reason);
      const commands: any[] = framed.commands.map((c) => ({ ...JSON.parse(decodeText(c.header)), content: JSON.parse(decodeText(c.content)) }));
      const many = commands.length > 1;
      const replies = commands.map((command) => {
        const name = command.idempotencyKey ?? `content:${command.content.name}`;
        const n = (received.get(name) ?? 0) + 1;
        received.set(name, n);
        return n === 1 ? undefined : { ok: true, result: { id: `msg_${name}`, seq: 7, timestamp: 1_700_000_000_000 } };
      });
      // the loss: a request with a first send in it gets no reply at all
      if (replies.some((reply) => reply === undefined)) return;
      msg.respond(encodeJson(many ? replies : replies[0]));
    },
  });
  await nc.flush();

  const keyed = await api.post('/v1/channels/lost/messages', { content: { name: 'keyed' }, idempotencyKey: 'k-1' });
  assert.equal(keyed.status, 201, JSON.stringify(keyed.body));
  assert.deepEqual([keyed.body.id, keyed.body.seq], ['msg_k-1', 7]);
  assert.equal(received.get('k-1'), 2, 'sent twice: the lost first send and its repeat');

  const unkeyed = await api.post('/v1/channels/lost/messages', { content: { name: 'unkeyed' } });
  assert.equal(unkeyed.status, 503, JSON.stringify(unkeyed.body));
  assert.equal(unkeyed.body.code, 'unavailable');
  assert.match(unkeyed.body.reason, /outcome is unknown/);
  assert.equal(received.get('content:unkeyed'), 1, 'an unkeyed publish is never sent twice');

  // the batch route takes the same path, message by message
  const batch = await api.post('/v1/messages/batch', {
    messages: [
      { channelId: 'lost', content: { name: 'b1' }, idempotencyKey: 'b-1' },
      { channelId: 'lost-2', content: { name: 'b2' }, idempotencyKey: 'b-2' },
    ],
  });
  assert.equal(batch.status, 200, JSON.stringify(batch.body));
  assert.deepEqual(
    batch.body.results.map((r: any) => r.id),
    ['msg_b-1', 'msg_b-2'],
  );
  assert.deepEqual([received.get('b-1'), received.get('b-2')], [2, 2]);
});
