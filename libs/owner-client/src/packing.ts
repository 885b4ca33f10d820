/**
 * How one turn's commands are cut into bus messages (owner-batcher.ts): a partition's commands
 * into requests, a node's requests into bundles, each in order and under the server's message
 * size limit. Pure.
 */
import { MAX_BUNDLE_PARTS } from '@rtm/bus';

/** Most commands in one partition request. */
export const MAX_PER_REQUEST = 256;

/**
 * Splits one subject's commands (in order) into requests: at most `maxCount` commands and
 * `maxBytes` bytes each (a command larger than `maxBytes` goes alone). Pure.
 */
export function packRequests<T extends { command: Uint8Array }>(entries: readonly T[], maxBytes: number, maxCount: number): T[][] {
  // a request's version byte and count, then the commands as they are
  return packInOrder(entries, (entry) => entry.command.length, 3, maxBytes, maxCount);
}

/**
 * Splits `items` (in order) into groups of at most `maxCount` items and `maxBytes` bytes, each
 * group costing `overhead` bytes and each item `sizeOf(item)`; an item larger than the bound goes
 * alone. Pure.
 */
function packInOrder<T>(items: readonly T[], sizeOf: (item: T) => number, overhead: number, maxBytes: number, maxCount: number): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  let bytes = overhead;
  for (const item of items) {
    const size = sizeOf(item);
    if (current.length > 0 && (current.length >= maxCount || bytes + size > maxBytes)) {
      groups.push(current);
      current = [];
      bytes = overhead;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/** Splits one node's units (in order) into bundles of at most `maxBytes`. Pure. */
export function packBundles<T extends { payload: Uint8Array }>(units: readonly T[], maxBytes: number): T[][] {
  // a bundle's magic byte and count, then each part's partition and length before its bytes
  return packInOrder(units, (unit) => 6 + unit.payload.length, 3, maxBytes, MAX_BUNDLE_PARTS);
}
