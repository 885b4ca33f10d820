/**
 * The binary form of a Postgres json[]/text[] (libs/db binary-array.ts), which carries every
 * content of a commit in one parameter: the layout Postgres's array_recv reads, each value's
 * bytes unchanged behind its UTF-8 length, nulls as -1, and the empty array as Postgres sends it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ARRAY_ELEMENT_OID, binaryTextArray } from '../../libs/db/src/binary-array.ts';
import { readBinaryTextArray } from '../helpers/binary-array.ts';

test('binary array: the layout array_recv reads, byte for byte', () => {
  const bytes = binaryTextArray(ARRAY_ELEMENT_OID.json, ['{"a":1}', null, Buffer.from('{"é":2}')]);
  const int = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
  const expected = Buffer.from([
    ...int(1), // one dimension
    ...int(1), // it holds a null
    ...int(114), // of json
    ...int(3), // three elements
    ...int(1), // from index 1
    ...int(7),
    ...Buffer.from('{"a":1}'),
    ...int(-1),
    ...int(8),
    ...Buffer.from('{"é":2}'), // é is two bytes
  ]);
  assert.deepEqual([...bytes], [...expected]);
  assert.deepEqual([...binaryTextArray(ARRAY_ELEMENT_OID.text, [])], [...int(0), ...int(0), ...int(25)], 'empty: no dimension, as Postgres sends one');
  assert.equal(binaryTextArray(ARRAY_ELEMENT_OID.text, ['']).readInt32BE(20), 0, 'an empty string has length 0, not null');
});

test('binary array: every value comes back as it went in, given as text or as its bytes', () => {
  const value = fc.option(fc.string({ unit: 'grapheme', maxLength: 40 }), { nil: null });
  fc.assert(
    fc.property(fc.array(value, { maxLength: 30 }), fc.array(fc.boolean(), { maxLength: 30 }), (values, asBytes) => {
      const given = values.map((v, i) => (v !== null && asBytes[i] ? Buffer.from(v, 'utf8') : v));
      const bytes = binaryTextArray(ARRAY_ELEMENT_OID.json, given);
      const read = readBinaryTextArray(bytes);
      assert.equal(read.elementOid, ARRAY_ELEMENT_OID.json);
      assert.deepEqual(read.values, values);
      assert.equal(bytes.readInt32BE(4), values.includes(null) ? 1 : 0, 'the null flag says whether any is null');
    }),
  );
});
