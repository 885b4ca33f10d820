import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { packRequests } from '../../apps/gateway/src/channels/owner-batcher.ts';

test('packRequests: order kept, every command once, each request within the count and byte bounds', () => {
  fc.assert(
    fc.property(
      fc.array(fc.string({ minLength: 1, maxLength: 300 }), { minLength: 1, maxLength: 400 }),
      fc.integer({ min: 1, max: 50 }),
      fc.integer({ min: 500, max: 5_000 }),
      (jsons, maxCount, maxBytes) => {
        const entries = jsons.map((json, i) => ({ json, i }));
        const requests = packRequests(entries, maxBytes, maxCount);
        assert.deepEqual(
          requests.flat().map((e) => e.i),
          entries.map((e) => e.i),
        );
        for (const request of requests) {
          assert.ok(request.length >= 1 && request.length <= maxCount);
          const bytes = Buffer.byteLength(`[${request.map((e) => e.json).join(',')}]`);
          // a request over the bound holds one command that is over it on its own
          if (bytes > maxBytes) assert.equal(request.length, 1);
        }
        // no needless split: each request but the last is full by count, or the next command would not fit
        for (let r = 0; r < requests.length - 1; r++) {
          const next = requests[r + 1]![0]!;
          const full = requests[r]!.length === maxCount;
          const size = 2 + requests[r]!.reduce((n, e) => n + e.json.length * 3 + 1, 0) + next.json.length * 3 + 1;
          assert.ok(full || size > maxBytes);
        }
      },
    ),
    { numRuns: 300 },
  );
});
