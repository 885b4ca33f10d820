import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { frameRequest } from '@rtm/schemas';
import { packRequests } from '../../libs/owner-client/src/owner-batcher.ts';

test('packRequests: order kept, every command once, each request within the count and byte bounds', () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 1, max: 900 }), { minLength: 1, maxLength: 400 }),
      fc.integer({ min: 1, max: 50 }),
      fc.integer({ min: 500, max: 5_000 }),
      (sizes, maxCount, maxBytes) => {
        const entries = sizes.map((size, i) => ({ command: new Uint8Array(size), i }));
        const requests = packRequests(entries, maxBytes, maxCount);
        assert.deepEqual(
          requests.flat().map((e) => e.i),
          entries.map((e) => e.i),
        );
        for (const request of requests) {
          assert.ok(request.length >= 1 && request.length <= maxCount);
          const bytes = frameRequest(request.map((e) => e.command)).length;
          // a request over the bound holds one command that is over it on its own
          if (bytes > maxBytes) assert.equal(request.length, 1);
        }
        // no needless split: each request but the last is full by count, or the next command would not fit
        for (let r = 0; r < requests.length - 1; r++) {
          const next = requests[r + 1]![0]!;
          const full = requests[r]!.length === maxCount;
          const size = frameRequest([...requests[r]!, next].map((e) => e.command)).length;
          assert.ok(full || size > maxBytes);
        }
      },
    ),
    { numRuns: 300 },
  );
});
