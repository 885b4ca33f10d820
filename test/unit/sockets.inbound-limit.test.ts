import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { InboundLimit } from '../../libs/edge/src/sockets/inbound-limit.ts';

const rates = { framesPerSecond: 50, bytesPerSecond: 1_000_000 };

test('sockets - inbound limit: a burst of one second is admitted, the next frame is not', () => {
  const limit = new InboundLimit(rates, 0);
  for (let i = 0; i < 50; i++) assert.equal(limit.admit(10, 0), true);
  assert.equal(limit.admit(10, 0), false);
  assert.equal(limit.admit(10, 20), true, 'one frame refilled after 20 ms at 50/s');
});

test('sockets - inbound limit: bytes are limited as well as frames, and a refused frame takes nothing', () => {
  const limit = new InboundLimit(rates, 0);
  assert.equal(limit.admit(900_000, 0), true);
  assert.equal(limit.admit(200_000, 0), false);
  assert.equal(limit.admit(100_000, 0), true);
});

test('sockets - inbound limit: over any window of T seconds at most rate × (T + 1) is admitted', () => {
  fc.assert(
    fc.property(fc.array(fc.record({ gap: fc.integer({ min: 0, max: 100 }), size: fc.integer({ min: 0, max: 200_000 }) }), { maxLength: 400 }), (arrivals) => {
      const limit = new InboundLimit(rates, 0);
      let now = 0;
      let frames = 0;
      let bytes = 0;
      for (const { gap, size } of arrivals) {
        now += gap;
        if (limit.admit(size, now)) {
          frames++;
          bytes += size;
        }
      }
      const seconds = now / 1000;
      assert.ok(frames <= rates.framesPerSecond * (seconds + 1) + 1e-9);
      assert.ok(bytes <= rates.bytesPerSecond * (seconds + 1) + 1e-9);
    }),
    { numRuns: 300 },
  );
});

test('sockets - inbound limit: a client at or under both rates is never refused', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 20, max: 1000 }), { maxLength: 300 }), (gaps) => {
      const limit = new InboundLimit(rates, 0);
      let now = 0;
      // at most 50 frames/s (a gap of at least 20 ms) of at most 20,000 bytes (1 MB/s at 50/s)
      for (const gap of gaps) {
        now += gap;
        assert.equal(limit.admit(20_000, now), true);
      }
    }),
    { numRuns: 300 },
  );
});
