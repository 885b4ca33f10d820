/**
 * The gateway's services (apps/gateway/src/services.ts): building them starts nothing; start()
 * starts every part once, in the stated order; stop() stops what was started, last first, and a
 * part that fails to stop does not keep the others running.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GatewayServices, type ServicesDeps } from '../../apps/gateway/src/services.ts';
import { SocketEvents } from '../../libs/edge/src/socket-events.ts';
import { TokenSockets } from '../../libs/edge/src/sessions/token-sockets.ts';
import { NO_USAGE } from '@rtm/usage';

function fakeDeps(calls: string[], failing?: string): ServicesDeps {
  const part = (name: string) => ({
    start: () => void calls.push(`start ${name}`),
    stop: () => {
      calls.push(`stop ${name}`);
      if (name === failing) throw new Error(`${name} broke`);
    },
  });
  const cache = { clear() {}, invalidate() {} };
  return {
    subjects: { invalidate: 'invalidate', revocations: 'revocations' },
    nc: {
      subscribe: (subject) => {
        calls.push(`subscribe ${subject}`);
        return { unsubscribe: () => void calls.push(`unsubscribe ${subject}`) };
      },
    },
    credentials: cache,
    tenantKeys: cache,
    revocations: { apply() {} },
    log: { info() {} },
    accessCache: part('access cache'),
    owners: part('owner directory'),
    limits: part('limits'),
    sessions: { ...part('sessions'), tokens: new TokenSockets() },
    dashboard: part('dashboard'),
    logInterest: part('live-log interest'),
    events: new SocketEvents(),
    usage: NO_USAGE,
    usageWriter: { start: () => void calls.push('start usage'), stop: async () => void calls.push('stop usage') },
  };
}

test('gateway services: nothing runs until start; start in order, once; stop in reverse', async () => {
  const calls: string[] = [];
  const services = new GatewayServices(fakeDeps(calls));
  assert.deepEqual(calls, [], 'building starts nothing');
  services.start();
  services.start();
  assert.deepEqual(calls, [
    'start usage',
    'subscribe invalidate',
    'subscribe revocations',
    'start access cache',
    'start owner directory',
    'start limits',
    'start sessions',
    'start dashboard',
    'start live-log interest',
  ]);
  calls.length = 0;
  await services.stop();
  assert.deepEqual(calls, [
    'stop live-log interest',
    'stop dashboard',
    'stop sessions',
    'stop limits',
    'stop owner directory',
    'stop access cache',
    'unsubscribe invalidate',
    'unsubscribe revocations',
    'stop usage',
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
