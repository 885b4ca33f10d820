import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import { paceUpgrades } from '../../apps/gateway/src/http/upgrade-pacing.ts';

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A socket as the pacer sees one: an emitter that can be destroyed. */
class FakeSocket extends EventEmitter {
  destroyed = false;
  readonly n: number;
  constructor(n: number) {
    super();
    this.n = n;
  }
}

function pacedServer(perTurn: number) {
  const server = new EventEmitter();
  const taken: number[] = [];
  server.on('upgrade', (_request: unknown, socket: FakeSocket) => taken.push(socket.n));
  paceUpgrades(server as unknown as Server, perTurn);
  const upgrade = (socket: FakeSocket) => server.emit('upgrade', {}, socket, Buffer.alloc(0));
  return { server, taken, upgrade };
}

test('upgrade pacing: a burst of upgrades is taken a few per turn, in order, none in the turn that read it', async () => {
  const { taken, upgrade } = pacedServer(4);
  for (let n = 0; n < 18; n++) upgrade(new FakeSocket(n));
  assert.deepEqual(taken, [], 'nothing is taken in the poll phase that read the burst');
  const perTurn: number[] = [];
  while (taken.length < 18) {
    const before = taken.length;
    await turn();
    perTurn.push(taken.length - before);
  }
  assert.ok(
    perTurn.every((n) => n <= 4),
    `taken per turn: ${perTurn.join(', ')}`,
  );
  assert.deepEqual(taken, [...Array(18).keys()]);
});

test('upgrade pacing: a socket gone while it waited is dropped, and its error while waiting is not uncaught', async () => {
  const { server, taken, upgrade } = pacedServer(4);
  const gone = new FakeSocket(1);
  upgrade(new FakeSocket(0));
  upgrade(gone);
  upgrade(new FakeSocket(2));
  // a reset while waiting: an 'error' event with no listener would throw here
  gone.emit('error', new Error('read ECONNRESET'));
  gone.destroyed = true;
  for (let i = 0; i < 3; i++) await turn();
  assert.deepEqual(taken, [0, 2]);
  assert.equal(server.listenerCount('upgrade'), 1, 'one listener: the pacer');
  assert.equal(gone.listenerCount('error'), 0, 'the waiting guard is removed when its turn comes');
});
