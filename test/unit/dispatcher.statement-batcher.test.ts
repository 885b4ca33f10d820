import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatementBatcher } from '../../apps/dispatcher/src/statement-batcher.ts';

/** A statement runner whose statements end when the test says. */
function controlled() {
  const statements: { items: number[]; end: (error?: Error) => void }[] = [];
  const run = (items: number[]) =>
    new Promise<number[]>((resolve, reject) => statements.push({ items, end: (error) => (error ? reject(error) : resolve(items.map((i) => i * 10))) }));
  return { statements, run };
}
const tick = () => new Promise((resolve) => setImmediate(resolve));

test('at rest an item goes at once; while statements run, callers wait and leave together', async () => {
  const { statements, run } = controlled();
  const batcher = new StatementBatcher(run, { concurrency: 1, maxItems: 100 });
  const first = batcher.add([1]);
  assert.deepEqual(
    statements.map((s) => s.items),
    [[1]],
    'the first item goes without waiting for company',
  );
  const second = batcher.add([2, 3]);
  const third = batcher.add([4]);
  assert.equal(statements.length, 1, 'nothing more runs while the one statement allowed runs');
  assert.equal(batcher.pending, 3);
  statements[0]!.end();
  assert.deepEqual(await first, [10]);
  await tick();
  assert.deepEqual(
    statements.map((s) => s.items),
    [[1], [2, 3, 4]],
    'the waiting callers share the next statement',
  );
  statements[1]!.end();
  assert.deepEqual(await second, [20, 30, 40]);
  assert.deepEqual(await third, [20, 30, 40]);
});

test('a statement carries whole callers up to maxItems, and never more than `concurrency` run at once', async () => {
  const { statements, run } = controlled();
  const batcher = new StatementBatcher(run, { concurrency: 2, maxItems: 4 });
  const all = [batcher.add([1]), batcher.add([2]), batcher.add([3, 4, 5]), batcher.add([6]), batcher.add([7, 8, 9, 10, 11])];
  assert.deepEqual(
    statements.map((s) => s.items),
    [[1], [2]],
  );
  statements[0]!.end();
  await tick();
  assert.deepEqual(statements.map((s) => s.items).slice(2), [[3, 4, 5, 6]], 'callers are not split; 4 items at most');
  statements[1]!.end();
  await tick();
  assert.deepEqual(statements.map((s) => s.items).slice(3), [[7, 8, 9, 10, 11]], 'a caller larger than maxItems still goes, alone');
  statements[2]!.end();
  statements[3]!.end();
  await Promise.all(all);
});

test('a failed statement rejects every caller it carried, and the next statement still runs', async () => {
  const { statements, run } = controlled();
  const batcher = new StatementBatcher(run, { concurrency: 1, maxItems: 100 });
  const first = batcher.add([1]);
  const second = batcher.add([2]);
  const third = batcher.add([3]);
  statements[0]!.end();
  await first;
  await tick();
  statements[1]!.end(new Error('connection lost'));
  await assert.rejects(second, /connection lost/);
  await assert.rejects(third, /connection lost/);
  const fourth = batcher.add([4]);
  statements[2]!.end();
  assert.deepEqual(await fourth, [40]);
});

test('share hands a taken result to the first caller that asked for it only', async () => {
  const statements: { items: string[]; end: () => void }[] = [];
  const batcher = new StatementBatcher<string, Map<string, string>, string[]>(
    (ids) => new Promise((resolve) => statements.push({ items: ids, end: () => resolve(new Map(ids.map((id) => [id, `row ${id}`]))) })),
    {
      concurrency: 1,
      maxItems: 100,
      share: (rows, ids) =>
        ids.flatMap((id) => {
          const row = rows.get(id);
          rows.delete(id);
          return row === undefined ? [] : [row];
        }),
    },
  );
  const blocker = batcher.add(['x']);
  const a = batcher.add(['a', 'b']);
  const b = batcher.add(['b', 'c']);
  statements[0]!.end();
  await blocker;
  await tick();
  statements[1]!.end();
  assert.deepEqual(await a, ['row a', 'row b']);
  assert.deepEqual(await b, ['row c'], "'b' was asked for twice in one statement and goes to one caller");
});

test('with gatherMs, an item waits until the first is that old, unless maxItems are waiting', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
  const { statements, run } = controlled();
  const batcher = new StatementBatcher(run, { concurrency: 2, maxItems: 3, gatherMs: 5 });
  const first = batcher.add([1]);
  batcher.add([2]);
  assert.equal(statements.length, 0, 'nothing goes before the first item is 5 ms old');
  t.mock.timers.tick(5);
  assert.deepEqual(
    statements.map((s) => s.items),
    [[1, 2]],
    'then the two gathered go in one statement',
  );
  batcher.add([3]);
  assert.equal(statements.length, 1, 'a new gathering waits again');
  batcher.add([4, 5]);
  assert.deepEqual(statements.map((s) => s.items).slice(1), [[3, 4, 5]], 'maxItems waiting: it goes at once');
  batcher.add([6]);
  assert.equal(statements.length, 2);
  statements[0]!.end();
  assert.deepEqual(await first, [10, 20]);
  await tick();
  assert.equal(statements.length, 2, 'a place is free, but [6] gathers first');
  t.mock.timers.tick(5);
  assert.deepEqual(statements.map((s) => s.items).slice(2), [[6]]);
});
