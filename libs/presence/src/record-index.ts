/**
 * Every gateway's presence records, as this gateway's ONE watcher of the presence bucket last
 * delivered them (presence-store.ts). A record is one value per (environment, channel, gateway, shard):
 * the users that gateway holds sockets for on the channel (those whose id hashes to the shard),
 * each with its number of sockets there. From the index, locally and without a bucket listing:
 * - whether another gateway holds a user on a channel (an arrival's or a departure's decision),
 *   and since which revision (the record write that first held the user);
 * - who is online on a channel (rosters) and its occupancy (connections and distinct users);
 * - each online user's presence entry (record-codec.ts ENTRIES_KEY): of the records holding one
 *   for the user, the one whose entry was written last (by revision) wins.
 *
 * The watcher delivers the bucket's changes in revision order, so once it has delivered revision
 * r, every record written before r is known with its latest value delivered so far: the view a
 * listing started after the write would give. Records age out of the bucket silently (no change is
 * delivered), so a record older than the bucket's TTL counts as gone. Pure state: the watcher
 * itself is the store's (presence-store.ts); keys and values are record-codec.ts's.
 */
import { entriesOf, parseRecord, splitRecordKey } from './record-codec.ts';

export interface IndexedRecord {
  key: string;
  revision: number;
  operation: 'PUT' | 'DEL' | 'PURGE';
  created: Date;
  value: Uint8Array;
}

interface Held {
  sockets: number;
  /** The revision of the write that first held the user in this record (kept while later writes hold them). */
  since: number;
  /** The user's entry in this record, serialized (undefined: not entered), and the revision and time (ms) of the write that set it. */
  entry?: string;
  entrySince?: number;
  entryTime?: number;
}

/** A user's entry as the index reads it: the data serialized, and the revision (and time, ms) it was written at. */
export interface IndexedEntry {
  data: string;
  at: number;
  time: number;
}

/**
 * What one applied change did to its record (for the presence webhook tracker, hook-tracker.ts):
 * whether the record held users before and after, and the users whose entry in it changed.
 */
export interface AppliedWrite {
  /** `<env>.<channel token>`. */
  channel: string;
  /** `<gateway>.<shard>`. */
  record: string;
  gateway: string;
  revision: number;
  /** When the bucket stored it (ms), the same on every gateway. */
  time: number;
  hadUsers: boolean;
  hasUsers: boolean;
  /** Users whose entry in this record was set, changed or removed (with the user or alone). */
  entries: readonly string[];
}

/** A record that aged out of the bucket (its gateway stopped refreshing it), as the index held it last. */
export interface ExpiredRecord {
  channel: string;
  record: string;
  gateway: string;
  revision: number;
  /** When it was last written (ms); it aged out PRESENCE_TTL_MS later. */
  time: number;
  /** Its entered users (data serialized). */
  entries: Map<string, string>;
}

interface RecordState {
  gateway: string;
  /** The revision of the write that made the record (the first holding users since it was last gone), and its time (ms). */
  created: number;
  createdAt: number;
  revision: number;
  /** When the bucket stored the value (ms): it ages out PRESENCE_TTL_MS later unless written again. */
  at: number;
  users: Map<string, Held>;
}

/** The entry list of every write that changed no entry (most writes): one frozen array. */
const NO_USERS: readonly string[] = Object.freeze([]);

interface Waiter {
  done: () => boolean;
  resolve: () => void;
}

export class PresenceRecordIndex {
  /** Records by channel (`<env>.<channel token>`), then by record (`<gateway>.<shard>`). */
  private readonly channels = new Map<string, Map<string, RecordState>>();
  private seen = 0;
  private waiters: Waiter[] = [];
  /** False once the watcher has ended: callers look in the bucket again. */
  live = true;
  private readonly ttlMs: number;

  constructor(ttlMs: number) {
    this.ttlMs = ttlMs;
  }

  /** The highest revision delivered so far. */
  get revision(): number {
    return this.seen;
  }

  /** Applies one change of the bucket; answers what it did to its record (undefined: not a record key). */
  apply(entry: IndexedRecord): AppliedWrite | undefined {
    const parts = splitRecordKey(entry.key);
    let applied: AppliedWrite | undefined;
    if (parts) {
      let records = this.channels.get(parts.channel);
      const incoming = entry.operation === 'PUT' ? parseRecord(entry.value) : undefined;
      let state = records?.get(parts.record);
      const hadUsers = state !== undefined && state.users.size > 0;
      let changed: string[] | undefined;
      if (incoming) {
        if (!records) this.channels.set(parts.channel, (records = new Map()));
        if (!state) {
          state = { gateway: parts.gateway, created: entry.revision, createdAt: entry.created.getTime(), revision: entry.revision, at: 0, users: new Map() };
          records.set(parts.record, state);
        }
        state.revision = entry.revision;
        state.at = entry.created.getTime();
        // updated in place: a write of a big record changes a few users, not all of them
        const users = state.users;
        const entries = entriesOf(incoming);
        for (const userId in incoming) {
          const sockets = incoming[userId];
          if (typeof sockets !== 'number' || !(sockets > 0)) continue;
          let held = users.get(userId);
          if (held) held.sockets = sockets;
          else users.set(userId, (held = { sockets, since: entry.revision }));
          // entries are compared as text: a rewrite that keeps the data keeps when it was set
          const data = entries && userId in entries ? JSON.stringify(entries[userId] ?? null) : undefined;
          if (data !== held.entry) {
            held.entry = data;
            held.entrySince = data === undefined ? undefined : entry.revision;
            held.entryTime = data === undefined ? undefined : state.at;
            (changed ??= []).push(userId);
          }
        }
        for (const [userId, held] of users) {
          const sockets = incoming[userId];
          if (typeof sockets === 'number' && sockets > 0) continue;
          users.delete(userId);
          if (held.entry !== undefined) (changed ??= []).push(userId);
        }
      } else if (state) {
        for (const [userId, held] of state.users) if (held.entry !== undefined) (changed ??= []).push(userId);
      }
      // a record gone, or emptied (its gateway's last user there left): as good as gone
      if (state && (!incoming || state.users.size === 0) && records?.delete(parts.record) && records.size === 0) {
        this.channels.delete(parts.channel);
      }
      applied = {
        channel: parts.channel,
        record: parts.record,
        gateway: parts.gateway,
        revision: entry.revision,
        time: entry.created.getTime(),
        hadUsers,
        hasUsers: incoming !== undefined && state!.users.size > 0,
        entries: changed ?? NO_USERS,
      };
    }
    if (entry.revision > this.seen) this.seen = entry.revision;
    if (this.waiters.length > 0) this.wake();
    return applied;
  }

  /**
   * Resolves true once every change up to `revision` has been delivered; false if that took more
   * than `limitMs` (a watcher that stalls without ending: the caller looks in the bucket instead).
   */
  caughtUp(revision: number, limitMs: number): Promise<boolean> {
    return this.until(() => this.seen >= revision, limitMs);
  }

  /**
   * Whether a gateway other than `gateway` holds `userId` on `channel` (a live record): any such
   * record, or with `before`, one that has held the user since a revision lower than it.
   */
  heldElsewhere(channel: string, userId: string, gateway: string, before = Number.POSITIVE_INFINITY, now = Date.now()): boolean {
    for (const state of this.liveRecords(channel, now)) {
      if (state.gateway === gateway) continue;
      const held = state.users.get(userId);
      if (held && held.since < before) return true;
    }
    return false;
  }

  /** The users online on `channel` on any gateway. */
  online(channel: string, now = Date.now()): Set<string> {
    const users = new Set<string>();
    for (const state of this.liveRecords(channel, now)) for (const userId of state.users.keys()) users.add(userId);
    return users;
  }

  /** Each online user's entry on `channel` (only users who entered): the latest written over every gateway. */
  entries(channel: string, now = Date.now()): Map<string, IndexedEntry> {
    const out = new Map<string, IndexedEntry>();
    for (const state of this.liveRecords(channel, now)) {
      for (const [userId, held] of state.users) {
        if (held.entry === undefined) continue;
        const known = out.get(userId);
        if (!known || held.entrySince! > known.at) out.set(userId, { data: held.entry, at: held.entrySince!, time: held.entryTime! });
      }
    }
    return out;
  }

  /** The user's latest entry on `channel` in a record of a gateway other than `gateway`, if any. */
  entryElsewhere(channel: string, userId: string, gateway: string, now = Date.now()): IndexedEntry | undefined {
    let found: IndexedEntry | undefined;
    for (const state of this.liveRecords(channel, now)) {
      if (state.gateway === gateway) continue;
      const held = state.users.get(userId);
      if (held?.entry !== undefined && (!found || held.entrySince! > found.at)) found = { data: held.entry, at: held.entrySince!, time: held.entryTime! };
    }
    return found;
  }

  /** Sockets and distinct users on `channel` over every gateway. */
  occupancy(channel: string, now = Date.now()): { connections: number; users: number } {
    let connections = 0;
    let gateway: string | undefined;
    let oneGateway = true;
    let users = 0;
    for (const state of this.liveRecords(channel, now)) {
      for (const { sockets } of state.users.values()) connections += sockets;
      // one gateway's shards hold disjoint users: counted without a set unless gateways overlap
      users += state.users.size;
      if (gateway !== undefined && gateway !== state.gateway) oneGateway = false;
      gateway = state.gateway;
    }
    return { connections, users: oneGateway ? users : this.online(channel, now).size };
  }

  /**
   * Forgets every record that aged out of the bucket (its gateway stopped refreshing it), of every
   * channel or of one: queries skip them already, this drops them so a dead gateway's records of
   * channels nobody asks about again do not stay in memory. Called every refresh round, and for a
   * channel before a change of it is applied (so what a change decides never counts a record
   * that had aged out). Answers the records dropped, oldest first.
   */
  sweep(now = Date.now(), channel?: string): ExpiredRecord[] {
    const expired: ExpiredRecord[] = [];
    if (channel === undefined) for (const [key, records] of this.channels) this.sweepChannel(key, records, now, expired);
    else {
      const records = this.channels.get(channel);
      if (records) this.sweepChannel(channel, records, now, expired);
    }
    return expired.length > 1 ? expired.sort((a, b) => a.time - b.time || a.revision - b.revision) : expired;
  }

  private sweepChannel(channel: string, records: Map<string, RecordState>, now: number, expired: ExpiredRecord[]): void {
    for (const [record, state] of records) {
      if (now - state.at <= this.ttlMs) continue;
      records.delete(record);
      const entries = new Map<string, string>();
      for (const [userId, held] of state.users) if (held.entry !== undefined) entries.set(userId, held.entry);
      expired.push({ channel, record, gateway: state.gateway, revision: state.revision, time: state.at, entries });
    }
    if (records.size === 0) this.channels.delete(channel);
  }

  /** Whether any gateway holds a user on `channel` (a live record). */
  held(channel: string, now = Date.now()): boolean {
    for (const _ of this.liveRecords(channel, now)) return true;
    return false;
  }

  /** The user's entry on `channel` over every gateway (the latest written), if any. */
  entryOf(channel: string, userId: string, now = Date.now()): IndexedEntry | undefined {
    let found: IndexedEntry | undefined;
    for (const state of this.liveRecords(channel, now)) {
      const held = state.users.get(userId);
      if (held?.entry !== undefined && (!found || held.entrySince! > found.at)) found = { data: held.entry, at: held.entrySince!, time: held.entryTime! };
    }
    return found;
  }

  /**
   * The channel's live record made first (lowest `created` revision): its gateway, and the revision
   * and time of the write that made it. What a tracker that starts watching an occupied
   * channel dates its occupancy from (the same on every gateway whose watcher saw that write).
   */
  firstRecord(channel: string, now = Date.now()): { gateway: string; revision: number; time: number } | undefined {
    let first: RecordState | undefined;
    for (const state of this.liveRecords(channel, now)) if (!first || state.created < first.created) first = state;
    return first && { gateway: first.gateway, revision: first.created, time: first.createdAt };
  }

  /** The gateway of lowest id among those holding users on `channel`: the one that reports its occupancy. */
  leader(channel: string, now = Date.now()): string | undefined {
    let lowest: string | undefined;
    for (const state of this.liveRecords(channel, now)) if (lowest === undefined || state.gateway < lowest) lowest = state.gateway;
    return lowest;
  }

  /** Records held, over every channel. */
  get size(): number {
    let n = 0;
    for (const records of this.channels.values()) n += records.size;
    return n;
  }

  /** The watcher ended: every wait resolves now (callers see `live` false and look in the bucket). */
  abandon(): void {
    this.live = false;
    for (const waiter of this.waiters) waiter.resolve();
    this.waiters = [];
  }

  private *liveRecords(channel: string, now: number): Generator<RecordState> {
    const records = this.channels.get(channel);
    if (!records) return;
    for (const state of records.values()) {
      // aged out of the bucket (its gateway stopped refreshing): no change tells us, the clock does
      if (now - state.at <= this.ttlMs) yield state;
    }
  }

  private until(done: () => boolean, limitMs: number): Promise<boolean> {
    if (done()) return Promise.resolve(true);
    if (!this.live) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        done,
        resolve: () => {
          clearTimeout(timer);
          resolve(done());
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, limitMs);
      this.waiters.push(waiter);
    });
  }

  private wake(): void {
    const still: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (waiter.done()) waiter.resolve();
      else still.push(waiter);
    }
    this.waiters = still;
  }
}
