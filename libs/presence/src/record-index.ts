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
  /** The user's entry in this record, serialized (undefined: not entered), and the revision of the write that set it. */
  entry?: string;
  entrySince?: number;
}

/** A user's entry as the index reads it: the data serialized, and the revision it was written at. */
export interface IndexedEntry {
  data: string;
  at: number;
}

interface RecordState {
  gateway: string;
  revision: number;
  /** When the bucket stored the value (ms): it ages out PRESENCE_TTL_MS later unless written again. */
  at: number;
  users: Map<string, Held>;
}

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

  apply(entry: IndexedRecord): void {
    const parts = splitRecordKey(entry.key);
    if (parts) {
      let records = this.channels.get(parts.channel);
      const incoming = entry.operation === 'PUT' ? parseRecord(entry.value) : undefined;
      let state = records?.get(parts.record);
      if (incoming) {
        if (!records) this.channels.set(parts.channel, (records = new Map()));
        if (!state) {
          state = { gateway: parts.gateway, revision: entry.revision, at: 0, users: new Map() };
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
          }
        }
        for (const userId of users.keys()) {
          const sockets = incoming[userId];
          if (typeof sockets !== 'number' || !(sockets > 0)) users.delete(userId);
        }
      }
      // a record gone, or emptied (its gateway's last user there left): as good as gone
      if (state && (!incoming || state.users.size === 0) && records?.delete(parts.record) && records.size === 0) {
        this.channels.delete(parts.channel);
      }
    }
    if (entry.revision > this.seen) this.seen = entry.revision;
    if (this.waiters.length > 0) this.wake();
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
        if (!known || held.entrySince! > known.at) out.set(userId, { data: held.entry, at: held.entrySince! });
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
      if (held?.entry !== undefined && (!found || held.entrySince! > found.at)) found = { data: held.entry, at: held.entrySince! };
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
   * Forgets every record that aged out of the bucket (its gateway stopped refreshing it): queries
   * skip them, this drops them so a dead gateway's records of channels nobody asks about again do
   * not stay in memory. Called every refresh round.
   */
  sweep(now = Date.now()): void {
    for (const [channel, records] of this.channels) {
      for (const [record, state] of records) if (now - state.at > this.ttlMs) records.delete(record);
      if (records.size === 0) this.channels.delete(channel);
    }
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
