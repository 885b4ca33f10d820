import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { encodeRandom, newId } from '../../libs/db/src/ids.ts';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** The definition: the 80 bits as one big number, 5 bits per digit, most significant first. */
function reference(bytes: Uint8Array): string {
  let bits = 0n;
  for (const byte of bytes) bits = (bits << 8n) | BigInt(byte);
  let out = '';
  for (let i = 0; i < 16; i++) {
    out = ALPHABET[Number(bits & 31n)] + out;
    bits >>= 5n;
  }
  return out;
}

test('encodeRandom: 80 bits as 16 Crockford base32 digits, as the big-number definition gives', () => {
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 10, maxLength: 10 }), (bytes) => {
      assert.equal(encodeRandom(bytes), reference(bytes));
    }),
    { numRuns: 2_000 },
  );
  assert.equal(encodeRandom(new Uint8Array(10)), '0'.repeat(16));
  assert.equal(encodeRandom(new Uint8Array(10).fill(255)), 'z'.repeat(16));
});

test('newId: ids made one after another sort in the order they were made', () => {
  const ids = Array.from({ length: 5_000 }, () => newId('msg'));
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids).size, ids.length);
  assert.match(ids[0]!, /^msg_[0-9a-hjkmnp-tv-z]{26}$/);
});
