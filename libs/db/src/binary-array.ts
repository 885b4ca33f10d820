/**
 * A one-dimensional Postgres array of text-like values (json, text) in the binary wire format,
 * so a statement can take many values in ONE parameter without the text form's cost: the text
 * form (`{"…","…"}`) escapes every quote and backslash of every value on our side (pg's
 * arrayString: JSON is full of quotes) and Postgres parses the literal back, whereas here each
 * value is copied in as its UTF-8 bytes behind its length, and Postgres reads each one with the
 * element type's receive function (json_recv validates and stores the text as it is: key order,
 * spacing and escapes are kept, as with a text value cast to json).
 *
 * node-postgres sends a Buffer parameter in binary format: the statement must say the array's
 * type (`$n::json[]`), and that type's element must be `elementOid`, or Postgres refuses it.
 *
 * Layout (array_send): ndim, has-nulls flag, element type oid, then per dimension its length
 * and lower bound (1), then per element its length (-1 for null) and its bytes; all integers
 * are int32, big-endian. An empty array has no dimension.
 */

/** Element type oids of the arrays this builds (pg_type). */
export const ARRAY_ELEMENT_OID = { text: 25, json: 114 } as const;

/**
 * The binary form of a `json[]` or `text[]` (by `elementOid`) holding `values` in order: a
 * string is written as its UTF-8 bytes, a Uint8Array (already UTF-8) copied as it is, null as
 * SQL null.
 */
export function binaryTextArray(elementOid: number, values: readonly (string | Uint8Array | null)[]): Buffer {
  const lengths = new Array<number>(values.length);
  let hasNull = 0;
  let total = values.length === 0 ? 12 : 20;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    const length = value === null || value === undefined ? -1 : typeof value === 'string' ? Buffer.byteLength(value, 'utf8') : value.length;
    if (length < 0) hasNull = 1;
    lengths[i] = length;
    total += 4 + Math.max(length, 0);
  }
  const bytes = Buffer.allocUnsafe(total);
  bytes.writeInt32BE(values.length === 0 ? 0 : 1, 0);
  bytes.writeInt32BE(hasNull, 4);
  bytes.writeInt32BE(elementOid, 8);
  if (values.length === 0) return bytes;
  bytes.writeInt32BE(values.length, 12);
  bytes.writeInt32BE(1, 16);
  let at = 20;
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    const length = lengths[i]!;
    bytes.writeInt32BE(length, at);
    at += 4;
    if (length <= 0) continue;
    if (typeof value === 'string') bytes.write(value, at, length, 'utf8');
    else bytes.set(value!, at);
    at += length;
  }
  return bytes;
}
