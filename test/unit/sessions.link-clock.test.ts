import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Deadline, Deadlines, LinkClock } from '../../libs/edge/src/sessions/deadlines.ts';
import { SOCKET_CLOSE, type Closing } from '../../libs/edge/src/sockets/close-codes.ts';

/** One link's clock on a hand-driven process timer; `advance` runs what is due and returns what the clock said. */
function harness(handshakeMs: number, beatMs: number) {
  const time = { now: 1_000 };
  const said: (Closing | boolean)[] = [];
  let clock: LinkClock<string> | undefined;
  const deadlines = new Deadlines<string>(
    () => said.push(clock!.due(time.now)),
    () => time.now,
  );
  const entry = new Deadline('link', 0);
  clock = new LinkClock(deadlines, entry, handshakeMs, beatMs, time.now);
  const advance = (to: number) => {
    time.now = to;
    said.length = 0;
    deadlines.runDue();
    return [...said];
  };
  return { clock, entry, advance };
}

test('sessions - link clock: an unfinished handshake closes the link at its deadline, before any heartbeat', () => {
  const { entry, advance } = harness(500, 2_000);
  assert.equal(entry.at, 1_500);
  assert.deepEqual(advance(1_499), []);
  assert.deepEqual(advance(1_500), [SOCKET_CLOSE.handshakeTimeout]);
  assert.equal(entry.scheduled, false, 'a broken rule leaves the entry off the timer');
});

test('sessions - link clock: once established, only heartbeats come, each counted from the last', () => {
  const { clock, entry, advance } = harness(500, 2_000);
  clock.established();
  assert.equal(entry.at, 3_000);
  assert.deepEqual(advance(2_000), []);
  assert.deepEqual(advance(3_100), [true]);
  assert.equal(entry.at, 5_100);
  assert.deepEqual(advance(5_100), [true]);
});

test('sessions - link clock: a token expiry earlier than the heartbeat closes with token expired; one already past is refused', () => {
  const { clock, entry, advance } = harness(500, 10_000);
  clock.established();
  assert.equal(clock.expireAt(new Date(900), 1_000), false, 'an expiry already past is not watched');
  assert.equal(entry.at, 11_000);
  assert.equal(clock.expireAt(new Date(4_000), 1_000), true);
  assert.equal(entry.at, 4_000);
  assert.deepEqual(advance(4_000), [SOCKET_CLOSE.tokenExpired]);
});

test('sessions - link clock: a token expiring before the handshake deadline wins; clear takes the link off the timer', () => {
  const { clock, entry, advance } = harness(5_000, 10_000);
  clock.expireAt(new Date(2_000), 1_000);
  assert.equal(entry.at, 2_000);
  clock.clear();
  assert.equal(entry.scheduled, false);
  assert.deepEqual(advance(20_000), []);
});
