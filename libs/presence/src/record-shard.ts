/**
 * One gateway's part of one presence record (record-codec.ts): its users there now, what the
 * bucket holds of it, and when the next write may go. Pure state; the gateway's presence runs the
 * timer and the write.
 *
 * A user's arrival or departure only marks the shard: a busy shard is written at most every
 * RECORD_SPACING_MS (a quiet one at once, up to RECORD_BURST writes in a row), so a storm of
 * arrivals costs a few writes per shard, not one per user. A write takes the users as they are
 * then; its arrivals and departures are the users who came or went since the last write and whose
 * presence in the bucket it changes. A failed write puts them back, to be decided with the next.
 *
 * Presence entries (`presence-enter`, `-update`, `-leave`) are kept per holder (a subscription):
 * the user's entry here is the one of their holder that entered or updated last, and it goes when
 * their last entered holder leaves or closes. An entry change marks the shard the same way; a
 * write's entry changes are the users whose entry differs from the one the bucket holds.
 */
import { encodeRecord, type RecordEntries, type RecordUsers } from './record-codec.ts';

/**
 * A busy shard is written at most once per this interval: arrivals and departures in between
 * share one write (and every gateway's watcher decodes it). A quarter of a second, like the
 * presence frame windows. A quiet shard writes at once, up to RECORD_BURST writes in a row (so a
 * user who comes and goes is shown gone at once, not a quarter of a second later).
 */
export const RECORD_SPACING_MS = 250;
export const RECORD_BURST = 2;
/** A write that failed is tried again after this long. */
export const RETRY_MS = 1_000;
/**
 * The most entry data one record carries (bytes of the entries' JSON): half of NATS's default
 * 1 MB message limit, so the users beside it (~30 bytes each) still fit. An enter past it is
 * refused: a record over the limit could not be written at all, and would age out with every
 * user of its shard. 32 shards: 16 MiB of entries per channel per gateway (16,000 users at 1 KiB).
 */
export const RECORD_ENTRY_BYTES_MAX = 512 * 1024;

/** One user's entry as a write changes it: entered (data serialized), changed its data, or left. */
export type EntryChange = { userId: string; action: 'enter' | 'update'; data: string } | { userId: string; action: 'leave' };

/** What one write of a shard puts in the bucket, and what it changes there. */
export interface ShardWrite {
  value: Uint8Array;
  /** Users the write puts in the bucket's record (they were not in the last successful write). */
  arrived: string[];
  /** Users the write takes out of it. */
  departed: string[];
  /** Users whose entry the write changes in the record. */
  entries: EntryChange[];
}

interface Held {
  data: string;
  /** Order of the enter or update, to find a user's latest among their holders. */
  order: number;
}

const bytes = (text: string | undefined): number => (text === undefined ? 0 : Buffer.byteLength(text));

export class RecordShard {
  readonly key: string;
  /** The channel part of the key (record-codec.ts `recordChannel`). */
  readonly channel: string;
  readonly environmentId: string;
  readonly channelId: string;
  /** userId → this gateway's subscriptions of the channel. */
  readonly users: RecordUsers = new Map();
  /** userId → holder → entry: the entered holders of each user here. */
  private readonly holders = new Map<string, Map<object, Held>>();
  /** userId → the entry of the holder that entered or updated last. */
  readonly entries: RecordEntries = new Map();
  /** Bytes of `entries`' data. */
  private entryBytes = 0;
  private order = 0;
  /** The users the bucket holds of this record (the last successful write). */
  private readonly written = new Set<string>();
  /** The entries the bucket holds of this record. */
  private readonly writtenEntries: RecordEntries = new Map();
  /** Users who came or went since the last write was taken: its arrivals and departures are among them. */
  private readonly changed = new Set<string>();
  /** Changed since the last write was taken: another write is due. */
  dirty = false;
  /** A write is under way. */
  writing = false;
  /** The owner's timer for the next write, if one is set. */
  timer: ReturnType<typeof setTimeout> | undefined;
  /** Writes the shard may start without waiting (a token bucket: RECORD_BURST, one more every RECORD_SPACING_MS), as of `refilledAt`. */
  private tokens = RECORD_BURST;
  private refilledAt: number;
  /** After a failure: no write before this (RETRY_MS later). */
  private notBefore = 0;

  constructor(key: string, channel: string, environmentId: string, channelId: string, now = Date.now()) {
    this.key = key;
    this.channel = channel;
    this.environmentId = environmentId;
    this.channelId = channelId;
    this.refilledAt = now;
  }

  /** One more socket of the user here; true when it is their first (the user came). */
  add(userId: string): boolean {
    const sockets = this.users.get(userId) ?? 0;
    this.users.set(userId, sockets + 1);
    if (sockets > 0) return false;
    this.changed.add(userId);
    return true;
  }

  /** One socket of the user fewer; true when it was their last (the user went), false also when they had none. */
  remove(userId: string): boolean {
    const sockets = this.users.get(userId);
    if (sockets === undefined) return false;
    if (sockets > 1) {
      this.users.set(userId, sockets - 1);
      return false;
    }
    this.users.delete(userId);
    this.changed.add(userId);
    return true;
  }

  /** Whether `holder` has entered presence for the user. */
  entered(userId: string, holder: object): boolean {
    return this.holders.get(userId)?.has(holder) ?? false;
  }

  /**
   * `holder` enters (or updates) with `data` serialized: it becomes the user's entry here. False
   * (nothing changes) when the record's entries would pass RECORD_ENTRY_BYTES_MAX.
   */
  enter(userId: string, holder: object, data: string): boolean {
    const current = this.entries.get(userId);
    if (this.entryBytes - bytes(current) + bytes(data) > RECORD_ENTRY_BYTES_MAX) return false;
    let held = this.holders.get(userId);
    if (!held) this.holders.set(userId, (held = new Map()));
    held.set(holder, { data, order: ++this.order });
    this.settle(userId);
    return true;
  }

  /** `holder` leaves presence (or closes); true when it had entered. */
  exit(userId: string, holder: object): boolean {
    const held = this.holders.get(userId);
    if (!held?.delete(holder)) return false;
    if (held.size === 0) this.holders.delete(userId);
    this.settle(userId);
    return true;
  }

  /** The user's entry here: their latest holder's, or none. */
  private settle(userId: string): void {
    let latest: Held | undefined;
    for (const entry of this.holders.get(userId)?.values() ?? []) if (!latest || entry.order > latest.order) latest = entry;
    const current = this.entries.get(userId);
    if (latest?.data === current) return;
    this.entryBytes += bytes(latest?.data) - bytes(current);
    if (latest) this.entries.set(userId, latest.data);
    else this.entries.delete(userId);
    this.changed.add(userId);
  }

  /** Every user leaves at once (a drain), and the next write may go now. */
  clear(): void {
    for (const userId of this.users.keys()) this.changed.add(userId);
    this.users.clear();
    this.holders.clear();
    this.entries.clear();
    this.entryBytes = 0;
    this.notBefore = 0;
    this.tokens = RECORD_BURST;
  }

  /** How long the next write waits: for a token of the bucket, and past a failure's back-off. */
  wait(now = Date.now()): number {
    this.refill(now);
    const forToken = this.tokens >= 1 ? 0 : Math.ceil((1 - this.tokens) * RECORD_SPACING_MS);
    return Math.max(forToken, this.notBefore - now);
  }

  /** Starts a write: takes a token and the users as they are now, with what the write changes in the bucket. */
  begin(now = Date.now()): ShardWrite {
    this.dirty = false;
    this.writing = true;
    this.refill(now);
    this.tokens = Math.max(0, this.tokens - 1);
    const arrived: string[] = [];
    const departed: string[] = [];
    const entries: EntryChange[] = [];
    for (const userId of this.changed) {
      const here = this.users.has(userId);
      if (here && !this.written.has(userId)) arrived.push(userId);
      else if (!here && this.written.has(userId)) departed.push(userId);
      // an entry is written only with its user (encodeRecord): one without sockets here is none
      const data = here ? this.entries.get(userId) : undefined;
      const before = this.writtenEntries.get(userId);
      if (data !== undefined && before === undefined) entries.push({ userId, action: 'enter', data });
      else if (data !== undefined && data !== before) entries.push({ userId, action: 'update', data });
      else if (data === undefined && before !== undefined) entries.push({ userId, action: 'leave' });
    }
    this.changed.clear();
    return { value: encodeRecord(this.users, this.entries), arrived, departed, entries };
  }

  /** The write is in the bucket: what it holds of the record is what was written. */
  succeeded(write: ShardWrite): void {
    for (const userId of write.arrived) this.written.add(userId);
    for (const userId of write.departed) this.written.delete(userId);
    for (const entry of write.entries) {
      if (entry.action === 'leave') this.writtenEntries.delete(entry.userId);
      else this.writtenEntries.set(entry.userId, entry.data);
    }
    this.writing = false;
  }

  /** The write failed: the next attempt writes the users as they are then, and decides these changes with it. */
  failed(write: ShardWrite, now = Date.now()): void {
    for (const userId of write.arrived) this.changed.add(userId);
    for (const userId of write.departed) this.changed.add(userId);
    for (const entry of write.entries) this.changed.add(entry.userId);
    this.dirty = true;
    this.notBefore = now + RETRY_MS;
    this.writing = false;
  }

  private refill(now: number): void {
    this.tokens = Math.min(RECORD_BURST, this.tokens + (now - this.refilledAt) / RECORD_SPACING_MS);
    this.refilledAt = now;
  }
}
