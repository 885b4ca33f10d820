import { test } from 'node:test';
import assert from 'node:assert/strict';
import { natsConnectionOptions } from '@rtm/bus';

test('nats servers - NATS_URL is one server or a comma-separated list of them, every one tried', () => {
  assert.deepEqual(natsConnectionOptions({ NATS_URL: 'nats://127.0.0.1:4222' }).servers, ['nats://127.0.0.1:4222']);
  // a cluster: the client connects to one and, when it dies, reconnects to another of the list
  assert.deepEqual(natsConnectionOptions({ NATS_URL: 'nats://nats-1:4222, nats://nats-2:4222 ,nats://nats-3:4222' }).servers, [
    'nats://nats-1:4222',
    'nats://nats-2:4222',
    'nats://nats-3:4222',
  ]);
});
