/**
 * Reads an array in Postgres's binary wire format (libs/db binary-array.ts writes them): its
 * element type and each element's text, null as null. For tests that look at a statement's
 * parameters as Postgres would.
 */
export function readBinaryTextArray(bytes: Uint8Array): { elementOid: number; values: (string | null)[] } {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ndim = b.readInt32BE(0);
  const elementOid = b.readInt32BE(8);
  if (ndim === 0) {
    if (b.length !== 12) throw new Error('bytes after an empty array');
    return { elementOid, values: [] };
  }
  if (ndim !== 1 || b.readInt32BE(16) !== 1) throw new Error('not a one-dimensional array from 1');
  const count = b.readInt32BE(12);
  const values: (string | null)[] = [];
  let at = 20;
  for (let i = 0; i < count; i++) {
    const length = b.readInt32BE(at);
    at += 4;
    if (length < 0) {
      values.push(null);
      continue;
    }
    if (at + length > b.length) throw new Error('an element runs past the end');
    values.push(b.toString('utf8', at, at + length));
    at += length;
  }
  if (at !== b.length) throw new Error('bytes left over after the last element');
  return { elementOid, values };
}
