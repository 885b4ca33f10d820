/**
 * Deciding a write's arrivals and departures (pure): a write that adds a user decides an arrival,
 * one that drops a user a departure, read against every other gateway's records once the reader
 * has caught up with the write. The user comes online unless another gateway has held them since
 * an earlier revision (of two first sockets racing on two gateways exactly one announces); goes
 * offline unless another gateway holds them. Whichever of two gateways writes last sees the
 * other's write, and its decision is the later (`at`, the write's revision: coalesce.ts).
 */
import type { PresenceRecordIndex } from './record-index.ts';
import type { RecordUsers } from './record-codec.ts';

/** One user's decided change on a channel. */
export interface Decision {
  userId: string;
  online: boolean;
}

/** A record read from the bucket itself: the gateway that writes it, the revision of its value, its users. */
export interface StoredRecord {
  gateway: string;
  revision: number;
  users: RecordUsers;
}

/**
 * From the index, once it has delivered the write at `revision` (record-index.ts `caughtUp`):
 * arrivals first, then departures, in the order given.
 */
export function decideFromIndex(
  index: PresenceRecordIndex,
  channel: string,
  gateway: string,
  changes: { arrived: readonly string[]; departed: readonly string[]; revision: number },
  now = Date.now(),
): Decision[] {
  const decided: Decision[] = [];
  for (const userId of changes.arrived) {
    if (!index.heldElsewhere(channel, userId, gateway, changes.revision, now)) decided.push({ userId, online: true });
  }
  for (const userId of changes.departed) {
    if (!index.heldElsewhere(channel, userId, gateway, undefined, now)) decided.push({ userId, online: false });
  }
  return decided;
}

/**
 * The same from the channel's records as the bucket holds them (the index's fallback while its
 * watcher lags or is gone): `others` are the records of every gateway but the deciding one. A
 * listing knows a record's latest revision, not since when it held a user, so an arrival is held
 * elsewhere when a record last written before our write holds the user.
 */
export function decideFromRecords(
  others: readonly StoredRecord[],
  changes: { arrived: readonly string[]; departed: readonly string[]; revision: number },
): Decision[] {
  const decided: Decision[] = [];
  for (const userId of changes.arrived) {
    if (!others.some((record) => record.revision < changes.revision && record.users.has(userId))) decided.push({ userId, online: true });
  }
  for (const userId of changes.departed) {
    if (!others.some((record) => record.users.has(userId))) decided.push({ userId, online: false });
  }
  return decided;
}
