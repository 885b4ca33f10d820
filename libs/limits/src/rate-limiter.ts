import type { CasStore } from './cas-store.ts';
import { LocalWindow, grantLease, localShare, windowOf } from './window-lease.ts';

/** How long a gateway admits from local shares after the shared store failed, before trying it again. */
const STORE_BACKOFF_MS = 2_000;
/** Compare-and-set attempts per lease before this one request is refused (extreme contention). */
const MAX_SWAPS = 16;

class Slot extends LocalWindow {
  pending: Promise<void> | undefined;
  limit = 0;
  /**
   * This gateway had no slot of the key in the previous window either: the shared counter of
   * this window most likely does not exist yet, so the first lease creates it in one step instead
   * of reading it first (a storm of new users costs one store operation each, not two).
   */
  fresh = false;
}

export interface RateLimiterOptions {
  store: CasStore;
  /** Gateways alive in the cluster (this one included), for the local share when the store is down. */
  liveGateways: () => number;
  now?: () => number;
  onStoreError?: (error: unknown) => void;
}

/**
 * Cluster-wide fixed-window rate limits for one gateway (see window-lease.ts for the arithmetic).
 * `take` answers synchronously while the gateway's lease lasts or the window is known to be
 * exhausted, and asynchronously when it must lease more; concurrent callers share one lease
 * request per (limit, key).
 */
export class RateLimiter {
  private readonly slots = new Map<string, Slot>();
  private readonly store: CasStore;
  private readonly liveGateways: () => number;
  private readonly now: () => number;
  private readonly onStoreError: (error: unknown) => void;
  private storeDownUntil = 0;

  constructor(options: RateLimiterOptions) {
    this.store = options.store;
    this.liveGateways = options.liveGateways;
    this.now = options.now ?? Date.now;
    this.onStoreError = options.onStoreError ?? (() => {});
  }

  /**
   * Admits one event of `name` for `key` (a key is a subject-safe token) under `limit` per window,
   * or refuses it (false). An event may weigh more than one unit (`units`, see weights.ts); a
   * weight above the limit counts as the whole limit, so any event fits in an untouched window.
   */
  take(name: string, key: string, limit: number, units = 1): boolean | Promise<boolean> {
    const weight = Math.max(1, Math.min(Math.floor(units) || 1, limit));
    const window = windowOf(this.now());
    const id = `${name}.${key}`;
    let slot = this.slots.get(id);
    if (!slot || slot.window !== window) {
      const fresh = !slot;
      slot = new Slot(window);
      slot.limit = limit;
      slot.fresh = fresh;
      this.slots.set(id, slot);
    }
    if (slot.limit !== limit) {
      // a deploy changed the limit mid-window: what is left of the lease was sized for the old
      // one, so it goes, and the shared counter decides again under the new limit
      slot.limit = limit;
      slot.leased = slot.used;
      slot.exhausted = false;
    }
    if (slot.admit(weight)) return true;
    if (slot.exhausted) return false;
    const current = slot;
    current.pending ??= this.lease(current, id, limit, weight - current.left).finally(() => (current.pending = undefined));
    return current.pending.then(() => {
      if (current.admit(weight)) return true;
      // exhausted: the window's limit is reached. Otherwise lease again -- in the next window if
      // this one ended while the lease was on its way (a slow store at a second's boundary used
      // to refuse every caller that waited on it)
      if (current.exhausted && current.window === windowOf(this.now())) return false;
      return this.take(name, key, limit, weight);
    });
  }

  /** Forgets windows that have ended (called about once a second). */
  sweep(): void {
    const window = windowOf(this.now());
    for (const [id, slot] of this.slots) if (slot.window < window && !slot.pending) this.slots.delete(id);
  }

  get size(): number {
    return this.slots.size;
  }

  private async lease(slot: Slot, id: string, limit: number, need: number): Promise<void> {
    if (this.now() >= this.storeDownUntil) {
      try {
        const granted = await this.leaseShared(`${id}.${slot.window}`, limit, need, slot.fresh && slot.leased === 0);
        if (granted !== null) slot.addLease(granted);
        return;
      } catch (error) {
        this.storeDownUntil = this.now() + STORE_BACKOFF_MS;
        this.onStoreError(error);
      }
    }
    // the store is unreachable: this gateway's share of the limit, by the number of live gateways
    slot.addLease(localShare(limit, this.liveGateways()) - slot.leased);
  }

  /** Grants from the shared counter; null when contention outlasted MAX_SWAPS (refuse this one). */
  private async leaseShared(key: string, limit: number, need: number, create: boolean): Promise<number | null> {
    if (create) {
      // most likely nobody has leased in this window yet: create the counter (revision 0: only if
      // it does not exist); if someone has, read it and go on as usual
      const granted = grantLease(0, limit, need);
      if (granted > 0 && (await this.store.swap(key, String(granted), 0))) return granted;
    }
    for (let attempt = 0; attempt < MAX_SWAPS; attempt++) {
      const entry = await this.store.get(key);
      const handedOut = entry ? Number(entry.value) || 0 : 0;
      const granted = grantLease(handedOut, limit, need);
      if (granted === 0) return 0;
      if (await this.store.swap(key, String(handedOut + granted), entry?.revision ?? 0)) return granted;
    }
    return null;
  }
}
