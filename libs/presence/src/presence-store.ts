/**
 * The presence bucket as one gateway reads and writes it. Depends on NATS KV alone: which sockets
 * the gateway holds, and announcing what changed, are the gateway's (its presence/presence.ts).
 *
 * The bucket, `<NATS_PREFIX>_presence_records` (memory storage, one value per key, max age the
 * TTL), holds the records of record-codec.ts. It is opened on first use and again after a failure;
 * opening it starts ONE watcher of the whole bucket feeding a local index of every gateway's
 * records (record-index.ts), so rosters, occupancy and decisions read it without listing the
 * bucket. Should the watcher end (NATS gone), the index is dropped, reads list the bucket
 * meanwhile, and a new watcher (with a fresh index) is opened a second later. Every NATS step has
 * a deadline and at most KV_CONCURRENCY are in flight (presence-kv.ts).
 */
import type { KV } from 'nats';
import type { NatsConnection } from '@rtm/bus';
import { ServiceError } from '@rtm/errors';
import type { Logger } from '@rtm/ops';
import { decideFromIndex, decideFromRecords, type Decision, type StoredRecord, type WriteChanges } from './decide.ts';
import type { HookCounts, HookTracker } from './hook-tracker.ts';
import { KV_CONCURRENCY, KV_DEADLINE_MS, Slots, listKeys, openBucket, withDeadline } from './presence-kv.ts';
import { decodeEntries, decodeRecord, splitRecordKey } from './record-codec.ts';
import { PresenceRecordIndex } from './record-index.ts';

/**
 * How long a decision waits for the bucket's watcher to deliver its own write before it looks in
 * the bucket instead: a watcher that stalls without ending (its consumer being reset under load)
 * would otherwise hold every decision until KV_DEADLINE_MS.
 */
export const INDEX_WAIT_MS = 2_000;
/** After the watcher ended, a new one is opened this much later. */
const REWATCH_MS = 1_000;
/**
 * The webhook tracker is armed this long after the watcher was opened even if the watcher never
 * said its first values were delivered (its notice can be lost when NATS resets the consumer).
 */
const ARM_AT_LATEST_MS = KV_DEADLINE_MS;

export interface PresenceStoreOptions {
  nc: NatsConnection;
  /** The bucket's name (`<NATS_PREFIX>_presence_records`). */
  name: string;
  /** Records not written again for this long age out of the bucket (PRESENCE_TTL_MS). */
  ttlMs: number;
  log: Logger;
  /** Presence webhook transitions, weighed as the watcher delivers each change (hook-tracker.ts). */
  hooks?: HookTracker;
}

export class PresenceStore {
  private readonly options: PresenceStoreOptions;
  private opened: Promise<KV> | undefined;
  private readonly slots = new Slots(KV_CONCURRENCY);
  /** Every gateway's records, from the watcher opened with the bucket; none until then. */
  private index: PresenceRecordIndex | undefined;
  private stopWatching: (() => void) | undefined;
  /** Undefined until the bucket opens; false once stopped (no watcher is reopened). */
  private watching: boolean | undefined;

  constructor(options: PresenceStoreOptions) {
    this.options = options;
  }

  /** Stopped: the watcher is gone for good (the gateway writes nothing more). */
  get stopped(): boolean {
    return this.watching === false;
  }

  /** The bucket, opened on first use and retried after a failure; opening it starts the watcher. */
  open(): Promise<KV> {
    if (!this.opened) {
      const opening = openBucket(this.options.nc, this.options.name, this.options.ttlMs);
      this.opened = opening;
      opening.then((kv) => this.watch(kv)).catch(() => {});
      opening.catch((error: unknown) => {
        this.options.log.error({ err: error }, 'presence bucket unavailable');
        if (this.opened === opening) this.opened = undefined;
      });
    }
    return this.opened;
  }

  /** Writes one record; resolves with the bucket's revision of the write. */
  async put(key: string, value: Uint8Array): Promise<number> {
    const kv = await withDeadline(this.open(), KV_DEADLINE_MS, 'presence bucket');
    return this.slots.run(() => withDeadline(kv.put(key, value), KV_DEADLINE_MS, 'presence write'));
  }

  /** The users online on a channel (`recordChannel`) on any gateway. */
  async online(channel: string): Promise<Set<string>> {
    const index = await this.liveIndex();
    if (index) return index.online(channel);
    const users = new Set<string>();
    for (const record of await this.records(channel)) for (const userId of record.users.keys()) users.add(userId);
    return users;
  }

  /**
   * The users online on a channel with their presence entries (data serialized, only users who
   * entered): of several gateways' entries for a user, the one written last.
   */
  async present(channel: string): Promise<{ online: Set<string>; entries: Map<string, string> }> {
    const index = await this.liveIndex();
    if (index) {
      const entries = new Map<string, string>();
      for (const [userId, entry] of index.entries(channel)) entries.set(userId, entry.data);
      return { online: index.online(channel), entries };
    }
    const online = new Set<string>();
    const latest = new Map<string, { data: string; revision: number }>();
    for (const record of await this.records(channel)) {
      for (const userId of record.users.keys()) online.add(userId);
      for (const [userId, data] of record.entries ?? []) {
        const known = latest.get(userId);
        if (!known || record.revision > known.revision) latest.set(userId, { data, revision: record.revision });
      }
    }
    return { online, entries: new Map([...latest].map(([userId, { data }]) => [userId, data])) };
  }

  /** Subscriptions and distinct users of a channel over every gateway (as the bucket held them a moment ago). */
  async occupancy(channel: string): Promise<{ connections: number; users: number }> {
    const index = await this.liveIndex();
    if (index) return index.occupancy(channel);
    const users = new Set<string>();
    let connections = 0;
    for (const record of await this.records(channel)) {
      for (const [userId, sockets] of record.users) {
        users.add(userId);
        connections += sockets;
      }
    }
    return { connections, users: users.size };
  }

  /** The same, from the index alone, when it is live (occupancy frames: no bucket reads on a timer). */
  occupancyNow(channel: string): { connections: number; users: number } | undefined {
    return this.index?.live ? this.index.occupancy(channel) : undefined;
  }

  /**
   * The arrivals and departures of `gateway`'s write at `revision` on a channel (decide.ts): from
   * the index once it has seen the write; from the bucket itself when the watcher lags or ended.
   */
  async decide(channel: string, gateway: string, changes: WriteChanges): Promise<Decision[]> {
    const index = this.index;
    if (index && (await index.caughtUp(changes.revision, INDEX_WAIT_MS)) && index.live) return decideFromIndex(index, channel, gateway, changes);
    const others = (await this.records(channel)).filter((record) => record.gateway !== gateway);
    return decideFromRecords(others, changes);
  }

  /** Forgets the records that aged out (every refresh round); the webhook tracker weighs them. */
  sweep(): void {
    const index = this.index;
    if (!index) return;
    if (this.options.hooks) this.options.hooks.sweep(index);
    else index.sweep();
  }

  /** One round of `channel.occupancy` counts (hook-tracker.ts), none while the index is not live. */
  occupancyRound(): HookCounts[] {
    const index = this.index;
    return index?.live && this.options.hooks ? this.options.hooks.occupancyRound(index) : [];
  }

  /** Resolves true once the index has delivered every change up to `revision` (false: not within `limitMs`, or no index). */
  async caughtUp(revision: number, limitMs: number): Promise<boolean> {
    const index = this.index;
    return index ? index.caughtUp(revision, limitMs) : false;
  }

  /** Ends the watcher for good. */
  stop(): void {
    this.watching = false;
    this.stopWatching?.();
  }

  /** The index once the bucket is open, if its watcher is live. */
  private async liveIndex(): Promise<PresenceRecordIndex | undefined> {
    try {
      await withDeadline(this.open(), KV_DEADLINE_MS, 'presence bucket');
    } catch (error) {
      throw new ServiceError('unavailable', 'presence is not reachable', { cause: error });
    }
    return this.index?.live ? this.index : undefined;
  }

  /** A channel's live records, read from the bucket (the index's fallback). */
  private async records(channel: string): Promise<StoredRecord[]> {
    try {
      const kv = await withDeadline(this.open(), KV_DEADLINE_MS, 'presence bucket');
      const found: StoredRecord[] = [];
      for (const key of await listKeys(kv, `${channel}.*.*`)) {
        const entry = await withDeadline(kv.get(key), KV_DEADLINE_MS, 'presence read');
        const parts = splitRecordKey(key);
        if (entry?.operation !== 'PUT' || !parts) continue;
        const users = decodeRecord(entry.value);
        if (users.size > 0) found.push({ gateway: parts.gateway, revision: entry.revision, users, entries: decodeEntries(entry.value) });
      }
      return found;
    } catch (error) {
      throw new ServiceError('unavailable', 'presence is not reachable', { cause: error });
    }
  }

  /**
   * One watcher of the whole bucket feeding a fresh index, reopened after it ends unless stopped.
   * The webhook tracker is armed once the watcher has delivered the bucket's values as they were
   * (its `initializedFn`): called in order after the last of them, or, when they had all arrived
   * before the watcher was handed over, after that many have been applied; at the latest
   * ARM_AT_LATEST_MS after it opened.
   */
  private async watch(kv: KV): Promise<void> {
    if (this.watching === false) return;
    this.watching = true;
    const index = new PresenceRecordIndex(this.options.ttlMs);
    const hooks = this.options.hooks;
    let handedOver = false;
    let initialized = false;
    let armAfter = -1;
    let applied = 0;
    let latest: NodeJS.Timeout | undefined;
    try {
      const watcher = await kv.watch({
        key: '>',
        initializedFn: () => {
          if (handedOver) hooks?.arm(index);
          else initialized = true;
        },
      });
      handedOver = true;
      if (initialized) armAfter = watcher.getReceived();
      if (armAfter === 0) hooks?.arm(index);
      if (hooks && !hooks.armed) {
        latest = setTimeout(() => {
          if (!hooks.armed && this.index === index) hooks.arm(index);
        }, ARM_AT_LATEST_MS);
        latest.unref();
      }
      this.stopWatching = () => watcher.stop();
      if (this.watching) {
        this.index = index;
        for await (const entry of watcher) {
          if (hooks) hooks.apply(index, entry);
          else index.apply(entry);
          if (++applied === armAfter) hooks?.arm(index);
        }
      } else watcher.stop();
    } catch (error) {
      this.options.log.warn({ err: error }, 'presence watcher ended; presence reads the bucket until it is back');
    } finally {
      clearTimeout(latest);
      hooks?.disarm();
      index.abandon();
      if (this.index === index) this.index = undefined;
    }
    if (this.watching) setTimeout(() => void this.watch(kv), REWATCH_MS).unref();
  }
}
