import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EndpointQueues } from '../../apps/dispatcher/src/endpoint-queues.ts';

const everyone = () => 16;

test('environments are served in turns, each up to its room and the chunk size, in arrival order', () => {
  const queues = new EndpointQueues();
  queues.push([
    ['a1', 'A'],
    ['a2', 'A'],
    ['a3', 'A'],
    ['b1', 'B'],
    ['c1', 'C'],
    ['a4', 'A'],
  ]);
  assert.equal(queues.size, 6);
  assert.deepEqual(queues.next(everyone, 2), { environmentId: 'A', ids: ['a1', 'a2'] });
  assert.deepEqual(queues.next(everyone, 2), { environmentId: 'B', ids: ['b1'] });
  // then A's rest and C, one turn each
  const rest = [queues.next(everyone, 2), queues.next(everyone, 2)].sort((x, y) => x!.environmentId.localeCompare(y!.environmentId));
  assert.deepEqual(rest, [
    { environmentId: 'A', ids: ['a3', 'a4'] },
    { environmentId: 'C', ids: ['c1'] },
  ]);
  assert.equal(queues.next(everyone, 2), undefined);
  assert.equal(queues.size, 0);
});

test('an environment without room is passed over without losing its place, and gives only what fits', () => {
  const queues = new EndpointQueues();
  queues.push([
    ['h1', 'hanging'],
    ['h2', 'hanging'],
    ['q1', 'quiet'],
    ['q2', 'quiet'],
    ['q3', 'quiet'],
  ]);
  const room = (environmentId: string) => (environmentId === 'hanging' ? 0 : 2);
  assert.deepEqual(queues.next(room, 16), { environmentId: 'quiet', ids: ['q1', 'q2'] });
  assert.deepEqual(queues.next(room, 16), { environmentId: 'quiet', ids: ['q3'] });
  assert.equal(queues.next(room, 16), undefined);
  assert.deepEqual(queues.environments, ['hanging']);
  assert.deepEqual(queues.next(everyone, 16), { environmentId: 'hanging', ids: ['h1', 'h2'] });
});

test('an id waits once; one put back goes first; removing by environment returns what waited', () => {
  const queues = new EndpointQueues();
  queues.push([
    ['x1', 'X'],
    ['x1', 'X'],
    ['x2', 'X'],
    ['y1', 'Y'],
  ]);
  assert.equal(queues.size, 3);
  assert.equal(queues.has('x1'), true);
  const taken = queues.next(everyone, 1)!;
  assert.deepEqual(taken, { environmentId: 'X', ids: ['x1'] });
  assert.equal(queues.has('x1'), false);
  queues.unshift('X', ['x1', 'x2']);
  assert.equal(queues.size, 3, 'x2 was still waiting: not twice');
  queues.unshift('Z', []);
  assert.deepEqual(queues.environments, ['X', 'Y'], 'nothing put back: no empty queue');
  assert.deepEqual(
    queues.removeWhere((environmentId) => environmentId === 'X'),
    ['x1', 'x2'],
  );
  assert.deepEqual([queues.size, queues.has('x2'), queues.environments], [1, false, ['Y']]);
});

test('a long backlog taken in chunks, with ids put back between, keeps its order and loses nothing', () => {
  const queues = new EndpointQueues();
  const ids = Array.from({ length: 5_000 }, (_, i) => `d${i}`);
  queues.push(ids.map((id) => [id, 'A'] as const));
  const taken: string[] = [];
  for (let turn = 0; ; turn++) {
    const chunk = queues.next(everyone, 16);
    if (!chunk) break;
    // every third chunk comes back whole once (no room after all) and goes again in the next turn
    if (turn % 3 === 0 && !chunk.ids[0]!.endsWith('!')) {
      queues.unshift('A', chunk.ids);
      const again = queues.next(everyone, 16)!;
      assert.deepEqual(again.ids, chunk.ids, 'put back at the front');
    }
    taken.push(...chunk.ids);
    if (turn === 200) queues.removeWhere(() => false);
  }
  assert.deepEqual(taken, ids);
  assert.equal(queues.size, 0);
});

test('ids put back in front of a partly taken backlog come first, then the rest in order; a removal answers what waited', () => {
  const queues = new EndpointQueues();
  queues.push(Array.from({ length: 3_000 }, (_, i) => [`d${i}`, 'A'] as const));
  for (let i = 0; i < 100; i++) queues.next(everyone, 16); // 1,600 taken: past the point where read ids are let go
  queues.unshift('A', ['d0', 'd1']);
  assert.deepEqual(queues.next(everyone, 4)!.ids, ['d0', 'd1', 'd1600', 'd1601']);
  const rest = queues.removeWhere((environmentId) => environmentId === 'A');
  assert.equal(rest.length, 3_000 - 1_602);
  assert.equal(rest[0], 'd1602');
  assert.equal(queues.size, 0);
});
