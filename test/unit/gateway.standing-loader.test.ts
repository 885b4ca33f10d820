import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pool } from '@rtm/db';
import { StandingLoader } from '../../libs/edge/src/access/standing-loader.ts';

/** A pool answering the standing query from its parameters: users named `banned…` are banned, `mod…` moderate. */
function fakePool(fail = false) {
  const queries: { environmentId: string; pairs: number }[] = [];
  const pool = {
    query: async (_sql: string, [environmentId, channels, users]: [string, string[], string[]]) => {
      queries.push({ environmentId, pairs: channels.length });
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (fail) throw new Error('db down');
      // rows in reverse order: the loader must match by pair, not by position
      const rows = channels.map((channel_id, i) => ({
        channel_id,
        user_id: users[i]!,
        banned: users[i]!.startsWith('banned'),
        ban_reason: users[i]!.startsWith('banned') ? `reason of ${users[i]}` : null,
        own_access: channel_id.startsWith('closed') ? 'members' : null,
        default_access: 'open',
        namespaces: null,
        role: users[i]!.startsWith('mod') ? 'moderator' : null,
      }));
      return { rows: rows.reverse() };
    },
  };
  return { pool: pool as unknown as Pool, queries };
}

test('standing loader: the lookups of one turn are one query per environment, each answered with its own pair', async () => {
  const { pool, queries } = fakePool();
  const loader = new StandingLoader(pool);
  const asks = [
    ...Array.from({ length: 50 }, (_, i) => ['env_a', `room-${i % 5}`, i % 7 === 0 ? `banned-${i}` : `user-${i}`] as const),
    ...Array.from({ length: 20 }, (_, i) => ['env_b', `closed-${i}`, `mod-${i}`] as const),
    ['env_a', 'room-0', 'user-1'] as const, // the same pair twice
    ['env_a', 'room-0', 'user-1'] as const,
  ];
  const standings = await Promise.all(asks.map(([env, channel, user]) => loader.load(env, channel, user)));
  assert.deepEqual(queries.map((q) => q.environmentId).sort(), ['env_a', 'env_b']);
  assert.equal(queries.find((q) => q.environmentId === 'env_a')!.pairs, 51, 'a repeated pair is read once');
  asks.forEach(([, channel, user], i) => {
    const standing = standings[i]!;
    assert.deepEqual(standing.ban, user.startsWith('banned') ? { reason: `reason of ${user}` } : null, `${channel} ${user}`);
    assert.equal(standing.role, user.startsWith('mod') ? 'moderator' : null);
    assert.equal(standing.access, channel.startsWith('closed') ? 'members' : 'open');
  });
  // a later turn is a new query
  await loader.load('env_a', 'room-9', 'user-9');
  assert.equal(queries.length, 3);
});

test('standing loader: a failed query fails the lookups it carried, and only those', async () => {
  const failing = fakePool(true);
  const loader = new StandingLoader(failing.pool);
  const results = await Promise.allSettled([loader.load('env_a', 'x', 'u1'), loader.load('env_a', 'y', 'u2')]);
  assert.deepEqual(
    results.map((r) => r.status),
    ['rejected', 'rejected'],
  );
  const ok = fakePool();
  const next = new StandingLoader(ok.pool);
  assert.equal((await next.load('env_a', 'x', 'u1')).ban, null);
});

test('batched reads: look-ups arriving one per turn while reads run go together in the next read; each is read after it was asked', async () => {
  const { BatchedReads, MAX_IN_FLIGHT } = await import('../../libs/edge/src/access/batched-reads.ts');
  const reads: { started: number; asks: number[] }[] = [];
  let clock = 0;
  const batched = new BatchedReads<number, string>(
    async (_key, asks) => {
      reads.push({ started: ++clock, asks });
      await new Promise((resolve) => setTimeout(resolve, 20));
      return asks.map((ask) => `answer ${ask}`);
    },
    { maxBatch: 1_000 },
  );
  const asked: { ask: number; at: number }[] = [];
  const answers: Promise<string>[] = [];
  for (let ask = 0; ask < 200; ask++) {
    asked.push({ ask, at: clock });
    answers.push(batched.load('env', ask));
    await new Promise((resolve) => setImmediate(resolve));
  }
  assert.deepEqual(
    await Promise.all(answers),
    asked.map(({ ask }) => `answer ${ask}`),
  );
  assert.ok(reads.length < 40, `${reads.length} reads for 200 look-ups arriving one per turn`);
  for (const { ask, at } of asked) {
    const read = reads.find((r) => r.asks.includes(ask))!;
    assert.ok(read.started > at, `look-up ${ask} was read by a query started after it was asked`);
  }
  assert.equal(MAX_IN_FLIGHT, 2);
});

test('batched reads: a key read moments ago gathers the look-ups that keep arriving, even when each read ends before the next look-up', async () => {
  const { BatchedReads, GATHER_MS } = await import('../../libs/edge/src/access/batched-reads.ts');
  const reads: number[][] = [];
  const batched = new BatchedReads<number, string>(
    async (_key, asks) => {
      reads.push(asks);
      return asks.map((ask) => `answer ${ask}`);
    },
    { maxBatch: 1_000 },
  );
  // a quiet key is read at once
  const first = await batched.load('env', -1);
  assert.equal(first, 'answer -1');
  assert.deepEqual(reads, [[-1]]);
  // then look-ups one per millisecond, each read instant: without gathering, one read each
  const answers: Promise<string>[] = [];
  for (let ask = 0; ask < 60; ask++) {
    answers.push(batched.load('env', ask));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  assert.deepEqual(
    await Promise.all(answers),
    Array.from({ length: 60 }, (_, ask) => `answer ${ask}`),
  );
  assert.ok(reads.length - 1 <= 60 / 2, `${reads.length - 1} reads for 60 look-ups ~1 ms apart, gathering ${GATHER_MS} ms`);
});
