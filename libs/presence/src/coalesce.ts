/**
 * Presence coalescing: the joins and leaves of one channel gathered over a window and given out
 * as one change set (pure logic; the gateway's presence and its channel feeds run the timers).
 *
 * - Each change carries `at`, the presence bucket's revision of the write (arrival) or purge
 *   (departure) its gateway decided it on. Revisions are one order for every gateway, and each
 *   decision was made seeing every key change up to its revision, so for one user the decision of
 *   the highest revision wins, whatever order the bus delivered the changes in and however far
 *   apart the gateways' clocks or watchers are: two gateways' windows flushing out of order
 *   cannot leave a user shown offline while online, nor online once every socket is gone.
 * - A window gives out, per user, the latest decision of the window, even when it restates the
 *   state given out before: every decision is a change a roster reader could have seen (an arrival
 *   wrote the user's first key, a departure purged the last one), and a client that read the
 *   roster between a leave and a return, in one window or hidden by a gateway's own window, only
 *   learns of the return from this frame. So churn costs at most one entry per user per window,
 *   never nothing.
 * - The state given out is remembered for `rememberMs` only to drop a late change older (`at`)
 *   than it, so two gateways' messages arriving out of order cannot undo a newer decision.
 */

/** How long presence changes are gathered before they go out, on each gateway and each feed. */
export const PRESENCE_WINDOW_MS = 250;

/** One user's presence change as gateways tell each other on the channel subject. */
export interface PresenceChange {
  userId: string;
  online: boolean;
  /** The presence bucket revision the deciding gateway decided it on (see above). */
  at: number;
}

/** What one window gives out: the joins and leaves, and the changes behind them. */
export interface PresenceBatch {
  joined: string[];
  left: string[];
  changes: PresenceChange[];
}

interface Pending {
  /** The latest decision of the window (by `at`). */
  online: boolean;
  at: number;
}

interface Settled {
  /** The `at` of the decision given out last. */
  at: number;
  settledAt: number;
}

export class PresenceWindow {
  private readonly pending = new Map<string, Pending>();
  /** Users given out recently, oldest first (re-inserted when given out again). */
  private readonly settled = new Map<string, Settled>();
  private readonly rememberMs: number;
  /** The highest `at` added so far: a change of the previous release's form is taken as this recent. */
  latestAt = 0;

  constructor(options: { rememberMs?: number } = {}) {
    this.rememberMs = options.rememberMs ?? 0;
  }

  /** Changes waiting for the window to close. */
  get pendingSize(): number {
    return this.pending.size;
  }

  /** Users whose last state is still remembered. */
  get rememberedSize(): number {
    return this.settled.size;
  }

  /** Adds a change; a change older than what is already known for the user is dropped (false). */
  add(change: PresenceChange): boolean {
    if (change.at > this.latestAt) this.latestAt = change.at;
    const waiting = this.pending.get(change.userId);
    if (waiting) {
      if (change.at < waiting.at) return false;
      waiting.online = change.online;
      waiting.at = change.at;
      return true;
    }
    const known = this.settled.get(change.userId);
    if (known && change.at < known.at) return false;
    const { online, at } = change;
    this.pending.set(change.userId, { online, at });
    return true;
  }

  /** Closes the window: each user's latest decision in it, or undefined when it had none. */
  drain(now: number): PresenceBatch | undefined {
    const batch: PresenceBatch = { joined: [], left: [], changes: [] };
    for (const [userId, entry] of this.pending) {
      (entry.online ? batch.joined : batch.left).push(userId);
      batch.changes.push({ userId, online: entry.online, at: entry.at });
      if (this.rememberMs > 0) {
        this.settled.delete(userId);
        this.settled.set(userId, { at: entry.at, settledAt: now });
      }
    }
    this.pending.clear();
    this.forget(now);
    return batch.changes.length > 0 ? batch : undefined;
  }

  /** Drops remembered states older than `rememberMs`. */
  forget(now: number): void {
    for (const [userId, entry] of this.settled) {
      if (entry.settledAt > now - this.rememberMs) break;
      this.settled.delete(userId);
    }
  }
}

/**
 * The changes of a presence message on the channel subject: `{op:"presence", changes:[{userId,
 * online, at}]}`, or the single-change form `{op:"presence", userId, online}` that gateways of the
 * previous release publish (taken as decided at `legacyAt`: the newest `at` seen, so it counts as
 * recent and the next change of the new form overrides it). Malformed entries are skipped.
 */
export function changesOf(frame: Record<string, unknown>, legacyAt: number): PresenceChange[] {
  if (Array.isArray(frame.changes)) {
    const out: PresenceChange[] = [];
    for (const entry of frame.changes as unknown[]) {
      if (entry === null || typeof entry !== 'object') continue;
      const { userId, online, at } = entry as Record<string, unknown>;
      if (typeof userId === 'string' && typeof online === 'boolean' && typeof at === 'number' && Number.isFinite(at)) {
        out.push({ userId, online, at });
      }
    }
    return out;
  }
  if (typeof frame.userId === 'string' && typeof frame.online === 'boolean') return [{ userId: frame.userId, online: frame.online, at: legacyAt }];
  return [];
}
