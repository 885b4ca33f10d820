/**
 * Presence webhook transitions (pure, over the index of record-index.ts): a channel occupied or
 * vacated, a user's presence entry entered or left, decided once for the whole cluster.
 *
 * Every gateway's watcher delivers the bucket's changes in one order (revisions), so every
 * gateway's index goes through the same states, and a transition is a change of state that one
 * write made: the channel's first user written anywhere (occupied), its last one gone everywhere
 * (vacated), a user's first entry anywhere (entered), their last one gone (left). Each gateway
 * tracks the channels someone wants events of (`interest`: endpoints that name the types, and for
 * entries the namespace's `presenceWebhooks`), and reports:
 * - the transitions its **own** writes make (`own`: coalesced per window, hook-window.ts). The
 *   writer is named in the record key, so of all the gateways that see a transition exactly one
 *   reports it;
 * - the transitions of records that **aged out** (`expiry`: a gateway that died stops refreshing
 *   its records; they count as gone PRESENCE_TTL_MS after their last write, by each gateway's
 *   clock). Nobody writes then, so every gateway tracking the channel reports them; their event
 *   ids are drawn from the transition (below), so they make one delivery;
 * - for one TTL after it saw a record of the channel age out, every write's transitions of that
 *   channel (`write`, per write): two gateways' clocks disagree by a little on when a record aged
 *   out, and the write that came in between is a transition for one and not for the other.
 *
 * A transition carries `since`, the revision and time of the write that opened the period it opens
 * or closes (an occupancy, an entry): an event's id is drawn from it, so whoever decides it makes
 * the same id (a vacated by expiry and by a write too). Revisions start again when NATS loses the
 * bucket; the time keeps ids apart.
 *
 * The watcher's first values (at start, and after it was reopened) are no transitions: the index
 * is filled, then `arm` compares it with what was tracked before. What appeared is reported as
 * `expiry` (by all); what is missing is given a TTL to be written again (a bucket NATS lost is
 * rewritten by every gateway's refresh within a third of it) before it is reported gone.
 */
import type { AppliedWrite, ExpiredRecord, IndexedRecord, PresenceRecordIndex } from './record-index.ts';
import { splitRecordKey } from './record-codec.ts';

/** A write's revision and time (ms): what an event's id is drawn from. */
export interface Stamp {
  revision: number;
  time: number;
}

/** What is wanted of a channel: `channel` occupied/vacated, `occupancy` counts, `entries` entered/left. */
export interface HookInterest {
  channel: boolean;
  occupancy: boolean;
  entries: boolean;
}

export type HookSource = 'own' | 'write' | 'expiry';

export interface HookTransition {
  /** `updated`: an entered user's data changed (no event: it refreshes an `entered` of the same window). */
  kind: 'occupied' | 'vacated' | 'entered' | 'left' | 'updated';
  /** `<env>.<channel token>` (record-codec.ts `recordChannel`). */
  channel: string;
  userId?: string;
  /** The entry's data, serialized: entered with it, or had it when it left. */
  data?: string;
  /** The write that opened the occupancy or the entry this transition opens or closes. */
  since: Stamp;
  /** When it happened (ms): the write's time, or when the record aged out. */
  time: number;
  source: HookSource;
  /** What a `write` or `expiry` transition is grouped by in events: the write, or the record that aged out. */
  group: string;
}

/** Counts of an occupied channel, as reported last. */
export interface HookCounts {
  channel: string;
  connections: number;
  users: number;
}

interface TrackedEntry {
  data: string;
  since: Stamp;
  /** Gone from the index after it was refilled (arm): reported left once still gone a TTL later. */
  missing?: number;
}

interface Tracked {
  interest: HookInterest;
  version: number;
  occupied: Stamp | undefined;
  occupiedMissing?: number;
  entries: Map<string, TrackedEntry>;
  /** When this gateway last saw a record of the channel age out with a transition (0: never). */
  expiredAt: number;
  counts?: { connections: number; users: number };
}

export interface HookTrackerOptions {
  /** This gateway's instance id (record keys name it). */
  self: string;
  ttlMs: number;
  /** What is wanted of a channel; undefined: nothing (it is not tracked). */
  interest(channel: string): HookInterest | undefined;
  /** Changes whenever `interest` may answer differently. */
  version(): number;
  /** Whether any channel may be wanted at all (false: changes are applied without a look). */
  anyWanted(): boolean;
  emit(transitions: HookTransition[]): void;
}

const groupOfWrite = (stamp: Stamp) => `w${stamp.revision}.${stamp.time}`;
const groupOfRecord = (record: ExpiredRecord) => `x${record.record}@${record.revision}.${record.time}`;

export class HookTracker {
  /** Off while the watcher delivers its first values (and while there is no watcher). */
  armed = false;
  private readonly options: HookTrackerOptions;
  private readonly channels = new Map<string, Tracked>();

  constructor(options: HookTrackerOptions) {
    this.options = options;
  }

  /** Channels tracked. */
  get size(): number {
    return this.channels.size;
  }

  /** One change from the watcher: a tracked channel's aged-out records go first, then the change is applied and weighed. */
  apply(index: PresenceRecordIndex, entry: IndexedRecord, now = Date.now()): void {
    const parts = this.armed && (this.channels.size > 0 || this.options.anyWanted()) ? splitRecordKey(entry.key) : undefined;
    if (!parts) {
      index.apply(entry);
      return;
    }
    const out: HookTransition[] = [];
    const tracked = this.track(index, parts.channel, now);
    const expired = tracked ? index.sweep(now, parts.channel) : [];
    if (tracked && expired.length > 0) this.expire(index, tracked, parts.channel, expired, now, out);
    const applied = index.apply(entry);
    if (tracked && applied) this.weigh(index, tracked, applied, now, out);
    if (out.length > 0) this.options.emit(out);
  }

  /** Every refresh round: records that aged out, entries and occupancies missing since `arm`, channels no longer wanted. */
  sweep(index: PresenceRecordIndex, now = Date.now()): void {
    const expired = index.sweep(now);
    if (!this.armed) return;
    const out: HookTransition[] = [];
    const byChannel = new Map<string, ExpiredRecord[]>();
    for (const record of expired) {
      let list = byChannel.get(record.channel);
      if (!list) byChannel.set(record.channel, (list = []));
      list.push(record);
    }
    for (const [channel, records] of byChannel) {
      const tracked = this.channels.get(channel);
      if (tracked) this.expire(index, tracked, channel, records, now, out);
    }
    const ttl = this.options.ttlMs;
    for (const [channel, tracked] of this.channels) {
      if (tracked.occupiedMissing !== undefined && now - tracked.occupiedMissing >= ttl) {
        tracked.occupiedMissing = undefined;
        if (tracked.occupied && !index.held(channel, now)) this.vacate(tracked, channel, now, 'expiry', `m${channel}`, out);
      }
      for (const [userId, entry] of tracked.entries) {
        if (entry.missing === undefined || now - entry.missing < ttl) continue;
        entry.missing = undefined;
        if (!index.entryOf(channel, userId, now)) this.leave(tracked, channel, userId, now, 'expiry', `u${userId}`, out);
      }
      const idle = !tracked.occupied && tracked.entries.size === 0 && now - tracked.expiredAt > ttl;
      if (idle || (tracked.version !== this.options.version() && !this.options.interest(channel))) this.channels.delete(channel);
    }
    if (out.length > 0) this.options.emit(out);
  }

  /**
   * The watcher has delivered its first values into `index`: from now on changes are transitions.
   * What was tracked before (an earlier watcher's) is compared with what the index holds now.
   */
  arm(index: PresenceRecordIndex, now = Date.now()): void {
    this.armed = true;
    const out: HookTransition[] = [];
    for (const [channel, tracked] of this.channels) {
      if (tracked.interest.channel || tracked.interest.occupancy) {
        const first = index.firstRecord(channel, now);
        if (first && !tracked.occupied) {
          tracked.occupied = { revision: first.revision, time: first.time };
          if (tracked.interest.channel)
            out.push({ kind: 'occupied', channel, since: tracked.occupied, time: first.time, source: 'expiry', group: `a${channel}` });
        } else if (!first && tracked.occupied) tracked.occupiedMissing = now;
      }
      if (!tracked.interest.entries) continue;
      for (const [userId, entry] of tracked.entries) {
        const found = index.entryOf(channel, userId, now);
        if (found) entry.data = found.data;
        else entry.missing = now;
      }
      for (const [userId, found] of index.entries(channel, now)) {
        if (tracked.entries.has(userId)) continue;
        const since = { revision: found.at, time: found.time };
        tracked.entries.set(userId, { data: found.data, since });
        out.push({ kind: 'entered', channel, userId, data: found.data, since, time: found.time, source: 'expiry', group: `u${userId}` });
      }
    }
    if (out.length > 0) this.options.emit(out);
  }

  /** The watcher ended: nothing is a transition until a new one has delivered its first values. */
  disarm(): void {
    this.armed = false;
  }

  /**
   * One round of `channel.occupancy`: the counts of each occupied channel whose occupancy is
   * wanted, where they changed since the last round and this gateway is the one of lowest id
   * holding the channel's users (every gateway keeps the counts; one reports).
   */
  occupancyRound(index: PresenceRecordIndex, now = Date.now()): HookCounts[] {
    const out: HookCounts[] = [];
    if (!this.armed) return out;
    for (const [channel, tracked] of this.channels) {
      if (!tracked.interest.occupancy) continue;
      const counts = index.occupancy(channel, now);
      if (counts.connections === 0) {
        tracked.counts = undefined;
        continue;
      }
      const last = tracked.counts;
      tracked.counts = counts;
      if (last && last.connections === counts.connections && last.users === counts.users) continue;
      if (index.leader(channel, now) === this.options.self) out.push({ channel, ...counts });
    }
    return out;
  }

  /** The channel's tracking, started (from what the index holds) when it is wanted; undefined when it is not. */
  private track(index: PresenceRecordIndex, channel: string, now: number): Tracked | undefined {
    const version = this.options.version();
    let tracked = this.channels.get(channel);
    if (tracked && tracked.version === version) return tracked;
    const interest = this.options.interest(channel);
    if (!interest) {
      this.channels.delete(channel);
      return undefined;
    }
    if (!tracked) {
      tracked = { interest: { channel: false, occupancy: false, entries: false }, version, occupied: undefined, entries: new Map(), expiredAt: 0 };
      this.channels.set(channel, tracked);
    }
    const before = tracked.interest;
    tracked.interest = interest;
    tracked.version = version;
    const occupancy = interest.channel || interest.occupancy;
    if (!occupancy) tracked.occupied = undefined;
    else if (!(before.channel || before.occupancy)) {
      const first = index.firstRecord(channel, now);
      tracked.occupied = first && { revision: first.revision, time: first.time };
    }
    if (!interest.entries) tracked.entries.clear();
    else if (!before.entries) {
      for (const [userId, found] of index.entries(channel, now))
        tracked.entries.set(userId, { data: found.data, since: { revision: found.at, time: found.time } });
    }
    return tracked;
  }

  /** The transitions one write made on a tracked channel. */
  private weigh(index: PresenceRecordIndex, tracked: Tracked, applied: AppliedWrite, now: number, out: HookTransition[]): void {
    const involved = tracked.expiredAt > 0 && now - tracked.expiredAt <= this.options.ttlMs;
    const own = applied.gateway === this.options.self;
    const report = own || involved;
    const source: HookSource = own && !involved ? 'own' : 'write';
    const at: Stamp = { revision: applied.revision, time: applied.time };
    const group = groupOfWrite(at);
    const channel = applied.channel;
    if (tracked.interest.channel || tracked.interest.occupancy) {
      const held = applied.hasUsers || index.held(channel, now);
      if (held) tracked.occupiedMissing = undefined;
      if (held && !tracked.occupied) {
        tracked.occupied = at;
        if (report && tracked.interest.channel) out.push({ kind: 'occupied', channel, since: at, time: at.time, source, group });
      } else if (!held && tracked.occupied) {
        const since = tracked.occupied;
        tracked.occupied = undefined;
        tracked.counts = undefined;
        if (report && tracked.interest.channel) out.push({ kind: 'vacated', channel, since, time: at.time, source, group });
      }
    }
    if (!tracked.interest.entries) return;
    for (const userId of applied.entries) {
      const found = index.entryOf(channel, userId, now);
      const known = tracked.entries.get(userId);
      if (found && !known) {
        tracked.entries.set(userId, { data: found.data, since: at });
        if (report) out.push({ kind: 'entered', channel, userId, data: found.data, since: at, time: at.time, source, group });
      } else if (!found && known) {
        tracked.entries.delete(userId);
        if (report) out.push({ kind: 'left', channel, userId, data: known.data, since: known.since, time: at.time, source, group });
      } else if (found && known) {
        if (report && source === 'own' && found.data !== known.data) {
          out.push({ kind: 'updated', channel, userId, data: found.data, since: known.since, time: at.time, source, group });
        }
        known.data = found.data;
        known.missing = undefined;
      }
    }
  }

  /**
   * Records of a tracked channel that aged out (oldest first): the channel vacated when none is
   * left, each entry they held left when no other record holds one. Each is put on the last record
   * (of those aging out together) that held it: a gateway that saw them age out one by one puts it
   * on the same one.
   */
  private expire(index: PresenceRecordIndex, tracked: Tracked, channel: string, records: ExpiredRecord[], now: number, out: HookTransition[]): void {
    const ttl = this.options.ttlMs;
    const last = records[records.length - 1]!;
    if (tracked.occupied && !index.held(channel, now)) {
      this.vacate(tracked, channel, last.time + ttl, 'expiry', groupOfRecord(last), out);
      tracked.expiredAt = now;
    }
    if (!tracked.interest.entries) return;
    const holder = new Map<string, ExpiredRecord>();
    for (const record of records) for (const userId of record.entries.keys()) holder.set(userId, record);
    for (const [userId, record] of holder) {
      if (!tracked.entries.has(userId) || index.entryOf(channel, userId, now)) continue;
      this.leave(tracked, channel, userId, record.time + ttl, 'expiry', groupOfRecord(record), out);
      tracked.expiredAt = now;
    }
  }

  private vacate(tracked: Tracked, channel: string, time: number, source: HookSource, group: string, out: HookTransition[]): void {
    const since = tracked.occupied!;
    tracked.occupied = undefined;
    tracked.counts = undefined;
    if (tracked.interest.channel) out.push({ kind: 'vacated', channel, since, time, source, group });
  }

  private leave(tracked: Tracked, channel: string, userId: string, time: number, source: HookSource, group: string, out: HookTransition[]): void {
    const known = tracked.entries.get(userId)!;
    tracked.entries.delete(userId);
    out.push({ kind: 'left', channel, userId, data: known.data, since: known.since, time, source, group });
  }
}
