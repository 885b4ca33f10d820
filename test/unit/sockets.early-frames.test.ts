/**
 * Frames sent before a socket is open (sockets/early-frames.ts): held in arrival order, refused
 * past MAX_EARLY_FRAMES or MAX_EARLY_BYTES, and live once released.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EarlyFrames, MAX_EARLY_BYTES, MAX_EARLY_FRAMES } from '../../libs/edge/src/sockets/early-frames.ts';

test('early frames: held in order, handed over on release, live afterwards', () => {
  const early = new EarlyFrames();
  assert.equal(early.hold(Buffer.from('a'), false), 'held');
  assert.equal(early.hold(Buffer.from('b'), true), 'held');
  assert.deepEqual(early.next(), [Buffer.from('a'), false]);
  assert.equal(early.hold(Buffer.from('c'), false), 'held', 'frames arriving while earlier ones are handled queue behind them');
  assert.deepEqual(
    early.release().map(([data]) => data.toString()),
    ['b', 'c'],
  );
  assert.equal(early.hold(Buffer.from('d'), false), 'live');
  assert.equal(early.next(), undefined);
});

test('early frames: too many or too large is over the limit', () => {
  const many = new EarlyFrames();
  for (let i = 0; i < MAX_EARLY_FRAMES; i++) assert.equal(many.hold(Buffer.from('x'), false), 'held');
  assert.equal(many.hold(Buffer.from('x'), false), 'over');
  const large = new EarlyFrames();
  assert.equal(large.hold(Buffer.alloc(MAX_EARLY_BYTES), false), 'held');
  assert.equal(large.hold(Buffer.alloc(1), false), 'over');
});
