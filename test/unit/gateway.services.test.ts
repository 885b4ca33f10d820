/**
 * The gateway's services (apps/gateway/src/services.ts): building them starts nothing; start()
 * starts every part once, in the stated order; stop() stops what was started, last first, and a
 * part that fails to stop does not keep the others running.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayServices } from '../../apps/gateway/src/services.ts';
import type { GatewayDeps } from '../../apps/gateway/src/deps.ts';

function fakeDeps(calls: string[], failing?: string) {
  const part = (name: string) => ({
    start: () => calls.push(`start ${name}`),
    stop: () => {
      calls.push(`stop ${name}`);
      if (name === failing) throw new Error(`${name} broke`);
    },
  });
  return {
    subjects: { invalidate: 'invalidate', revocations: 'revocations' },
    nc: {
      subscribe: (subject: string) => {
        calls.push(`subscribe ${subject}`);
        return { unsubscribe: () => calls.push(`unsubscribe ${subject}`) };
      },
    },
    log: { warn: () => {} },
    accessCache: part('access cache'),
    owners: part('owner directory'),
    limits: part('limits'),
    sessions: part('sessions'),
    dashboard: part('dashboard'),
    events: {},
  } as unknown as GatewayDeps;
}

test('gateway services: nothing runs until start; start in order, once; stop in reverse', async () => {
  const calls: string[] = [];
  const services = new GatewayServices(fakeDeps(calls));
  assert.deepEqual(calls, [], 'building starts nothing');
  services.start();
  services.start();
  assert.deepEqual(calls, [
    'subscribe invalidate',
    'subscribe revocations',
    'start access cache',
    'start owner directory',
    'start limits',
    'start sessions',
    'start dashboard',
  ]);
  calls.length = 0;
  await services.stop();
  assert.deepEqual(calls, [
    'stop dashboard',
    'stop sessions',
    'stop limits',
    'stop owner directory',
    'stop access cache',
    'unsubscribe invalidate',
    'unsubscribe revocations',
  ]);
  calls.length = 0;
  await services.stop();
  assert.deepEqual(calls, [], 'a second stop does nothing');
});

test('gateway services: a part that fails to stop is reported and the rest still stop', async () => {
  const calls: string[] = [];
  const warnings: string[] = [];
  const services = new GatewayServices(fakeDeps(calls, 'sessions'));
  services.start();
  calls.length = 0;
  await services.stop({ warn: (_details, message) => warnings.push(message) });
  assert.deepEqual(warnings, ['sessions did not stop cleanly']);
  assert.ok(calls.includes('stop access cache') && calls.includes('unsubscribe revocations'));
});
