/**
 * Deciding a write's arrivals and departures (pure): a write that adds a user decides an arrival,
 * one that drops a user a departure, read against every other gateway's records once the reader
 * has caught up with the write. The user comes online unless another gateway has held them since
 * an earlier revision (of two first sockets racing on two gateways exactly one announces); goes
 * offline unless another gateway holds them. Whichever of two gateways writes last sees the
 * other's write, and its decision is the later (`at`, the write's revision: coalesce.ts).
 *
 * A write's entry changes (record-shard.ts) are announced by the gateway that wrote them, with the
 * user's arrival or departure when the write decided one, alone (`entryOnly`) otherwise. An entry
 * that leaves this gateway while another gateway's record still holds one for the user is
 * announced as an update to that one (the entry the roster shows from then on), and an enter
 * while another gateway holds one as an update (the user had an entry already).
 */
import type { PresenceRecordIndex } from './record-index.ts';
import type { RecordEntries, RecordUsers } from './record-codec.ts';
import type { EntryChange } from './record-shard.ts';

/** An entry as announced: entered or changed (data serialized), or left. */
export type EntryNews = { action: 'enter' | 'update'; data: string } | { action: 'leave' };

/** One user's decided change on a channel. */
export interface Decision {
  userId: string;
  online: boolean;
  /** The user's online state did not change (online stays true): only their entry did. */
  entryOnly?: true;
  entry?: EntryNews;
}

/** A record read from the bucket itself: the gateway that writes it, the revision of its value, its users. */
export interface StoredRecord {
  gateway: string;
  revision: number;
  users: RecordUsers;
  entries?: RecordEntries;
}

/** What one write changed: its arrivals, departures and entry changes, and its revision. */
export interface WriteChanges {
  arrived: readonly string[];
  departed: readonly string[];
  revision: number;
  entries?: readonly EntryChange[];
}

/** How the other gateways' records are read: held since before `before` (any, without it); their latest entry. */
interface Others {
  held(userId: string, before?: number): boolean;
  entry(userId: string): string | undefined;
}

function decide(others: Others, changes: WriteChanges): Decision[] {
  const entries = new Map((changes.entries ?? []).map((change) => [change.userId, change]));
  const news = (userId: string): EntryNews | undefined => {
    const change = entries.get(userId);
    if (!change) return undefined;
    entries.delete(userId);
    const kept = others.entry(userId);
    // the user's entry is per user: an enter while another gateway holds one changes its data
    if (change.action !== 'leave') return { action: kept === undefined ? change.action : 'update', data: change.data };
    return kept === undefined ? { action: 'leave' } : { action: 'update', data: kept };
  };
  const decided: Decision[] = [];
  const push = (userId: string, online: boolean, entryOnly: boolean, entry: EntryNews | undefined) => {
    const decision: Decision = { userId, online };
    if (entryOnly) decision.entryOnly = true;
    if (entry) decision.entry = entry;
    decided.push(decision);
  };
  for (const userId of changes.arrived) {
    const arrives = !others.held(userId, changes.revision);
    const entry = news(userId);
    if (arrives || entry) push(userId, true, !arrives, entry);
  }
  for (const userId of changes.departed) {
    const departs = !others.held(userId);
    const change = entries.get(userId);
    // gone from every gateway: its entry goes with it, nothing else can hold one
    const entry = departs ? (change ? (entries.delete(userId), { action: 'leave' as const }) : undefined) : news(userId);
    if (departs || entry) push(userId, !departs, !departs, entry);
  }
  for (const userId of [...entries.keys()]) push(userId, true, true, news(userId));
  return decided;
}

/**
 * From the index, once it has delivered the write at `revision` (record-index.ts `caughtUp`):
 * arrivals first, then departures, then entry changes alone, in the order given.
 */
export function decideFromIndex(index: PresenceRecordIndex, channel: string, gateway: string, changes: WriteChanges, now = Date.now()): Decision[] {
  return decide(
    {
      held: (userId, before) => index.heldElsewhere(channel, userId, gateway, before, now),
      entry: (userId) => index.entryElsewhere(channel, userId, gateway, now)?.data,
    },
    changes,
  );
}

/**
 * The same from the channel's records as the bucket holds them (the index's fallback while its
 * watcher lags or is gone): `others` are the records of every gateway but the deciding one. A
 * listing knows a record's latest revision, not since when it held a user, so an arrival is held
 * elsewhere when a record last written before our write holds the user (and an entry elsewhere is
 * the one of the latest such record).
 */
export function decideFromRecords(others: readonly StoredRecord[], changes: WriteChanges): Decision[] {
  return decide(
    {
      held: (userId, before = Number.POSITIVE_INFINITY) => others.some((record) => record.revision < before && record.users.has(userId)),
      entry: (userId) => {
        let latest: StoredRecord | undefined;
        for (const record of others) if (record.entries?.has(userId) && (!latest || record.revision > latest.revision)) latest = record;
        return latest?.entries?.get(userId);
      },
    },
    changes,
  );
}
