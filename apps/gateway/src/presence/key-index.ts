/**
 * Every presence key of every gateway, as this gateway's ONE watcher of the presence bucket last
 * delivered it (presence.ts). Deciding whether another gateway holds a user on a channel is then a
 * local look-up once the watcher has caught up with this gateway's own write, instead of a key
 * listing per decision (each listing is a short-lived JetStream consumer created and deleted on
 * the server: under one environment's subscribe storm those listings were most of the NATS
 * server's CPU, which every other environment's publishes share).
 *
 * The watcher delivers the bucket's changes in revision order, so once it has delivered revision
 * r, every key written before r is known with its latest revision delivered so far: the same view
 * a listing started after the write would give. Keys age out of the bucket silently (no change is
 * delivered), so an entry older than the bucket's TTL counts as gone. Pure state: the watcher
 * itself is presence.ts's.
 */

export interface IndexedEntry {
  key: string;
  revision: number;
  operation: 'PUT' | 'DEL' | 'PURGE';
  created: Date;
}

interface Waiter {
  done: () => boolean;
  resolve: () => void;
}

/** One written key: its latest revision delivered, and when it was written. */
interface KeyEntry {
  key: string;
  revision: number;
  at: number;
}

/**
 * A prefix's keys: one entry alone (a user on a channel is held by one gateway nearly always), a
 * Map by key from the second on. The index holds one prefix per (user, channel) pair of the
 * cluster, so a Map each would cost every gateway ~150 bytes per pair.
 */
type PrefixKeys = KeyEntry | Map<string, KeyEntry>;

const entriesOf = (keys: PrefixKeys): Iterable<KeyEntry> => (keys instanceof Map ? keys.values() : [keys]);

export class PresenceKeyIndex {
  /** Written keys by their user prefix (`<env>.<channel>.<user>`). */
  private readonly byPrefix = new Map<string, PrefixKeys>();
  /** Removals delivered per key of this gateway's own (suffix `.<instance>`), so a purge can wait for its own: how many, and the revision of the latest. */
  private readonly removals = new Map<string, { count: number; revision: number }>();
  private seen = 0;
  private waiters: Waiter[] = [];
  /** False once the watcher has ended: callers look the keys up in the bucket again. */
  live = true;
  private readonly ttlMs: number;
  private readonly ownSuffix: string;

  constructor(ttlMs: number, instanceId: string) {
    this.ttlMs = ttlMs;
    this.ownSuffix = `.${instanceId}`;
  }

  /** The highest revision delivered so far. */
  get revision(): number {
    return this.seen;
  }

  apply(entry: IndexedEntry): void {
    const prefix = prefixOf(entry.key);
    if (entry.operation === 'PUT') {
      const written: KeyEntry = { key: entry.key, revision: entry.revision, at: entry.created.getTime() };
      const keys = this.byPrefix.get(prefix);
      if (keys instanceof Map) keys.set(entry.key, written);
      else if (!keys || keys.key === entry.key) this.byPrefix.set(prefix, written);
      else this.byPrefix.set(prefix, new Map([[keys.key, keys], [entry.key, written]]));
    } else {
      this.forget(prefix, entry.key);
      if (entry.key.endsWith(this.ownSuffix)) {
        this.removals.set(entry.key, { count: (this.removals.get(entry.key)?.count ?? 0) + 1, revision: entry.revision });
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

  /** How many removals of this gateway's `key` have been delivered (taken before purging it). */
  removalsOf(key: string): number {
    return this.removals.get(key)?.count ?? 0;
  }

  /**
   * Resolves once a removal of `key` after `mark` (removalsOf before the purge) has been delivered,
   * with that removal's revision (undefined if the watcher ended first or took more than `limitMs`).
   */
  async removed(key: string, mark: number, limitMs: number): Promise<number | undefined> {
    await this.until(() => this.removalsOf(key) > mark, limitMs);
    const revision = this.removalsOf(key) > mark ? this.removals.get(key)?.revision : undefined;
    this.removals.delete(key);
    return revision;
  }

  /** Other gateways' live keys for the same user and channel as `key`, with their latest revision. */
  others(key: string, now = Date.now()): { key: string; revision: number }[] {
    const prefix = prefixOf(key);
    const keys = this.byPrefix.get(prefix);
    if (!keys) return [];
    const found: { key: string; revision: number }[] = [];
    // (a Map's iteration goes on past entries deleted meanwhile)
    for (const { key: other, revision, at } of entriesOf(keys)) {
      if (other === key) continue;
      // aged out of the bucket (its gateway stopped refreshing): no change tells us, the clock does
      if (now - at > this.ttlMs) this.forget(prefix, other);
      else found.push({ key: other, revision });
    }
    return found;
  }

  /**
   * Forgets every entry that aged out of the bucket (its gateway stopped refreshing it): `others`
   * drops them only for the prefix it is asked about, so a dead gateway's keys of channels nobody
   * asks about again would otherwise stay in memory. Called every refresh round.
   */
  sweep(now = Date.now()): void {
    for (const [prefix, keys] of this.byPrefix) {
      for (const { key, at } of entriesOf(keys)) if (now - at > this.ttlMs) this.forget(prefix, key);
    }
  }

  /** Drops one key of a prefix, and the prefix with its last key. */
  private forget(prefix: string, key: string): void {
    const keys = this.byPrefix.get(prefix);
    if (!keys) return;
    if (keys instanceof Map) {
      if (keys.delete(key) && keys.size === 0) this.byPrefix.delete(prefix);
    } else if (keys.key === key) {
      this.byPrefix.delete(prefix);
    }
  }

  /** Entries held, over every prefix. */
  get size(): number {
    let n = 0;
    for (const keys of this.byPrefix.values()) n += keys instanceof Map ? keys.size : 1;
    return n;
  }

  /** The watcher ended: every wait resolves now (callers see `live` false and list the bucket). */
  abandon(): void {
    this.live = false;
    for (const waiter of this.waiters) waiter.resolve();
    this.waiters = [];
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

const prefixOf = (key: string) => key.slice(0, key.lastIndexOf('.'));
