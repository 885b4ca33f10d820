import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mergePatch } from '../../apps/gateway/src/config/merge-patch.ts';

test('config merge patch - objects merge member by member; omitted members are unchanged', () => {
  const active = { webhooks: { url: 'https://a.example/h' }, channels: { access: 'members', joinLeave: true }, limits: { socketsPerUser: 5 } };
  assert.deepEqual(mergePatch(active, { limits: { userPublishesPerSecond: 9 } }), {
    webhooks: { url: 'https://a.example/h' },
    channels: { access: 'members', joinLeave: true },
    limits: { socketsPerUser: 5, userPublishesPerSecond: 9 },
  });
  assert.deepEqual(active.limits, { socketsPerUser: 5 }, 'the target is not modified');
});

test('config merge patch - null removes a member; an array replaces the target whole', () => {
  const active = {
    webhooks: { url: 'https://a.example/h' },
    limits: { socketsPerUser: 5, userPublishesPerSecond: 9 },
    namespaces: [{ prefix: 'a' }, { prefix: 'b' }],
  };
  assert.deepEqual(mergePatch(active, { webhooks: null, limits: { socketsPerUser: null }, namespaces: [{ prefix: 'c' }] }), {
    limits: { userPublishesPerSecond: 9 },
    namespaces: [{ prefix: 'c' }],
  });
});

test('config merge patch - an object patch over a missing or non-object target starts from {} (RFC 7396 examples)', () => {
  assert.deepEqual(mergePatch(null, { webhooks: { url: 'https://b.example/' } }), { webhooks: { url: 'https://b.example/' } });
  assert.deepEqual(mergePatch({ a: [1, 2] }, { a: { b: 'c' } }), { a: { b: 'c' } });
  assert.deepEqual(mergePatch({ a: { b: 'c' } }, { a: { b: 'd', c: null } }), { a: { b: 'd' } });
  assert.deepEqual(mergePatch({ a: 'b' }, {}), { a: 'b' });
  assert.deepEqual(mergePatch({ e: null }, { a: 1 }), { e: null, a: 1 });
});
