import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pool } from '@rtm/db';
import { CredentialStore } from '../../libs/auth/src/credential-store.ts';

/** A pool whose signing-key query answers when the test says so, counting the queries. */
function fakePool() {
  const waiting: (() => void)[] = [];
  let queries = 0;
  const pool = {
    query: async (_text: string, params: unknown[]) => {
      queries++;
      await new Promise<void>((resolve) => waiting.push(resolve));
      return { rows: [{ id: params[0], environment_id: 'env_1', secret: Buffer.from('s'), retires_ms: null }] };
    },
  } as unknown as Pool;
  return { pool, queries: () => queries, answer: () => waiting.splice(0).forEach((resolve) => resolve()) };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('credential store - look-ups of one key that miss together share one query', async () => {
  const fake = fakePool();
  const observed: string[] = [];
  const store = new CredentialStore(fake.pool, 60_000, (result) => observed.push(result));
  const lookups = Array.from({ length: 50 }, () => store.signingKey('sk_1'));
  await tick();
  assert.equal(fake.queries(), 1);
  fake.answer();
  const keys = await Promise.all(lookups);
  assert.ok(keys.every((key) => key?.id === 'sk_1' && key.environmentId === 'env_1'));
  assert.equal((await store.signingKey('sk_1'))?.id, 'sk_1');
  assert.equal(fake.queries(), 1, 'the loaded key is cached');
  assert.deepEqual([observed.filter((r) => r === 'miss').length, observed.filter((r) => r === 'hit').length], [1, 50]);
});

test('credential store - a load overtaken by an invalidation answers its callers, but later look-ups load again', async () => {
  const fake = fakePool();
  const store = new CredentialStore(fake.pool, 60_000);
  const early = store.signingKey('sk_1');
  await tick();
  store.invalidate('env_1');
  const late = store.signingKey('sk_1');
  await tick();
  assert.equal(fake.queries(), 2, 'a look-up after the invalidation does not join the earlier load');
  fake.answer();
  assert.equal((await early)?.id, 'sk_1');
  assert.equal((await late)?.id, 'sk_1');
  // the late load was cached (it started after the invalidation); the early one was not shared
  await store.signingKey('sk_1');
  assert.equal(fake.queries(), 2);
  store.clear();
  const again = store.signingKey('sk_1');
  await tick();
  assert.equal(fake.queries(), 3);
  fake.answer();
  await again;
});

test('credential store - a failed load fails its callers and is not cached', async () => {
  let queries = 0;
  const pool = {
    query: async () => {
      queries++;
      throw new Error('postgres away');
    },
  } as unknown as Pool;
  const store = new CredentialStore(pool, 60_000);
  const results = await Promise.allSettled([store.signingKey('sk_1'), store.signingKey('sk_1')]);
  assert.deepEqual(
    results.map((r) => r.status),
    ['rejected', 'rejected'],
  );
  assert.equal(queries, 1);
  await assert.rejects(store.signingKey('sk_1'), /postgres away/);
  assert.equal(queries, 2, 'the next look-up tries again');
});
