/**
 * Node bundles: several partitions' requests that go to the same channel-node in one bus message,
 * and their replies in one message back. A gateway sends a bundle when an event-loop turn holds
 * requests for two or more partitions that one node owns (libs/owner-client owner-batcher.ts); the node hands each
 * part to its partition's actor exactly as if it had come on the partition's subject, or forwards
 * it there when it no longer owns the partition (apps/channel-node/src/node-inbox.ts).
 *
 * A part's bytes are a partition request as it travels alone (one command or several, see
 * apps/channel-node/src/command-request.ts); a reply part's bytes are that request's reply. The
 * bundle never looks inside them.
 *
 * Request:  0xB1, u16 count, then per part: u16 partition, u32 length, bytes.
 * Reply:    0xB2, u16 count, then per part: u8 status, u32 length, bytes (empty unless answered).
 * Integers are big-endian. Status: ANSWERED (the bytes are the owner's reply), NOT_DELIVERED
 * (nobody owns the partition right now: nothing was done, the caller may send it again), or
 * TIMED_OUT (forwarded, no answer before the deadline: the outcome is unknown).
 */

/**
 * An empty message on a node's subject asks whether the node is there, and the node answers it
 * at once with an empty message (a node of the previous release answers it as a malformed
 * bundle: an answer all the same). No responders means the node's bus connection is gone, and
 * with it every bundle it had not answered: a gateway asks when another node claims one of the
 * node's partitions while bundles sent to it wait (libs/owner-client node-departures.ts).
 */
export const NODE_PROBE = new Uint8Array(0);

export function isNodeProbe(data: Uint8Array): boolean {
  return data.length === 0;
}

const REQUEST_MAGIC = 0xb1;
const REPLY_MAGIC = 0xb2;
/** Most parts in one bundle (a u16, and far more partitions than any cluster runs). */
export const MAX_BUNDLE_PARTS = 4096;

export const PART_STATUS = { ANSWERED: 0, NOT_DELIVERED: 1, TIMED_OUT: 2 } as const;
export type PartStatus = (typeof PART_STATUS)[keyof typeof PART_STATUS];

export interface BundlePart {
  partition: number;
  data: Uint8Array;
}

export interface ReplyPart {
  status: PartStatus;
  data: Uint8Array;
}

export class BundleError extends Error {
  override name = 'BundleError';
}

export function encodeBundle(parts: readonly BundlePart[]): Uint8Array {
  if (parts.length === 0 || parts.length > MAX_BUNDLE_PARTS) throw new RangeError(`a bundle holds 1-${MAX_BUNDLE_PARTS} parts`);
  return writeParts(REQUEST_MAGIC, parts, 2, (out, at, part) => out.writeUInt16BE(part.partition, at));
}

export function isBundle(data: Uint8Array): boolean {
  return data[0] === REQUEST_MAGIC;
}

/** The parts of a bundle; a malformed one throws BundleError. Parts are views, not copies. */
export function decodeBundle(data: Uint8Array): BundlePart[] {
  return readParts(data, REQUEST_MAGIC, 2, (view, at) => ({ partition: view.getUint16(at) })).map(({ head, data: bytes }) => ({
    partition: head.partition,
    data: bytes,
  }));
}

export function encodeBundleReply(parts: readonly ReplyPart[]): Uint8Array {
  return writeParts(REPLY_MAGIC, parts, 1, (out, at, part) => out.writeUInt8(part.status, at));
}

/** `magic`, u16 count, then per part: its `headBytes` (writeHead), u32 length, bytes. */
function writeParts<P extends { data: Uint8Array }>(
  magic: number,
  parts: readonly P[],
  headBytes: number,
  writeHead: (out: Buffer, at: number, part: P) => void,
): Uint8Array {
  let size = 3;
  for (const part of parts) size += headBytes + 4 + part.data.length;
  const out = Buffer.allocUnsafe(size);
  out[0] = magic;
  out.writeUInt16BE(parts.length, 1);
  let at = 3;
  for (const part of parts) {
    writeHead(out, at, part);
    out.writeUInt32BE(part.data.length, at + headBytes);
    out.set(part.data, at + headBytes + 4);
    at += headBytes + 4 + part.data.length;
  }
  return out;
}

export function decodeBundleReply(data: Uint8Array): ReplyPart[] {
  return readParts(data, REPLY_MAGIC, 1, (view, at) => {
    const status = view.getUint8(at);
    if (status !== PART_STATUS.ANSWERED && status !== PART_STATUS.NOT_DELIVERED && status !== PART_STATUS.TIMED_OUT) {
      throw new BundleError(`unknown part status ${status}`);
    }
    return { status: status as PartStatus };
  }).map(({ head, data: bytes }) => ({ status: head.status, data: bytes }));
}

/** Walks `count` parts of `headBytes` + u32 length + bytes each, checking every bound. */
function readParts<H>(data: Uint8Array, magic: number, headBytes: number, readHead: (view: DataView, at: number) => H): { head: H; data: Uint8Array }[] {
  if (data.length < 3 || data[0] !== magic) throw new BundleError('not a bundle');
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const count = view.getUint16(1);
  if (count === 0 || count > MAX_BUNDLE_PARTS) throw new BundleError(`a bundle holds 1-${MAX_BUNDLE_PARTS} parts`);
  const parts: { head: H; data: Uint8Array }[] = [];
  let at = 3;
  for (let i = 0; i < count; i++) {
    if (at + headBytes + 4 > data.length) throw new BundleError('the bundle ends inside a part header');
    const head = readHead(view, at);
    const length = view.getUint32(at + headBytes);
    const start = at + headBytes + 4;
    if (start + length > data.length) throw new BundleError('the bundle ends inside a part');
    parts.push({ head, data: data.subarray(start, start + length) });
    at = start + length;
  }
  if (at !== data.length) throw new BundleError('bytes after the last part');
  return parts;
}
