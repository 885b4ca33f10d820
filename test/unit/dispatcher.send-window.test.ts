import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SendWindow, type SendWindowDeps } from '../../apps/dispatcher/src/send-window.ts';

/** An endpoint guard whose room and refusals the test sets; `free()` is a send ending. */
function endpoints(room: Record<string, number>, refusedUntil: Record<string, number> = {}) {
  const listeners: (() => void)[] = [];
  return {
    room: (environmentId: string) => room[environmentId] ?? 0,
    refusedUntil: (environmentId: string) => refusedUntil[environmentId] ?? null,
    onFreed: (listener: () => void) => void listeners.push(listener),
    free: () => listeners.forEach((listener) => listener()),
    set: (environmentId: string, places: number) => (room[environmentId] = places),
  };
}

/** A sender that records each chunk and leaves it running until the test ends it. */
function sender() {
  const chunks: { ids: string[]; sending: () => void; requeue: (ids: string[]) => void; end: (error?: Error) => void }[] = [];
  const send: SendWindowDeps['send'] = (ids, sending, requeue) =>
    new Promise<void>((resolve, reject) => chunks.push({ ids, sending, requeue, end: (error) => (error ? reject(error) : resolve()) }));
  return { chunks, send };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const deliveries = (environmentId: string, n: number) => Array.from({ length: n }, (_, i) => [`${environmentId}${i + 1}`, environmentId] as const);

test('an endpoint is handed what it has room for, less what was handed over and has not started sending', async () => {
  const guard = endpoints({ A: 3 });
  const { chunks, send } = sender();
  const window = new SendWindow({ endpoints: guard, send, putBack: () => {}, failed: () => {}, chunk: 2 });
  window.push(deliveries('A', 5));
  assert.deepEqual(
    chunks.map((c) => c.ids),
    [['A1', 'A2'], ['A3']],
    'room 3: two chunks, the second cut to what is left',
  );
  assert.equal(window.queued, 2);
  guard.set('A', 1); // the first chunk's two sends hold their places now: the guard counts them
  chunks[0]!.sending();
  assert.deepEqual(chunks.map((c) => c.ids).slice(2), [], 'A3 is still reserved: 1 - 1 = 0');
  chunks[1]!.sending();
  assert.deepEqual(chunks.map((c) => c.ids).slice(2), [['A4']]);
  assert.equal(window.running, 3);
});

test('a full window starts nothing more until a chunk ends; then the environments are taken in turn', async () => {
  const { chunks, send } = sender();
  const window = new SendWindow({ endpoints: endpoints({ A: 100, B: 100 }), send, putBack: () => {}, failed: () => {}, chunk: 1, window: 2 });
  window.push([...deliveries('A', 3), ...deliveries('B', 1)]);
  assert.deepEqual(
    chunks.map((c) => c.ids[0]),
    ['A1', 'B1'],
  );
  chunks[0]!.end();
  await tick();
  assert.deepEqual(
    chunks.map((c) => c.ids[0]),
    ['A1', 'B1', 'A2'],
  );
  assert.equal(window.queued, 1);
});

test("ids the sender puts back go to the owner's putBack with their environment; unshift sends them first", async () => {
  const back: [string, string[]][] = [];
  const { chunks, send } = sender();
  const window = new SendWindow({ endpoints: endpoints({ A: 2 }), send, putBack: (e, ids) => back.push([e, ids]), failed: () => {}, chunk: 2, window: 1 });
  window.push(deliveries('A', 3));
  chunks[0]!.requeue(['A2']);
  assert.deepEqual(back, [['A', ['A2']]]);
  window.unshift('A', ['A2']);
  chunks[0]!.end();
  await tick();
  assert.deepEqual(chunks[1]!.ids, ['A2', 'A3']);
});

test('a failed chunk is reported and frees its place in the window; settled waits for the last chunk', async () => {
  const failures: [string, string[]][] = [];
  const { chunks, send } = sender();
  const window = new SendWindow({
    endpoints: endpoints({ A: 1 }),
    send,
    putBack: () => {},
    failed: (e, ids) => failures.push([(e as Error).message, ids]),
    window: 1,
  });
  window.push(deliveries('A', 2));
  let settled = false;
  const done = window.settled().then(() => (settled = true));
  chunks[0]!.end(new Error('pool gone'));
  await tick();
  assert.deepEqual(failures, [['pool gone', ['A1']]]);
  assert.deepEqual(chunks[1]!.ids, ['A2'], 'the next chunk went');
  assert.equal(settled, false);
  window.stop();
  chunks[1]!.end();
  await done;
  assert.equal(window.running, 0);
});

test('an endpoint without room waits: a freed place sends it at once, a refusal wakes the window when it ends', async () => {
  const guard = endpoints({ A: 0, B: 0 }, { B: Date.now() + 30 });
  const { chunks, send } = sender();
  const window = new SendWindow({ endpoints: guard, send, putBack: () => {}, failed: () => {} });
  window.push([...deliveries('A', 1), ...deliveries('B', 1)]);
  assert.equal(chunks.length, 0);
  guard.set('A', 1);
  guard.free();
  assert.deepEqual(
    chunks.map((c) => c.ids),
    [['A1']],
  );
  guard.set('B', 1); // nobody frees a place of B: only the timer set for its refusal looks again
  await new Promise((resolve) => setTimeout(resolve, 80));
  assert.deepEqual(
    chunks.map((c) => c.ids),
    [['A1'], ['B1']],
  );
  window.stop();
});

test('after stop nothing starts; what waits can be taken out by environment', () => {
  const { chunks, send } = sender();
  const window = new SendWindow({ endpoints: endpoints({ A: 5, B: 5 }), send, putBack: () => {}, failed: () => {} });
  window.stop();
  window.push([...deliveries('A', 2), ...deliveries('B', 1)]);
  assert.equal(chunks.length, 0);
  assert.deepEqual([window.queued, window.has('A1'), window.environments], [3, true, ['A', 'B']]);
  assert.deepEqual(
    window.removeWhere((e) => e === 'A'),
    ['A1', 'A2'],
  );
  assert.equal(window.queued, 1);
});
