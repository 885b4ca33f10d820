import { test } from 'node:test';
import assert from 'node:assert/strict';
import { webhookPartitionOf } from '@rtm/bus';
import { RateBuckets } from '../../apps/dispatcher/src/delivery/rate-buckets.ts';
import { EndpointGuard } from '../../apps/dispatcher/src/endpoint-guard.ts';
import { EndpointQueues } from '../../apps/dispatcher/src/endpoint-queues.ts';
import { SendWindow, type SendWindowDeps } from '../../apps/dispatcher/src/send-window.ts';

const limits = {
  WEBHOOK_MAX_IN_FLIGHT_PER_ENVIRONMENT: 64,
  WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT: 64,
  WEBHOOK_MAX_RATE_PER_ENDPOINT: 0,
  WEBHOOK_BREAKER_THRESHOLD: 5,
  WEBHOOK_BREAKER_COOLDOWN: 30_000,
};

test('a bucket per key may have its own rate, given with each call', () => {
  const buckets = new RateBuckets(0);
  assert.equal(buckets.refusedUntil('ep', 0), null, 'no rate: no limit');
  buckets.take('ep', 0, 2);
  buckets.take('ep', 0, 2);
  assert.equal(buckets.refusedUntil('ep', 0, 2), 500, 'two a second: the third after half a second');
  assert.equal(buckets.refusedUntil('other', 0, 2), null);
  assert.equal(buckets.tokens('ep', 10_000, 2), 2, 'never more than one second of sends');
});

test('a partition taken over: both rates of its environments start empty, other partitions are not held back', () => {
  const guard = new EndpointGuard({ ...limits, WEBHOOK_MAX_RATE_PER_ENDPOINT: 4 });
  const env = 'env_takeover';
  const other = Array.from({ length: 64 }, (_, i) => `env_${i}`).find((id) => webhookPartitionOf(id) !== webhookPartitionOf(env))!;
  guard.tookOver(webhookPartitionOf(env), 1_000);
  assert.deepEqual(guard.admit(env, 'c', 1_000), { ok: false, retryAt: 1_250, reason: 'rate' });
  assert.equal(guard.room(env, 1_000), 0);
  assert.deepEqual(guard.admit(other, 'c2', 1_000), { ok: true, probe: false }, 'another partition: a full bucket');
  assert.deepEqual(guard.admit(env, 'c', 1_250, { id: 'ep_t', rate: 2 }), { ok: false, retryAt: 1_500, reason: 'endpoint_rate' });
  assert.deepEqual(guard.admit(env, 'c', 1_500, { id: 'ep_t', rate: 2 }), { ok: true, probe: false });
});

test("the guard holds an endpoint's own rate, learnt from the claim, on top of the environment's", () => {
  const guard = new EndpointGuard(limits);
  const endpoint = { id: 'ep_1', rate: 2 };
  assert.equal(guard.limits('ep_1'), false);
  assert.deepEqual(guard.admit('env', 'env url', 0, endpoint), { ok: true, probe: false });
  assert.equal(guard.limits('ep_1'), true);
  assert.deepEqual(guard.admit('env', 'env url', 0, endpoint), { ok: true, probe: false });
  assert.deepEqual(guard.admit('env', 'env url', 0, endpoint), { ok: false, retryAt: 500, reason: 'endpoint_rate' });
  assert.equal(guard.endpointRoom('ep_1', 0), 0);
  assert.equal(guard.endpointRefusedUntil('ep_1', 0), 500);
  assert.equal(guard.endpointRoom('ep_1', 500), 1);
  // the environment's other endpoints are not held back by it
  assert.deepEqual(guard.admit('env', 'env other', 0, { id: 'ep_2', rate: null }), { ok: true, probe: false });
  assert.deepEqual(guard.admit('env', 'env default', 0), { ok: true, probe: false });
  assert.equal(guard.room('env', 0) > 0, true);
  // a claim that says the rate was removed (PATCH null) lifts it
  assert.deepEqual(guard.admit('env', 'env url', 0, { id: 'ep_1', rate: null }), { ok: true, probe: false });
  assert.equal(guard.limits('ep_1'), false);
  assert.equal(guard.endpointRoom('ep_1', 0), Infinity);
});

test("an endpoint's queue is its own: served in turn beside its environment's, removed with the environment", () => {
  const queues = new EndpointQueues();
  queues.push([
    ['a1', 'E'],
    ['a2', 'E'],
  ]);
  queues.unshift('E', ['h1', 'h2'], 'ep_slow');
  assert.deepEqual(queues.environments, ['E'], 'one environment, two queues');
  const room = (_environmentId: string, endpointId: string | null) => (endpointId === 'ep_slow' ? 0 : 16);
  assert.deepEqual(queues.next(room, 16), { environmentId: 'E', ids: ['a1', 'a2'] }, 'the held endpoint does not stand in front');
  assert.equal(queues.next(room, 16), undefined);
  assert.deepEqual(
    queues.next(() => 1, 16),
    { environmentId: 'E', endpointId: 'ep_slow', ids: ['h1'] },
  );
  queues.unshift('E', ['h1'], 'ep_slow');
  assert.deepEqual(
    queues.removeWhere((environmentId) => environmentId === 'E'),
    ['h1', 'h2'],
  );
  assert.equal(queues.size, 0);
});

test("the window hands an endpoint's queue what its rate allows, puts held ones back there, and wakes at the next token", async () => {
  let tokens = 0;
  let listener = () => {};
  const chunks: { ids: string[]; requeue: (ids: string[], endpointId?: string) => void }[] = [];
  const back: [string, string[], string | undefined][] = [];
  const send: SendWindowDeps['send'] = (ids, sending, requeue) => {
    chunks.push({ ids, requeue });
    sending();
    return Promise.resolve();
  };
  const window = new SendWindow({
    endpoints: {
      room: () => 10,
      refusedUntil: () => null,
      onFreed: (l) => void (listener = l),
      endpointRoom: () => tokens,
      endpointRefusedUntil: () => Date.now() + 20,
    },
    send,
    putBack: (environmentId, ids, endpointId) => {
      back.push([environmentId, ids, endpointId]);
      window.unshift(environmentId, ids, endpointId ?? null);
    },
    failed: () => {},
  });
  window.push([
    ['d1', 'E'],
    ['d2', 'E'],
  ]);
  assert.deepEqual(
    chunks.map((c) => c.ids),
    [['d1', 'd2']],
    "unknown endpoint: from the environment's queue",
  );
  chunks[0]!.requeue(['d2'], 'ep_slow');
  assert.deepEqual(back, [['E', ['d2'], 'ep_slow']]);
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(chunks.length, 1, "no token: it waits in its endpoint's queue");
  assert.equal(window.queued, 1);
  tokens = 1;
  // the window's wake timer (at endpointRefusedUntil) is what sends it; nothing else pumps
  for (let i = 0; i < 500 && chunks.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.deepEqual(
    chunks.map((c) => c.ids),
    [['d1', 'd2'], ['d2']],
    'the wake at the next token sent it',
  );
  listener();
  window.stop();
});
