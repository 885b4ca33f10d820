import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stopOutcome, UNCLEAN_STOP_EXIT, watchParent } from '../../scripts/supervisor.ts';

test('supervisor - a stop where every child exited 0 ends 0 with nothing to report', () => {
  const outcome = stopOutcome(0, [
    { name: 'gateway', code: 0, signal: null },
    { name: 'dispatcher', code: 0, signal: null },
  ]);
  assert.deepEqual(outcome, { code: 0, problems: [] });
});

test('supervisor - a child ended by a signal during stop is named and the stop ends non-zero', () => {
  const outcome = stopOutcome(0, [
    { name: 'gateway', code: 0, signal: null },
    { name: 'channel-node', code: null, signal: 'SIGTERM' },
    { name: 'dispatcher', code: null, signal: 'SIGKILL' },
  ]);
  assert.equal(outcome.code, UNCLEAN_STOP_EXIT);
  assert.notEqual(UNCLEAN_STOP_EXIT, 0);
  assert.deepEqual(
    outcome.problems.map((p) => p.name),
    ['channel-node', 'dispatcher'],
  );
  assert.match(outcome.problems[0]!.line, /SIGTERM.*did not drain/);
  assert.match(outcome.problems[1]!.line, /SIGKILL.*did not drain/);
});

test('supervisor - a child that exited non-zero during stop is reported too', () => {
  const outcome = stopOutcome(0, [{ name: 'dispatcher', code: 1, signal: null }]);
  assert.equal(outcome.code, UNCLEAN_STOP_EXIT);
  assert.match(outcome.problems[0]!.line, /code 1/);
});

test('supervisor - the code a stop was asked for (78, a configuration error) is kept', () => {
  assert.equal(stopOutcome(78, []).code, 78);
  assert.equal(stopOutcome(78, [{ name: 'gateway', code: null, signal: 'SIGTERM' }]).code, 78);
});

test('supervisor - watchParent calls back once when the parent process id changes, not before', async () => {
  let ppid = 4242;
  let calls = 0;
  let resolveGone!: () => void;
  const gone = new Promise<void>((resolve) => (resolveGone = resolve));
  let checks = 0;
  // the watcher's timer does not keep a process alive (by design): this one does, for the test
  const keepAlive = setInterval(() => {}, 1_000);
  const stop = watchParent(
    () => {
      calls += 1;
      resolveGone();
    },
    {
      intervalMs: 1,
      ppid: () => {
        checks += 1;
        // the parent stays for a few checks, then the process is adopted (by init)
        if (checks === 5) ppid = 1;
        return ppid;
      },
    },
  );
  await gone;
  assert.ok(checks >= 5, 'not called while the parent was the same');
  // more intervals pass: no second call
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal(calls, 1);
  stop();
  clearInterval(keepAlive);
});
