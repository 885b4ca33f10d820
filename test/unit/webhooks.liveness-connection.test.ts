import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import pino from 'pino';
import type { Pool } from '@rtm/db';
import { WorkerRecovery } from '../../apps/dispatcher/src/worker-recovery.ts';

/** A pool whose connections open after a turn of the event loop and count their releases. */
function fakePool() {
  const clients: { queries: string[]; released: number }[] = [];
  const pool = {
    async connect() {
      await new Promise((resolve) => setImmediate(resolve));
      const record = { queries: [] as string[], released: 0 };
      clients.push(record);
      return Object.assign(new EventEmitter(), {
        async query(text: string) {
          record.queries.push(text);
          return { rows: [], rowCount: 0 };
        },
        release() {
          record.released += 1;
        },
      });
    },
  };
  return { pool: pool as unknown as Pool, clients };
}

test('worker recovery - worker pools taking their liveness locks at once share one connection, released at stop', async () => {
  const { pool, clients } = fakePool();
  const recovery = new WorkerRecovery({ pool, log: pino({ level: 'silent' }), intervalMs: 60_000, staleMs: 60_000 });
  // graphile-worker creates its pools together: both ask for the liveness connection in one turn
  await Promise.all([recovery.holdLiveness('pool-a'), recovery.holdLiveness('pool-b')]);
  assert.equal(clients.length, 1, 'one liveness connection, not one per pool');
  assert.equal(clients[0]!.queries.filter((q) => q.includes('pg_advisory_lock')).length, 2, 'both locks on it');
  await recovery.stop();
  // every connection taken from the pool went back to it: nothing keeps pool.end() waiting
  assert.deepEqual(
    clients.map((c) => c.released),
    [1],
  );
});

test('worker recovery - a stop while the liveness connection is still opening releases it', async () => {
  const { pool, clients } = fakePool();
  const recovery = new WorkerRecovery({ pool, log: pino({ level: 'silent' }), intervalMs: 60_000, staleMs: 60_000 });
  const holding = recovery.holdLiveness('pool-a');
  await recovery.stop();
  await holding;
  assert.deepEqual(
    clients.map((c) => c.released),
    [1],
  );
});
